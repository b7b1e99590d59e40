import type { Browser, Page } from '@playwright/test';
import { expect, test } from './test.js';
import { baseURL, expectToast, newAccount, screenshotPath, signUp } from './support.js';

async function memberPage(browser: Browser, prefix: string) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const account = await signUp(page, newAccount(prefix));
  const me = await page.request.get('/api/auth/user');
  const { id } = (await me.json()) as { id: number };
  return { page, account, id };
}

async function post(page: Page, path: string, data: object): Promise<{ id: number }> {
  const response = await page.request.post(path, { data, headers: { Origin: baseURL() } });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as { id: number };
}

async function shoot(page: Page, name: string) {
  await page.screenshot({ path: screenshotPath(`${name}-1280`) });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: screenshotPath(`${name}-390`) });
  await page.setViewportSize({ width: 1280, height: 900 });
}

test('a member watches a paste, follows its author, bookmarks it and finds it in /bookmarks', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const alice = await memberPage(browser, 'alice');
  const bob = await memberPage(browser, 'bob');
  const title = `Watch me ${Date.now()}`;
  const paste = await post(alice.page, '/api/threads', { title, content: 'echo watched' });

  // Bob watches Alice's paste and bookmarks it with a note.
  await bob.page.goto(`/thread/${paste.id}`);
  await bob.page.getByRole('button', { name: 'WATCH', exact: true }).click();
  await expectToast(bob.page, 'Watching: every reply will notify you');
  await expect(bob.page.getByRole('button', { name: 'UNWATCH' })).toBeVisible();
  await bob.page.getByRole('button', { name: `Bookmark paste ${title}` }).click();
  await bob.page.getByLabel('Note (optional)').fill('read this later');
  await bob.page.getByRole('button', { name: 'SAVE' }).click();
  await expectToast(bob.page, 'Bookmarked');
  await expect(bob.page.getByRole('button', { name: `Bookmarked: paste ${title}` })).toBeVisible();
  await shoot(bob.page, 'watching-paste');

  // He follows Alice from her profile.
  await bob.page.goto(`/profile/${alice.id}`);
  await bob.page.getByRole('button', { name: 'FOLLOW', exact: true }).click();
  await expectToast(bob.page, `Following ${alice.account.username}: their new public pastes will notify you`);
  await expect(bob.page.getByRole('button', { name: 'UNFOLLOW' })).toBeVisible();

  // A reply notifies him ('watch'); a new public paste of Alice's too ('follow').
  await post(alice.page, `/api/threads/${paste.id}/replies`, { content: 'a reply', parentId: null });
  const next = await post(alice.page, '/api/threads', { title: `${title} again`, content: 'echo 2' });
  await expect
    .poll(async () => {
      const res = await bob.page.request.get('/api/notifications');
      const body = (await res.json()) as { notifications: Array<{ type: string; threadId: unknown }> };
      return body.notifications.map((n) => `${n.type} ${String(n.threadId)}`).sort();
    })
    .toEqual([`follow ${next.id}`, `watch ${paste.id}`].sort());

  // /bookmarks lists the paste with its note.
  await bob.page.goto('/bookmarks');
  const list = bob.page.getByRole('list', { name: 'BOOKMARKS' });
  await expect(list.getByRole('link', { name: title })).toBeVisible();
  await expect(list.getByText('read this later')).toBeVisible();
  await shoot(bob.page, 'watching-bookmarks');

  // The watching screen lists the paste and Alice.
  await bob.page.goto('/settings/watching');
  await expect(
    bob.page.getByRole('list', { name: 'PASTES' }).getByRole('link', { name: title }),
  ).toBeVisible();
  await expect(
    bob.page.getByRole('list', { name: 'MEMBERS' }).getByRole('link', { name: alice.account.username }),
  ).toBeVisible();
  await shoot(bob.page, 'watching-settings');
  await bob.page.getByRole('button', { name: `UNFOLLOW ${alice.account.username}` }).click();
  await expect(bob.page.getByText('You follow nobody.')).toBeVisible();
});

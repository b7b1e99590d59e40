import { expect, test } from './test.js';
import { baseURL, newAccount, screenshotPath, signInAsOwner, signUp } from './support.js';

/**
 * Unlisted and private pastes in Chromium: member A posts an unlisted paste through the form; member B
 * opens it by its link but finds it neither on home, nor in search, nor on A's profile; a private paste
 * gives B the not-found view.
 */
for (const width of [1280, 390]) {
  test(`an unlisted paste is read by its link only, a private one by its author only (${width} wide)`, async ({
    page,
    browser,
  }) => {
    await page.setViewportSize({ width, height: 800 });
    await signUp(page, newAccount('alice'));
    const alice = (await (await page.request.get('/api/auth/user')).json()) as { id: number };
    const word = `quokka${Date.now().toString(36)}${width}`;
    const title = `unlisted ${word}`;

    await page.goto('/thread/new');
    await page.getByLabel('Title').fill(title);
    await page.getByLabel('Content').fill(`only by link: ${word}`);
    const choice = page.getByRole('group', { name: 'Visibility' });
    await expect(choice.getByRole('radio', { name: /PUBLIC/ })).toBeChecked();
    await choice.getByRole('radio', { name: /UNLISTED/ }).check();
    await page.screenshot({ path: screenshotPath(`visibility-form-${width}`), fullPage: true });
    await page.getByRole('button', { name: 'ADD PASTE' }).click();

    // Its page is at its key, not a number, and says so.
    await expect(page).toHaveURL(/\/thread\/[A-Za-z0-9_-]{22}$/);
    const link = page.url();
    const paste = page.getByRole('region', { name: 'PASTE' });
    await expect(paste.getByRole('heading', { level: 1 })).toContainText(title);
    await expect(paste.getByText('UNLISTED', { exact: true })).toBeVisible();
    await expect(paste.getByRole('button', { name: 'Copy the link' })).toBeVisible();
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex');
    await page.screenshot({ path: screenshotPath(`visibility-badge-${width}`) });
    // Its author finds it on their own profile, with its badge.
    await page.goto(`/profile/${alice.id}`);
    const own = page.getByRole('article', { name: title });
    await expect(own.getByText('UNLISTED', { exact: true })).toBeVisible();
    await own.scrollIntoViewIfNeeded();
    await page.screenshot({ path: screenshotPath(`visibility-own-profile-${width}`) });

    // A private paste, posted through the API.
    const created = await page.request.post('/api/threads', {
      data: { title: `private ${word}`, content: 'mine alone', visibility: 'private' },
      headers: { Origin: new URL(link).origin },
    });
    expect(created.status(), await created.text()).toBe(201);
    const { id: privateKey } = (await created.json()) as { id: string };

    // Member B, in a browser of their own.
    const other = await browser.newContext({ viewport: { width, height: 800 } });
    const bob = await other.newPage();
    await signUp(bob, newAccount('bob'));
    await bob.goto(link);
    await expect(bob.getByRole('region', { name: 'PASTE' }).getByRole('heading', { level: 1 })).toContainText(
      title,
    );
    await expect(
      bob.getByRole('region', { name: 'PASTE' }).getByText('UNLISTED', { exact: true }),
    ).toBeVisible();

    await bob.goto('/');
    await expect(bob.getByRole('heading', { level: 1 }).first()).toBeVisible();
    await expect(bob.getByText(title)).toHaveCount(0);
    await bob.goto(`/search?q=${word}`);
    await expect(bob.getByText(`No threads found matching "${word}"`)).toBeVisible();
    await expect(bob.getByText(title)).toHaveCount(0);
    await bob.goto(`/profile/${alice.id}`);
    await expect(bob.getByRole('heading', { level: 1 }).first()).toBeVisible();
    await expect(bob.getByText(title)).toHaveCount(0);

    await bob.goto(`/thread/${privateKey}`);
    await expect(bob.getByText('Thread not found [404]')).toBeVisible();
    await bob.screenshot({ path: screenshotPath(`visibility-private-not-found-${width}`) });
  });
}

for (const width of [1280, 390]) {
  test(`staff open a private paste by its key in the admin panel, and the read is logged (${width} wide)`, async ({
    page,
    browser,
  }) => {
    await signUp(page, newAccount('carol'));
    const title = `private notes ${Date.now().toString(36)}${width}`;
    const created = await page.request.post('/api/threads', {
      data: { title, content: 'line one\nline two', visibility: 'private' },
      headers: { Origin: baseURL() },
    });
    expect(created.status(), await created.text()).toBe(201);
    const { id: key } = (await created.json()) as { id: string };

    const context = await browser.newContext({ viewport: { width, height: 900 } });
    const owner = await context.newPage();
    await signInAsOwner(owner);
    // Its page is not staff's to read: the not-found view, as for anyone.
    await owner.goto(`/thread/${key}`);
    await expect(owner.getByText('Thread not found [404]')).toBeVisible();

    await owner.goto('/admin?tab=pastes');
    const panel = owner.getByRole('tabpanel', { name: 'PASTES' });
    await expect(panel.getByText('Reading a private paste here is recorded in the audit log')).toBeVisible();
    await panel.getByRole('textbox', { name: 'Paste number or key' }).fill(key);
    await panel.getByRole('button', { name: 'OPEN' }).click();
    const paste = panel.getByRole('article', { name: `Paste ${title}` });
    await expect(paste).toContainText('Private: its author only');
    await expect(paste.getByLabel('Paste content')).toHaveText('line one\nline two');
    await owner.screenshot({ path: screenshotPath(`visibility-admin-lookup-${width}`), fullPage: true });

    await owner.getByRole('tab', { name: 'AUDIT LOG' }).click();
    const log = owner.getByRole('table', { name: 'Audit log' });
    await expect(log.getByRole('row').filter({ hasText: title }).first()).toContainText('Read paste');
  });
}

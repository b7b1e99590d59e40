import { randomBytes } from 'node:crypto';
import { expect, test } from './test.js';
import { baseURL, newAccount, screenshotPath, signUp } from './support.js';

test('a member finds a paste with tag:, lang: and a "phrase", from the box, the help and the controls', async ({
  browser,
}) => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await signUp(page, newAccount('finder'));
  const word = `zq${randomBytes(3).toString('hex')}x`;
  const tag = `t-${word}`;
  const title = `Flux notes ${word}`;
  const created = await page.request.post('/api/threads', {
    data: {
      title,
      content: `The ${word} capacitor, wired.\n\n    const u = this.${word}ById(id);\n`,
      language: 'python',
      tags: [tag],
    },
    headers: { Origin: baseURL() },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: number };
  const detail = (await (await page.request.get(`/api/threads/${id}`)).json()) as { tags: string[] };
  expect(detail.tags).toEqual([tag]);
  const card = page.getByRole('link', { name: title });

  // The box takes operators and a phrase.
  await page.goto('/search');
  // The top bar's box and the screen's: wait for both, else `last()` is the top bar's until the screen
  // has loaded, and the Enter after the fill goes to the screen's empty box.
  const boxes = page.getByRole('searchbox', { name: 'Search pastes' });
  await expect(boxes).toHaveCount(2);
  const box = boxes.last();
  await box.fill(`lang:python "${word} capacitor"`);
  await box.press('Enter');
  await expect(page).toHaveURL(/\/search\?q=lang%3Apython/);
  await expect(card).toBeVisible();

  // An identifier inside a longer token.
  await box.fill(`${word}ById`);
  await box.press('Enter');
  await expect(card).toBeVisible();

  // The help lists the operators.
  await page.getByRole('button', { name: 'Search operators' }).click();
  const help = page.getByRole('dialog', { name: 'Search operators' });
  await expect(help.getByText('tag:rust', { exact: true })).toBeVisible();
  await page.screenshot({ path: screenshotPath('search-help-1280') });
  await page.keyboard.press('Escape');
  await expect(help).toBeHidden();

  // The controls write the query text: a tag, a sort.
  await box.fill(`lang:python "${word} capacitor"`);
  const filters = page.getByRole('group', { name: 'Search filters' });
  await filters.getByLabel('tag:').fill(tag);
  await filters.getByLabel('tag:').press('Enter');
  await filters.getByLabel('sort:').selectOption('new');
  await expect(box).toHaveValue(`"${word} capacitor" tag:${tag} lang:python sort:new`);
  await page.getByRole('button', { name: 'SEARCH', exact: true }).click();
  await expect(page.getByRole('heading', { name: /results?$/ })).toBeVisible();
  await expect(card).toBeVisible();
  await page.screenshot({ path: screenshotPath('search-operators-1280'), fullPage: true });

  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: screenshotPath('search-operators-390'), fullPage: true });
  await page.getByRole('button', { name: 'Search operators' }).click();
  await page.screenshot({ path: screenshotPath('search-help-390') });
  await context.close();
});

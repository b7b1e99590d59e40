import { randomBytes } from 'node:crypto';
import { expect, test } from './test.js';
import { baseURL, newAccount, screenshotPath, signUp } from './support.js';

/**
 * A member tags a paste in the add-paste form (one tag typed, one picked from the suggestions), sees the
 * tags under its title and on the tag's page, and the language badge leads to the language's pastes.
 */
test("a member tags a paste and opens its tag's page", async ({ page }) => {
  const width = 1280;
  await page.setViewportSize({ width, height: 800 });
  const suffix = randomBytes(3).toString('hex');
  const known = `e2e-known-${suffix}`;
  const fresh = `e2e-${width}-${suffix}`;
  await signUp(page, newAccount('tagger'));
  // A tag some listed paste already carries: the form suggests it.
  const seeded = await page.request.post('/api/threads', {
    data: { title: `seed ${suffix}`, content: 'echo seed\n', language: 'bash', tags: [known] },
    headers: { Origin: baseURL() },
  });
  expect(seeded.status(), await seeded.text()).toBe(201);

  await page.goto('/thread/new');
  const form = page.getByRole('region', { name: 'ADD PASTE' });
  await form.getByLabel('Title').fill(`tagged ${width}`);
  const tags = form.getByRole('combobox', { name: 'Tags' });
  await tags.fill(fresh.toUpperCase());
  await tags.press('Enter');
  await tags.pressSequentially(`e2e-known-${suffix.slice(0, 2)}`);
  const suggestion = form.getByRole('option', { name: new RegExp(known) });
  await expect(suggestion).toBeVisible();
  await page.screenshot({ path: screenshotPath(`tags-form-${width}`), fullPage: true });
  await suggestion.click();
  await expect(form.getByRole('button', { name: `Remove tag ${known}` })).toBeVisible();
  await form.getByRole('combobox', { name: 'Language' }).fill('bash');
  await form.getByRole('combobox', { name: 'Language' }).press('Enter');
  await form.getByLabel('Content').fill('#!/bin/sh\necho tagged\n');
  await form.getByRole('button', { name: 'ADD PASTE' }).click();

  await expect(page).toHaveURL(/\/thread\/\d+$/);
  const paste = page.getByRole('region', { name: 'PASTE', exact: true });
  const under = paste.getByRole('list', { name: 'Tags' });
  await expect(under.getByRole('link')).toHaveText([`#${fresh}`, `#${known}`]);
  await expect(paste.getByRole('link', { name: 'Bash' })).toHaveAttribute('href', '/lang/bash');
  await page.screenshot({ path: screenshotPath(`tags-paste-${width}`) });
  await under.getByRole('link', { name: `#${known}` }).click();

  await expect(page).toHaveURL(new RegExp(`/tag/${known}$`));
  const tagPage = page.getByRole('region', { name: `#${known}` });
  await expect(tagPage.getByText('2 pastes')).toBeVisible();
  const table = tagPage.getByRole('table', { name: `Pastes tagged ${known}` });
  await expect(table.getByRole('link', { name: `tagged ${width}` })).toBeVisible();
  await expect(table.getByRole('link', { name: `seed ${suffix}` })).toBeVisible();
  await page.screenshot({ path: screenshotPath(`tags-tag-page-${width}`), fullPage: true });

  // The same pages on a phone.
  await page.setViewportSize({ width: 390, height: 800 });
  await page.reload();
  await expect(table.getByRole('link', { name: `tagged ${width}` })).toBeVisible();
  await page.screenshot({ path: screenshotPath('tags-tag-page-390'), fullPage: true });
  await page.goto('/thread/new');
  const narrow = page.getByRole('region', { name: 'ADD PASTE' });
  await narrow.getByRole('combobox', { name: 'Tags' }).pressSequentially(`e2e-known-${suffix.slice(0, 2)}`);
  await expect(narrow.getByRole('option', { name: new RegExp(known) })).toBeVisible();
  await page.screenshot({ path: screenshotPath('tags-form-390'), fullPage: true });

  await page.goto('/lang/bash');
  await expect(page.getByRole('link', { name: `tagged ${width}` })).toBeVisible();
  await page.goto('/tags');
  await expect(page.getByRole('link', { name: `#${known}` })).toBeVisible();
  await page.screenshot({ path: screenshotPath('tags-all-390') });
});

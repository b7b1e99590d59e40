import { expect, test } from './test.js';
import { baseURL, screenshotPath, signUp } from './support.js';

test('home lists a new paste with its author and the count line, and the row opens it', async ({ page }) => {
  const author = await signUp(page);
  const title = `nmap cheatsheet ${Date.now()}`;
  const created = await page.request.post('/api/threads', {
    data: { title, content: '```sh\nnmap -sV 10.0.0.1\n```' },
    headers: { Origin: baseURL() },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: number };

  await page.goto('/');
  const recent = page.getByRole('table', { name: 'Recent pastes' });
  const row = recent.getByRole('row').filter({ hasText: title });
  await expect(row).toBeVisible();
  await expect(row.getByRole('link', { name: author.username })).toHaveAttribute('href', /^\/profile\/\d+$/);
  await expect(page.getByText(/^Showing \d+ of \d+ total pastes$/)).toBeVisible();
  await page.screenshot({ path: screenshotPath('home'), fullPage: true });

  await row.getByRole('cell').nth(1).click();
  await expect(page).toHaveURL(new RegExp(`/thread/${id}$`));
});

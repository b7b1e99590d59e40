import { expect, test } from './test.js';
import { baseURL, newAccount, screenshotPath, signUp } from './support.js';

/** A member forks another's paste from its page, reads 'forked from', and the original lists the fork. */

const CONTENT = ['#!/bin/sh', 'nmap -sV 10.0.0.1', ''].join('\n');

for (const width of [1280, 390]) {
  test(`a member forks a paste; the original counts and lists the fork (${width} wide)`, async ({
    page,
    browser,
  }) => {
    await page.setViewportSize({ width, height: 800 });

    // The original, by another member.
    const authorContext = await browser.newContext({ baseURL: baseURL() });
    const author = await authorContext.newPage();
    await signUp(author, newAccount('origin'));
    const created = await author.request.post('/api/threads', {
      data: { title: `scan notes ${width}`, content: CONTENT, language: 'bash' },
      headers: { Origin: baseURL() },
    });
    expect(created.status(), await created.text()).toBe(201);
    const { id: original } = (await created.json()) as { id: number };
    await authorContext.close();

    await signUp(page, newAccount('forker'));
    await page.goto(`/thread/${original}`);
    const paste = page.getByRole('region', { name: 'PASTE', exact: true });
    await expect(paste.getByRole('heading', { level: 1 })).toHaveText(`scan notes ${width}`);
    await page.screenshot({ path: screenshotPath(`forks-fork-button-${width}`) });
    await paste.getByRole('link', { name: 'FORK' }).click();

    await expect(page).toHaveURL(new RegExp(`/thread/new\\?fork=${original}$`));
    const form = page.getByRole('region', { name: 'FORK PASTE' });
    await expect(form.getByLabel('Title')).toHaveValue(`scan notes ${width}`);
    await expect(form.getByLabel('Content')).toHaveValue(CONTENT);
    await expect(form.getByRole('combobox', { name: 'Language' })).toHaveValue('Bash');
    await form.getByLabel('Title').fill(`my scan notes ${width}`);
    await page.screenshot({ path: screenshotPath(`forks-form-${width}`), fullPage: true });
    await form.getByRole('button', { name: 'FORK' }).click();

    // The fork: its own page, naming where it came from.
    await expect(page).toHaveURL(/\/thread\/\d+$/);
    const fork = page.getByRole('region', { name: 'PASTE', exact: true });
    await expect(fork.getByRole('heading', { level: 1 })).toHaveText(`my scan notes ${width}`);
    await expect(fork).toContainText(`forked from scan notes ${width}`);
    const forkUrl = page.url();
    await page.screenshot({ path: screenshotPath(`forks-forked-from-${width}`) });

    // The original: its count, and the fork in its list.
    await fork.getByRole('link', { name: `scan notes ${width}` }).click();
    await expect(page).toHaveURL(new RegExp(`/thread/${original}$`));
    // The server's page, not the browser's copy (and no toast over the list).
    await page.reload();
    const again = page.getByRole('region', { name: 'PASTE', exact: true });
    await expect(again.getByRole('link', { name: '1 fork' })).toBeVisible();
    const forks = page.getByRole('region', { name: '1 FORK' });
    const listed = forks.getByRole('link', { name: `my scan notes ${width}` });
    await expect(listed).toBeVisible();
    await forks.scrollIntoViewIfNeeded();
    await page.screenshot({ path: screenshotPath(`forks-list-${width}`) });
    await listed.click();
    await expect(page).toHaveURL(forkUrl);
  });
}

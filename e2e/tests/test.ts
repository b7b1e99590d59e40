import { test as base, type BrowserContext } from '@playwright/test';

export { expect } from '@playwright/test';

/**
 * Playwright's `test`, which also closes every browser context a test opened itself (`browser.newContext()`)
 * when the test ends, passed or failed. Playwright closes only the `context` it made; the others would
 * live on in the worker for the rest of the run, their pages still polling and holding live sockets, a
 * load every later test of that worker shares (a 2-core CI machine feels it).
 */
export const test = base.extend<{ closeOpenedContexts: void }>({
  closeOpenedContexts: [
    async ({ browser }, use) => {
      const before = new Set<BrowserContext>(browser.contexts());
      await use();
      const opened = browser.contexts().filter((context) => !before.has(context));
      await Promise.all(opened.map((context) => context.close()));
    },
    { auto: true },
  ],
});

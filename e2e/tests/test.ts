import { test as base, type BrowserContext } from '@playwright/test';

export { expect } from '@playwright/test';

/**
 * Playwright's `test`, which also closes the browser contexts a test opened itself when it ends.
 * Playwright closes only its own `context`; the others would live on in the worker, polling and holding
 * live sockets, a load every later test there shares.
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

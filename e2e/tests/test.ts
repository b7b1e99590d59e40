import { test as base, type BrowserContext } from '@playwright/test';
import { NetworkWatch } from './network-report.js';

export { expect } from '@playwright/test';

/**
 * Playwright's `test`, which also closes the browser contexts a test opened itself when it ends.
 * Playwright closes only its own `context`; the others would live on in the worker, polling and holding
 * live sockets, a load every later test there shares.
 *
 * A test that fails gets a "slow requests" attachment in its report: its pages' requests that took 2 s
 * or more or never ended, whether Chromium sent them, and what the server logged of them.
 */
export const test = base.extend<{ closeOpenedContexts: void; slowRequestsReport: void }>({
  closeOpenedContexts: [
    async ({ browser }, use) => {
      const before = new Set<BrowserContext>(browser.contexts());
      await use();
      const opened = browser.contexts().filter((context) => !before.has(context));
      await Promise.all(opened.map((context) => context.close()));
    },
    { auto: true },
  ],
  slowRequestsReport: [
    async ({ browser }, use, testInfo) => {
      const watch = new NetworkWatch(browser);
      await use();
      watch.stop();
      await watch.attachIfFailed(testInfo);
    },
    { auto: true },
  ],
});

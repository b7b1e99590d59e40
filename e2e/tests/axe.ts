import { AxeBuilder } from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/** The impacts the suite fails on: zero serious or critical violations. */
const FAILING = new Set(['serious', 'critical']);

/** One axe violation on one screen, as the failure message prints it. */
export interface Finding {
  screen: string;
  id: string;
  impact: string;
  help: string;
  /** Each node's selector, with axe's summary of what fails there (the measured contrast, say). */
  targets: string[];
}

export const formatFindings = (findings: Finding[]) =>
  findings
    .map(
      (f) =>
        `${f.screen}: ${f.id} [${f.impact}] ${f.help}\n    ${f.targets.map((t) => `at ${t}`).join('\n    ')}`,
    )
    .join('\n');

/**
 * Waits until the page has settled: no finite animation running (a dialog fading in would be measured
 * half transparent), no placeholder rows, no spinner, fonts loaded, a toast held open.
 */
export async function settle(page: Page): Promise<void> {
  // A toast closes itself after 5 s; on a loaded machine axe may still be measuring then, and would see it
  // fading out (half transparent, too little contrast). The pointer over it pauses its timer, as for a reader.
  const toast = page.locator('.tp-toast').last();
  if (await toast.isVisible()) await toast.hover();
  await expect(page.locator('.tp-skeleton')).toHaveCount(0);
  await expect(page.locator('.tp-spinner')).toHaveCount(0);
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Infinity),
  );
}

/**
 * Runs axe (every rule it has: WCAG 2.0 to 2.2 A and AA, and best practices) over the page as it is now;
 * returns the serious and critical violations, each printed with its id, impact, targets and help.
 */
export async function axe(page: Page, screen: string): Promise<Finding[]> {
  await settle(page);
  const { violations } = await new AxeBuilder({ page }).analyze();
  const findings = violations.map((v) => ({
    screen,
    id: v.id,
    impact: v.impact ?? 'unknown',
    help: `${v.help} (${v.helpUrl})`,
    targets: v.nodes.map(
      (n) => `${n.target.join(' ')}: ${(n.failureSummary ?? '').replace(/\s+/g, ' ').trim()}`,
    ),
  }));
  const minor = findings.filter((f) => !FAILING.has(f.impact));
  if (minor.length > 0) console.log(`[axe, not failing] ${formatFindings(minor)}`);
  return findings.filter((f) => FAILING.has(f.impact));
}

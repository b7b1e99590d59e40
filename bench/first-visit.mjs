// The JavaScript a member's Chromium loads on a first visit to home, gzipped.
import { existsSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

/** Sum of the gzip sizes of the JavaScript a member's browser loads on a first visit to home. */
export async function firstVisitJs(app, cookie) {
  const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(chromiumPath)) return { skipped: `no Chromium at ${chromiumPath}` };
  const { chromium } = await import('@playwright/test');
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    args: ['--headless', '--no-sandbox', '--disable-gpu'],
  });
  try {
    const context = await browser.newContext();
    const [name, value] = cookie.split('=');
    await context.addCookies([{ name, value, url: app.url }]);
    const page = await context.newPage();
    const scripts = [];
    page.on('response', (response) => {
      if (response.request().resourceType() === 'script') scripts.push(response);
    });
    await page.goto(app.url + '/', { waitUntil: 'networkidle' });
    await page.getByText('Showing', { exact: false }).first().waitFor({ timeout: 30_000 });
    let gzip = 0;
    let raw = 0;
    let sent = 0;
    const each = [];
    for (const response of scripts) {
      const body = await response.body();
      const zipped = gzipSync(body, { level: 9 }).length;
      raw += body.length;
      gzip += zipped;
      sent += Number((await response.headerValue('content-length')) ?? body.length);
      each.push({ path: new URL(response.url()).pathname, gzipKb: +(zipped / 1024).toFixed(1) });
    }
    return {
      files: scripts.length,
      each: each.sort((a, b) => b.gzipKb - a.gzipKb),
      rawKb: +(raw / 1024).toFixed(1),
      gzipKb: +(gzip / 1024).toFixed(1),
      sentKb: +(sent / 1024).toFixed(1),
    };
  } finally {
    await browser.close();
  }
}

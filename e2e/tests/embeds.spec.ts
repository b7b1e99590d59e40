import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from './test.js';
import { baseURL, expectToast, newAccount, screenshotPath, signUp } from './support.js';

/**
 * A paste embedded in another site: a page on another origin (a static server on another port) puts the
 * oEmbed answer's iframe in, and Chromium shows the paste's code inside it. On the paste's page, EMBED
 * copies the same snippet.
 */

const CONTENT = ['const answer = 42;', 'console.log(`the answer is ${answer}`);', ''].join('\n');

/** A one-page site on 127.0.0.1 (another port, so another origin) that serves `html`. */
async function otherSite(html: string): Promise<{ url: string; server: Server }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, server };
}

test('another site embeds a paste through oEmbed; EMBED copies the snippet', async ({ page, browser }) => {
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL() });
  await signUp(page, newAccount('embedder'));
  const created = await page.request.post('/api/threads', {
    data: { title: 'The <answer> & more', content: CONTENT, language: 'javascript' },
    headers: { Origin: baseURL() },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: number };

  // The paste page offers oEmbed discovery and EMBED.
  await page.goto(`/thread/${id}`);
  const discovery = page.locator('head link[rel="alternate"][type="application/json+oembed"]');
  await expect(discovery).toHaveCount(1);
  const oembedUrl = (await discovery.getAttribute('href'))!;
  expect(oembedUrl).toContain(encodeURIComponent(`/thread/${id}`));
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 800 });
    await page.screenshot({ path: screenshotPath(`embeds-paste-page-${width}`) });
  }
  await page.getByRole('button', { name: 'EMBED', exact: true }).click();
  await expectToast(page, 'Embed code copied: paste it into your page');
  const snippet = await page.evaluate(() => navigator.clipboard.readText());
  expect(snippet).toMatch(new RegExp(`^<iframe src="${baseURL()}/embed/${id}" `));

  const oembed = await page.request.get(oembedUrl);
  expect(oembed.status()).toBe(200);
  const { html, type } = (await oembed.json()) as { html: string; type: string };
  expect(type).toBe('rich');
  expect(html).toBe(snippet);

  // Home and the author's profile advertise their Atom feeds, which list the paste.
  for (const [path, feed] of [
    ['/', '/feeds/recent.atom'],
    ['/profile', '/feeds/users/'],
  ] as const) {
    await page.goto(path);
    const link = page.locator('head link[rel="alternate"][type="application/atom+xml"]');
    await expect(link).toHaveAttribute('href', new RegExp(`^${feed.replace(/\./g, '\\.')}`));
    const atom = await page.request.get((await link.getAttribute('href'))!);
    expect(atom.headers()['content-type']).toBe('application/atom+xml; charset=utf-8');
    expect(await atom.text()).toContain('<title type="text">The &lt;answer&gt; &amp; more</title>');
  }

  const site = await otherSite(`<!doctype html><title>My blog</title><h1>My blog</h1>${html}`);
  try {
    for (const width of [1280, 390]) {
      const context = await browser.newContext({ viewport: { width, height: 700 } });
      const reader = await context.newPage();
      await reader.goto(site.url);
      const frame = reader.frameLocator('iframe');
      await expect(frame.locator('code')).toContainText('the answer is');
      await expect(frame.getByRole('link', { name: 'The <answer> & more' })).toHaveAttribute(
        'href',
        `${baseURL()}/thread/${id}`,
      );
      await expect(frame.locator('.hljs-keyword').first()).toHaveText('const');
      await reader.screenshot({ path: screenshotPath(`embeds-other-site-${width}`) });
      await context.close();
    }
  } finally {
    await new Promise((resolve) => site.server.close(resolve));
  }
});

import {
  API,
  EMBED_PAGE,
  EMBED_WIDTH,
  FEED_MESSAGES,
  FEEDS,
  type Oembed,
  oembedSchema,
  PAGES,
  TAG_MESSAGES,
} from '@termpaste/contracts';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { EMBED_CONTENT_SECURITY_POLICY } from '../src/http/security-headers.js';
import { registered } from './support/accounts.js';
import { liveUser, type LiveUser } from './support/live.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/*
 * The Atom feeds, the embeds and oEmbed, on one app: listed pastes only in every feed, embeds of public
 * and unlisted pastes only, framable by any site while every other page refuses framing.
 */

const PUBLIC_URL = 'http://paste.example.test:8080';
const ATOM_NS = 'http://www.w3.org/2005/Atom';
/** A title no feed may break on: markup, quotes, a bell, a terminal escape, a C1 control. */
const HOSTILE_TITLE = `<b>Tom & "Jerry"</b> 'x' \u0007\u001b[31mred\u0085`;
/** What a reader shows of it: the forbidden characters dropped, the rest as written. */
const HOSTILE_SHOWN = `<b>Tom & "Jerry"</b> 'x' [31mred`;
const RFC3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/;

interface AtomLink {
  '@_rel'?: string;
  '@_type'?: string;
  '@_href': string;
}
interface AtomText {
  '#text'?: string;
  '@_type'?: string;
}
interface AtomEntry {
  id: string;
  title: AtomText;
  updated: string;
  published?: string;
  link: AtomLink[];
  author?: { name: string; uri?: string }[];
  category?: { '@_term': string }[];
  summary?: AtomText;
}
interface AtomFeed {
  '@_xmlns': string;
  id: string;
  title: AtomText;
  updated: string;
  link: AtomLink[];
  author?: { name: string }[];
  entry?: AtomEntry[];
}

const parser = new XMLParser({
  ignoreAttributes: false,
  // Text as written (no number guessing), every repeatable element a list.
  parseTagValue: false,
  textNodeName: '#text',
  alwaysCreateTextNode: true,
  isArray: (name) => ['entry', 'link', 'author', 'category'].includes(name),
});

const textOf = (node: AtomText | string | { '#text'?: string }): string =>
  typeof node === 'string' ? node : (node['#text'] ?? '');

/**
 * The feed parsed by a strict XML parser (well-formed or it throws), held to RFC 4287's required
 * elements: the feed's and each entry's id, title and updated (RFC 3339), an author for each entry
 * (its own or the feed's), a self link, an alternate link per entry; ids absolute.
 */
function parseAtom(xml: string): AtomFeed {
  const valid = XMLValidator.validate(xml);
  if (valid !== true) throw new Error(`not well-formed XML: ${JSON.stringify(valid.err)}`);
  const doc = parser.parse(xml) as { feed?: AtomFeed };
  const feed = doc.feed!;
  expect(feed).toBeDefined();
  expect(feed['@_xmlns']).toBe(ATOM_NS);
  expect(textOf(feed.id)).toMatch(/^https?:\/\//);
  expect(textOf(feed.title).length).toBeGreaterThan(0);
  expect(textOf(feed.updated)).toMatch(RFC3339);
  expect(feed.link.filter((link) => link['@_rel'] === 'self')).toHaveLength(1);
  const feedHasAuthor = (feed.author ?? []).some((author) => textOf(author.name).length > 0);
  const ids = new Set<string>();
  for (const entry of feed.entry ?? []) {
    expect(textOf(entry.id)).toMatch(/^https?:\/\//);
    ids.add(textOf(entry.id));
    expect(entry.title).toBeDefined();
    expect(textOf(entry.updated)).toMatch(RFC3339);
    expect(feedHasAuthor || (entry.author ?? []).length > 0).toBe(true);
    const alternates = entry.link.filter((link) => (link['@_rel'] ?? 'alternate') === 'alternate');
    expect(alternates).toHaveLength(1);
    // No content: a summary is required (4.1.1.1).
    expect(entry.summary).toBeDefined();
  }
  expect(ids.size).toBe((feed.entry ?? []).length);
  return feed;
}

const titles = (feed: AtomFeed) => (feed.entry ?? []).map((entry) => textOf(entry.title));

/** A CSP header as directive name to its sources. */
function csp(header: string | undefined): Record<string, string[]> {
  return Object.fromEntries(
    (header ?? '')
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter(([name]) => name)
      .map(([name, ...sources]) => [name!, sources]),
  );
}

describe('Atom feeds, embeds and oEmbed', () => {
  let t: TestApp;
  let alice: LiveUser;
  /** Every paste below carries this word (search) and the tag `feedtag`. */
  const WORD = 'zqfeedword';
  const pastes: Record<string, { id: number; key: string | null; title: string }> = {};

  async function post(name: string, body: Record<string, unknown>): Promise<void> {
    const title = (body['title'] as string | undefined) ?? `Paste ${name} ${WORD}`;
    await alice.browser
      .post(API.threads)
      .send({ content: `line one ${WORD}\nline <two> & "three"\n`, ...body, title })
      .expect(201);
    const [row]: Array<{ id: number; key: string | null }> = await t.dataSource.query(
      'SELECT id, key FROM threads WHERE title = $1',
      [title],
    );
    pastes[name] = { id: row!.id, key: row!.key, title };
  }

  beforeAll(async () => {
    t = await createTestApp({ env: { PUBLIC_URL } });
    await registered(t); // the owner
    alice = await liveUser(t);
    await post('older', { language: 'typescript', content: `const a = 1; // ${WORD}\n` });
    await post('hostile', { title: `<b>Tom & "Jerry"</b> 'x' ${WORD}` });
    await post('unlisted', { visibility: 'unlisted' });
    await post('private', { visibility: 'private' });
    await post('burning', { burnAfterReading: true });
    await post('hidden', {});
    await post('deleted', {});
    await post('expired', {});
    // Behind the API's back, what it refuses or takes time to do: control characters in a title, a
    // paste hidden pending review, one expired a moment ago.
    const hostileTitle = `${HOSTILE_TITLE} ${WORD}`;
    await t.dataSource.query('UPDATE threads SET title = $2 WHERE id = $1', [
      pastes['hostile']!.id,
      hostileTitle,
    ]);
    pastes['hostile']!.title = hostileTitle;
    await t.dataSource.query('UPDATE threads SET hidden_at = now() WHERE id = $1', [pastes['hidden']!.id]);
    await t.dataSource.query("UPDATE threads SET expires_at = now() - interval '1 second' WHERE id = $1", [
      pastes['expired']!.id,
    ]);
    await alice.browser.delete(API.thread(pastes['deleted']!.id)).expect(204);
    // Tags as the tags' writes store them: every paste carries `feedtag`.
    const [tag]: Array<{ id: number }> = await t.dataSource.query(
      "INSERT INTO tags (name, paste_count) VALUES ('feedtag', 2) RETURNING id",
    );
    await t.dataSource.query(
      `INSERT INTO paste_tags (thread_id, tag_id, created_at) SELECT id, $1, created_at FROM threads`,
      [tag!.id],
    );
    await t.dataSource.query("UPDATE threads SET tags = '{feedtag}'");
    await t.dataSource.query("INSERT INTO tags (name) VALUES ('emptytag')");
    await t.pagesChanged();
  });

  afterAll(async () => {
    await t?.close();
  });

  const LISTED = ['hostile', 'older'];
  const UNLISTED = ['unlisted', 'private', 'burning', 'hidden', 'deleted', 'expired'];

  async function feed(path: string): Promise<{ feed: AtomFeed; xml: string; etag: string }> {
    const res = await t.http.get(path).buffer(true).expect(200);
    expect(res.headers['content-type']).toBe('application/atom+xml; charset=utf-8');
    // A feed reader keeps it a minute; a cache in front as any visitor's page (edge-cache.spec).
    expect(res.headers['cache-control']).toMatch(
      /^public, max-age=60, s-maxage=\d+, stale-while-revalidate=\d+$/,
    );
    const xml = res.text;
    return { feed: parseAtom(xml), xml, etag: res.headers['etag'] as string };
  }

  describe.each([
    ['home', FEEDS.recent, `${PUBLIC_URL}${PAGES.home}`],
    ['a tag', FEEDS.tag('feedtag'), `${PUBLIC_URL}/tag/feedtag`],
    ['a member', FEEDS.user('{alice}'), `${PUBLIC_URL}/profile/{alice}`],
    ['a search', FEEDS.search(WORD), `${PUBLIC_URL}${PAGES.search(WORD)}`],
  ])("%s's feed", (_what, template, pageUrl) => {
    const path = () => template.replace('{alice}', String(alice.user.id));

    it('is valid Atom listing the listed pastes only, newest first, with absolute links', async () => {
      const { feed: atom } = await feed(path());
      expect(textOf(atom.id)).toBe(`${PUBLIC_URL}${path()}`);
      expect(atom.link.find((link) => link['@_rel'] === 'alternate')?.['@_href']).toBe(
        pageUrl.replace('{alice}', String(alice.user.id)),
      );
      const shown = titles(atom);
      expect(shown).toEqual(LISTED.map((name) => pastes[name]!.title.replace(HOSTILE_TITLE, HOSTILE_SHOWN)));
      for (const name of UNLISTED) expect(shown.join('\n')).not.toContain(`Paste ${name} `);
      const entry = atom.entry!.find((one) => textOf(one.title).includes('Tom'))!;
      expect(textOf(entry.id)).toBe(`${PUBLIC_URL}${PAGES.thread(pastes['hostile']!.id)}`);
      expect(entry.link[0]!['@_href']).toBe(`${PUBLIC_URL}${PAGES.thread(pastes['hostile']!.id)}`);
      expect(textOf(entry.author![0]!.name)).toBe(alice.user.username);
      expect(textOf(entry.author![0]!.uri!)).toBe(`${PUBLIC_URL}${PAGES.profile(alice.user.id)}`);
      expect(entry.category!.map((category) => category['@_term'])).toEqual(['feedtag']);
      expect(textOf(entry.summary!)).toContain(`line <two> & "three"`);
    });

    it('answers 304 to a reader holding its ETag', async () => {
      const { etag } = await feed(path());
      expect(etag).toMatch(/^"atom-/);
      await t.http.get(path()).set('If-None-Match', etag).expect(304);
    });
  });

  it('escapes titles and text: the hostile title is character data, never markup', async () => {
    const { xml } = await feed(FEEDS.recent);
    expect(xml).toContain('&lt;b&gt;Tom &amp; &quot;Jerry&quot;&lt;/b&gt;');
    expect(xml).not.toContain('<b>');
    // eslint-disable-next-line no-control-regex -- what must not be there
    expect(xml).not.toMatch(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u0085]/);
  });

  it('drops a paste from the feeds once it is deleted, and shows an edit', async () => {
    await post('late', { visibility: 'public' });
    expect(titles((await feed(FEEDS.recent)).feed)[0]).toBe(pastes['late']!.title);
    await alice.browser.delete(API.thread(pastes['late']!.id)).expect(204);
    expect(titles((await feed(FEEDS.recent)).feed)).not.toContain(pastes['late']!.title);
  });

  it('says 404 for an unknown tag or member, 400 for a search without words', async () => {
    const error = async (path: string, status: number) =>
      (await t.http.get(path).expect(status)).body as { message: string };
    expect(await error(FEEDS.tag('nosuchtag'), 404)).toMatchObject({ message: TAG_MESSAGES.tagNotFound });
    expect(await error(FEEDS.tag('Not A Tag!'), 404)).toMatchObject({ message: TAG_MESSAGES.tagNotFound });
    expect(await error(FEEDS.user(999_999), 404)).toMatchObject({ message: FEED_MESSAGES.userNotFound });
    expect(await error(FEEDS.user('abc'), 404)).toMatchObject({ message: FEED_MESSAGES.userNotFound });
    expect((await error(FEEDS.search(), 400)).message).toMatch(/search/i);
    // A tag that exists with no listed paste: a valid, empty feed.
    expect((await feed(FEEDS.tag('emptytag'))).feed.entry).toBeUndefined();
  });

  describe('embeds', () => {
    it('shows a public paste by number and an unlisted one by key, framable by any site', async () => {
      for (const ref of [pastes['hostile']!.id, pastes['unlisted']!.key!]) {
        const res = await t.http.get(EMBED_PAGE(ref)).expect(200);
        expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
        expect(res.headers['content-security-policy']).toBe(EMBED_CONTENT_SECURITY_POLICY);
        expect(csp(res.headers['content-security-policy'] as string)['frame-ancestors']).toEqual(['*']);
        expect(res.headers['x-frame-options']).toBeUndefined();
        expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
        expect(res.text).toContain(`href="${PUBLIC_URL}${PAGES.thread(ref)}"`);
        // Markdown's source, highlighted: the content's markup escaped, never live.
        expect(res.text).toContain(
          '&lt;<span class="hljs-name">two</span>&gt;</span></span> &amp; &quot;three',
        );
        expect(res.text).not.toContain('<two>');
        expect(res.text).toContain('<pre class="n" aria-hidden="true">1\n2</pre>');
        expect(res.text).not.toMatch(/<script/i);
        await t.http
          .get(EMBED_PAGE(ref))
          .set('If-None-Match', res.headers['etag'] as string)
          .expect(304);
      }
      const hostile = (await t.http.get(EMBED_PAGE(pastes['hostile']!.id)).expect(200)).text;
      expect(hostile).toContain('&lt;b&gt;Tom &amp; &quot;Jerry&quot;&lt;/b&gt;');
      expect(hostile).not.toContain('<b>');
      // Highlighted on the server, in the site's palette.
      const code = (await t.http.get(EMBED_PAGE(pastes['older']!.id)).expect(200)).text;
      expect(code).toContain('<span class="hljs-keyword">const</span>');
      expect(code).toContain('typescript · 1 line');
    });

    it.each([
      ['an unlisted paste by number', () => pastes['unlisted']!.id],
      ['a private paste by key', () => pastes['private']!.key!],
      ['a paste that burns after reading', () => pastes['burning']!.id],
      ['a hidden paste', () => pastes['hidden']!.id],
      ['a deleted paste', () => pastes['deleted']!.id],
      ['an expired paste', () => pastes['expired']!.id],
      ['no paste', () => 'nothing-here'],
    ])('is a framable 404 page for %s', async (_what, ref) => {
      const res = await t.http.get(EMBED_PAGE(ref())).expect(404);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.text).toContain('Paste not found');
      expect(csp(res.headers['content-security-policy'] as string)['frame-ancestors']).toEqual(['*']);
    });

    it.each([
      ['the API', API.health],
      ['an app page', PAGES.thread(1)],
      ['a feed', FEEDS.recent],
      ['oEmbed', API.oembed],
    ])("leaves %s unframable (frame-ancestors 'none', X-Frame-Options DENY)", async (_what, path) => {
      const res = await t.http.get(path);
      expect(csp(res.headers['content-security-policy'] as string)['frame-ancestors']).toEqual(["'none'"]);
      expect(res.headers['x-frame-options']).toBe('DENY');
    });
  });

  describe('oEmbed', () => {
    const oembed = (query: Record<string, string>) => t.http.get(API.oembed).query(query);

    it('answers the rich type with an iframe of the embed, for a paste page or an embed address', async () => {
      const id = pastes['hostile']!.id;
      for (const url of [
        `${PUBLIC_URL}${PAGES.thread(id)}`,
        `${PUBLIC_URL}${PAGES.thread(id)}#L2`,
        `${PUBLIC_URL}${EMBED_PAGE(id)}`,
      ]) {
        const body = (await oembed({ url, format: 'json' }).expect(200)).body as Oembed;
        expect(oembedSchema.parse(body)).toEqual(body);
        expect(body).toMatchObject({
          version: '1.0',
          type: 'rich',
          width: EMBED_WIDTH,
          title: pastes['hostile']!.title,
          author_name: alice.user.username,
          author_url: `${PUBLIC_URL}${PAGES.profile(alice.user.id)}`,
          provider_url: `${PUBLIC_URL}/`,
        });
        expect(body.html).toMatch(
          new RegExp(
            `^<iframe src="${PUBLIC_URL}${EMBED_PAGE(id)}" width="${EMBED_WIDTH}" height="${body.height}" `,
          ),
        );
        expect(body.html).toContain('title="&lt;b&gt;Tom &amp; &quot;Jerry&quot;');
      }
      const unlisted = pastes['unlisted']!.key!;
      const body = (await oembed({ url: `${PUBLIC_URL}${PAGES.thread(unlisted)}` }).expect(200))
        .body as Oembed;
      expect(body.html).toContain(`src="${PUBLIC_URL}${EMBED_PAGE(unlisted)}"`);
    });

    it('says 400 without url, 501 for xml, 404 for what cannot be embedded', async () => {
      const url = `${PUBLIC_URL}${PAGES.thread(pastes['hostile']!.id)}`;
      expect((await oembed({}).expect(400)).body).toMatchObject({ message: FEED_MESSAGES.oembedUrlRequired });
      expect((await oembed({ url, format: 'xml' }).expect(501)).body).toMatchObject({
        message: FEED_MESSAGES.oembedFormat,
      });
      const notFound = [
        `https://elsewhere.example${PAGES.thread(pastes['hostile']!.id)}`,
        `${PUBLIC_URL}${PAGES.profile(alice.user.id)}`,
        'not a url',
        `${PUBLIC_URL}${PAGES.thread(pastes['unlisted']!.id)}`,
        `${PUBLIC_URL}${PAGES.thread(pastes['private']!.key!)}`,
        `${PUBLIC_URL}${PAGES.thread(pastes['burning']!.id)}`,
        `${PUBLIC_URL}${PAGES.thread(pastes['hidden']!.id)}`,
        `${PUBLIC_URL}${PAGES.thread(pastes['deleted']!.id)}`,
        `${PUBLIC_URL}${PAGES.thread(pastes['expired']!.id)}`,
      ];
      for (const bad of notFound) {
        expect((await oembed({ url: bad }).expect(404)).body).toMatchObject({
          message: FEED_MESSAGES.oembedNotFound,
        });
      }
    });
  });
});

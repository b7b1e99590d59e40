import {
  API,
  EMBED_PAGE,
  FEEDS,
  POST_MESSAGES,
  LIVE_SCOPE_PUBLIC,
  type NotificationsPage,
  type PasteRef,
  type RecentPastesPage,
  type ReputationLedgerPage,
  type LanguagePage,
  type SearchResults,
  type PasteCard,
  TAG_MESSAGES,
  type TagList,
  type UserProfile,
  WS,
} from '@termpaste/contracts';
import supertest from 'supertest';
import type { Browser } from './accounts.js';
import { connect, type LiveClient, type LiveUser } from './live.js';
import type { TestApp } from './test-app.js';

/*
 * Walks every route that can return or reveal a paste, for one viewer: hidden (404 'Thread not found' as
 * for none, and named nowhere) or readable by link but listed nowhere. For unlisted and private pastes;
 * deleted, expired or burnt ones use expectPasteHidden too.
 */

/** The paste walked: its number, its key (null: a public one never keyed), and what would give it away. */
export interface WalkedPaste {
  id: number;
  key: string | null;
  title: string;
  /** Its author's id: their profile is searched for it. */
  authorId: number;
  /** A word of its content no other paste has: search looks for it. */
  word: string;
  /** A reply on it, walked too (its revisions, its vote, its edit). */
  replyId?: number;
  /** A tag it alone carries: no tag list may name it. */
  tag?: string;
  /** Its tag is still counted (expired, its job not run yet: counts come down when it runs). */
  tagCounted?: boolean;
}

/** Who walks: a visitor (`userId` null, no cookie) or a signed-in member, and their session cookie. */
export interface PasteViewer {
  label: string;
  agent: Browser | ReturnType<typeof supertest>;
  userId: number | null;
  /** `termpaste.sid=…` for the live socket; none: a visitor's socket. */
  cookie?: string;
}

/** A visitor's live socket: public events only. */
const LIVE_VISITOR_PATH = `${WS.chat}?scope=${LIVE_SCOPE_PUBLIC}`;

export const PASTE_404 = { statusCode: 404, message: POST_MESSAGES.pasteNotFound };

/** A signed-in member's viewer: their browser, id and session cookie. */
export function memberViewer(member: LiveUser, label: string): PasteViewer {
  return { label, agent: member.browser, userId: member.user.id, cookie: member.cookie };
}

/** A visitor's viewer on `t`. */
export function visitorOf(t: TestApp): PasteViewer {
  return { label: 'a visitor', agent: supertest(t.url), userId: null };
}

/** Every ref a route could be called with: the number, and the key when there is one. */
export function refsOf(paste: WalkedPaste): PasteRef[] {
  return paste.key === null ? [paste.id] : [paste.id, paste.key];
}

/**
 * Whether a JSON answer names the paste: its key or its title anywhere, its number as a `threadId`, or
 * as the `id` of one of `cards` (other ids, a member's say, may share its number).
 */
export function names(body: unknown, paste: WalkedPaste, cards: readonly PasteCard[] = []): boolean {
  const text = JSON.stringify(body);
  if (paste.key !== null && text.includes(paste.key)) return true;
  if (text.includes(JSON.stringify(paste.title))) return true;
  if (new RegExp(`"threadId":${paste.id}[,}]`).test(text)) return true;
  return cards.some((card) => card.id === paste.id);
}

async function expect404(
  what: string,
  request: PromiseLike<supertest.Response>,
  message: string = POST_MESSAGES.pasteNotFound,
): Promise<void> {
  const res = await request;
  if (res.status !== 404 || (res.body as { message?: unknown }).message !== message) {
    throw new Error(`${what}: expected 404 '${message}', got ${res.status} ${res.text.slice(0, 200)}`);
  }
}

function expectAbsent(
  what: string,
  body: unknown,
  paste: WalkedPaste,
  cards: readonly PasteCard[] = [],
): void {
  if (names(body, paste, cards))
    throw new Error(`${what} names the paste: ${JSON.stringify(body).slice(0, 300)}`);
}

/**
 * The lists: home (and its total), featured, search, the author's profile (its cards and its count as
 * `listedCount` says: the paste must not be counted), as `viewer` reads them (fresh, past the page cache).
 */
export async function expectPasteListedNowhere(
  paste: WalkedPaste,
  viewer: PasteViewer,
  counts?: { homeTotal?: number; profileCount?: number },
  { ownProfileShows = false } = {},
): Promise<void> {
  const fresh = { 'Cache-Control': 'no-cache' };
  const home = (await viewer.agent.get(API.threadsRecent).set(fresh).expect(200)).body as RecentPastesPage;
  expectAbsent(`home for ${viewer.label}`, home, paste, [...home.pinned, ...home.threads]);
  if (counts?.homeTotal !== undefined && home.total !== counts.homeTotal) {
    throw new Error(`home total for ${viewer.label}: ${home.total}, expected ${counts.homeTotal}`);
  }
  const featured = (await viewer.agent.get(API.threadsFeatured).set(fresh).expect(200)).body as PasteCard[];
  expectAbsent(`featured for ${viewer.label}`, featured, paste, featured);
  const search = (await viewer.agent.get(API.search).query({ q: paste.word }).set(fresh).expect(200))
    .body as SearchResults;
  expectAbsent(`search for ${viewer.label}`, search, paste, search.threads);
  const markdown = (await viewer.agent.get(API.language('markdown')).expect(200)).body as LanguagePage;
  expectAbsent(`the Markdown pastes for ${viewer.label}`, markdown, paste, markdown.threads);
  if (paste.tag !== undefined) {
    await expect404(
      `GET ${API.tag(paste.tag)} by ${viewer.label}`,
      viewer.agent.get(API.tag(paste.tag)),
      TAG_MESSAGES.tagNotFound,
    );
    for (const q of paste.tagCounted ? [] : [{}, { q: paste.tag }]) {
      const tags = (await viewer.agent.get(API.tags).query(q).expect(200)).body as TagList;
      if (tags.tags.some((tag) => tag.name === paste.tag)) {
        throw new Error(`the tags for ${viewer.label} name ${paste.tag}`);
      }
    }
  }
  const profile = (await viewer.agent.get(API.user(paste.authorId)).set(fresh).expect(200))
    .body as UserProfile;
  // Its author's own profile lists their unlisted and private pastes (alive ones).
  if (!ownProfileShows) {
    expectAbsent(
      `the author's profile for ${viewer.label}`,
      profile.recentThreads,
      paste,
      profile.recentThreads,
    );
  }
  if (counts?.profileCount !== undefined && profile.threadCount !== counts.profileCount) {
    throw new Error(
      `profile count for ${viewer.label}: ${profile.threadCount}, expected ${counts.profileCount}`,
    );
  }
  // The Atom feeds: home's, the author's, the search's (an entry names its paste by its address).
  const named = [`/thread/${paste.id}<`, `/thread/${paste.id}"`, ...(paste.key ? [paste.key] : [])];
  for (const feed of [FEEDS.recent, FEEDS.user(paste.authorId), FEEDS.search(paste.word)]) {
    const atom = (await viewer.agent.get(feed).buffer(true).expect(200)).text;
    if (named.some((name) => atom.includes(name)))
      throw new Error(`${feed} for ${viewer.label} names the paste`);
  }
}

/** The viewer (a member) is told of the paste nowhere: notifications, their reputation ledger. */
export async function expectPasteUntold(paste: WalkedPaste, viewer: PasteViewer): Promise<void> {
  if (viewer.userId === null) return;
  const notes = (await viewer.agent.get(API.notifications).expect(200)).body as NotificationsPage;
  expectAbsent(`notifications of ${viewer.label}`, notes.notifications, paste);
  const ledger = (await viewer.agent.get(API.userReputation(viewer.userId)).expect(200))
    .body as ReputationLedgerPage;
  expectAbsent(`the ledger of ${viewer.label}`, ledger.entries, paste);
}

/**
 * The viewer reaches the paste through no route, by number or key (404 'Thread not found' on each), and
 * nothing lists it. `listedCounts`: the counts the lists must show; `pageMessage`: the page's own 404 text.
 */
export async function expectPasteHidden(
  paste: WalkedPaste,
  viewer: PasteViewer,
  listedCounts?: { homeTotal?: number; profileCount?: number },
  { pageMessage }: { pageMessage?: string } = {},
): Promise<void> {
  const who = viewer.label;
  for (const ref of refsOf(paste)) {
    await expect404(`GET ${API.thread(ref)} by ${who}`, viewer.agent.get(API.thread(ref)), pageMessage);
    await expect404(`GET raw by ${who}`, viewer.agent.get(API.threadRaw(ref)));
    // Its signature (if any) is served where its raw text is: never a hint that it exists.
    await expect404(`GET raw.sig by ${who}`, viewer.agent.get(API.threadRawSignature(ref)));
    await expect404(`GET revisions by ${who}`, viewer.agent.get(API.threadRevisions(ref)));
    await expect404(`GET revision 1 by ${who}`, viewer.agent.get(API.threadRevision(ref, 1)));
    // The embed: its own 404 page (HTML, for the frame it shows in).
    const embed = await viewer.agent.get(EMBED_PAGE(ref));
    if (embed.status !== 404)
      throw new Error(`GET ${EMBED_PAGE(ref)} by ${who}: ${embed.status}, expected 404`);
    if (viewer.userId === null) continue;
    await expect404(
      `POST a reply by ${who}`,
      viewer.agent.post(API.threadReplies(ref)).send({ content: 'can I?' }),
    );
    await expect404(`PATCH by ${who}`, viewer.agent.patch(API.thread(ref)).send({ title: 'Taken over' }));
    await expect404(
      `PATCH visibility by ${who}`,
      viewer.agent.patch(API.thread(ref)).send({ visibility: 'public' }),
    );
    await expect404(`DELETE revision 1 by ${who}`, viewer.agent.delete(API.threadRevision(ref, 1)));
    await expect404(
      `applying a suggestion by ${who}`,
      viewer.agent.post(API.threadSuggestionApply(ref, paste.replyId ?? 1)),
    );
    await expect404(`a vote by ${who}`, viewer.agent.post(API.votes).send({ threadId: ref, value: 1 }));
  }
  if (paste.replyId !== undefined) {
    const reply = paste.replyId;
    await expect404(`GET reply revisions by ${who}`, viewer.agent.get(API.replyRevisions(reply)));
    await expect404(`GET reply revision 1 by ${who}`, viewer.agent.get(API.replyRevision(reply, 1)));
    if (viewer.userId !== null) {
      await expect404(
        `a reply vote by ${who}`,
        viewer.agent.post(API.votes).send({ replyId: reply, value: 1 }),
      );
      await expect404(
        `PATCH reply by ${who}`,
        viewer.agent.patch(API.reply(reply)).send({ content: 'mine' }),
      );
      await expect404(
        `a reply to the reply by ${who}`,
        viewer.agent.post(API.threadReplies(paste.id)).send({ content: 'under it', parentId: reply }),
      );
    }
  }
  await expectPasteListedNowhere(paste, viewer, listedCounts);
  await expectPasteUntold(paste, viewer);
}

/**
 * The viewer reads the paste by its key (its page and raw text, with its key as `id`), not by its
 * number, and finds it in no list.
 */
export async function expectPasteUnlistedButReadable(
  paste: WalkedPaste,
  viewer: PasteViewer,
  listedCounts?: { homeTotal?: number; profileCount?: number },
): Promise<void> {
  if (paste.key === null) throw new Error('an unlisted paste has a key');
  const page = await viewer.agent.get(API.thread(paste.key)).expect(200);
  if ((page.body as { id?: unknown }).id !== paste.key) {
    throw new Error(`the page by key answers id ${String((page.body as { id?: unknown }).id)}`);
  }
  if (page.headers['x-robots-tag'] !== 'noindex') throw new Error('the page of a keyed paste is not noindex');
  const raw = await viewer.agent.get(API.threadRaw(paste.key)).expect(200);
  if (raw.headers['x-robots-tag'] !== 'noindex')
    throw new Error('the raw text of a keyed paste is not noindex');
  await viewer.agent.get(API.threadRevisions(paste.key)).expect(200);
  await expect404(`GET by number by ${viewer.label}`, viewer.agent.get(API.thread(paste.id)));
  await expect404(`GET raw by number by ${viewer.label}`, viewer.agent.get(API.threadRaw(paste.id)));
  await expect404(
    `GET raw.sig by number by ${viewer.label}`,
    viewer.agent.get(API.threadRawSignature(paste.id)),
  );
  await expect404(
    `GET revisions by number by ${viewer.label}`,
    viewer.agent.get(API.threadRevisions(paste.id)),
  );
  await expectPasteListedNowhere(paste, viewer, listedCounts, {
    ownProfileShows: viewer.userId === paste.authorId,
  });
}

/**
 * A live socket of the viewer watching the paste (by number and by key: its page, its card, the lists)
 * hears nothing of it while `act` runs (writes that publish the paste's events: a reply, an edit, a vote).
 */
export async function expectLiveSilent(
  t: TestApp,
  paste: WalkedPaste,
  viewer: PasteViewer,
  act: () => Promise<void>,
): Promise<void> {
  const sockets: LiveClient[] = [];
  try {
    for (const ref of refsOf(paste)) {
      const socket = await connect(
        t,
        viewer.cookie ? { cookie: viewer.cookie } : { path: LIVE_VISITOR_PATH },
      );
      socket.ws.send(JSON.stringify({ type: 'watch', thread: ref, cards: [ref], lists: true }));
      await socket.roundTrip();
      sockets.push(socket);
    }
    await act();
    // Events are published after the write answers: give them a round trip on every socket to arrive.
    await new Promise((resolve) => setTimeout(resolve, 300));
    for (const socket of sockets) {
      await socket.roundTrip();
      const heard = socket.frames.filter((frame) => names(frame, paste));
      if (heard.length > 0) {
        throw new Error(`the live socket of ${viewer.label} heard of the paste: ${JSON.stringify(heard)}`);
      }
    }
  } finally {
    await Promise.all(sockets.map((socket) => socket.close()));
  }
}

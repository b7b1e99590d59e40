import {
  API,
  type CurrentUser,
  PAGES,
  type PasteCard,
  type PasteDetail,
  type PeopleList,
  type RecentPastesPage,
} from '@termpaste/contracts';
import { escapeHtml as e, type PaintedQuery } from '@termpaste/contracts/first-paint';
import type { Request } from 'express';

// A member's first screen painted by the server (home, a paste and its first replies, a code paste's
// first lines), so it shows before the app's scripts run. Read through the API's own routes with the
// member's cookie (permissions and 404s are the API's), drawn with the app's classes, every string
// escaped, Markdown as written. The app takes over once its screen has its data (useTakeOverPaint).

/** How long the page waits for its data before it goes out unpainted (the app then loads it). */
const PAINT_WAIT_MS = 1500;
/** A screenful, and a little more: the rest is the app's, drawn progressively. */
export const PAINT_ROWS = 20;
export const PAINT_REPLIES = 8;
export const PAINT_CODE_LINES = 80;
/** A long Markdown paste painted up to this many characters (a screenful many times over). */
export const PAINT_TEXT_CHARS = 4000;

/** What a member's page paints: `home`, or a paste by its address's ref. */
export type MemberPaint = { page: 'home' } | { page: 'paste'; ref: string };

/** The painted page for a path, or null (the app draws it alone). */
export function memberPaintOf(pathname: string): MemberPaint | null {
  if (pathname === PAGES.home) return { page: 'home' };
  const paste = /^\/thread\/([A-Za-z0-9_-]{1,64})$/.exec(pathname);
  return paste && paste[1] !== 'new' ? { page: 'paste', ref: paste[1]! } : null;
}

/** A JSON read of the API, as this member, on the connection's own address (loopback in effect). */
type ReadApi = <T>(path: string) => Promise<T | null>;

export function loopbackReader(req: Request): ReadApi {
  const address = req.socket.localAddress ?? '127.0.0.1';
  const host = address.includes(':') ? `[${address}]` : address;
  const origin = `http://${host}:${req.socket.localPort}`;
  const cookie = req.headers.cookie ?? '';
  return async <T>(path: string) => {
    const res = await fetch(origin + path, {
      headers: { Cookie: cookie, Accept: 'application/json' },
      signal: AbortSignal.timeout(PAINT_WAIT_MS),
    });
    if (!res.ok) return null;
    return (await res.json()) as T;
  };
}

/** The authors whose posts the member hides or collapses: never painted. */
async function hiddenAuthors(read: ReadApi): Promise<Set<number> | null> {
  const [mutes, blocks] = await Promise.all([
    read<PeopleList>(API.userMutes),
    read<PeopleList>(API.userBlocks),
  ]);
  if (!mutes || !blocks) return null;
  return new Set([...mutes.members, ...blocks.members].map((entry) => entry.member.id));
}

/**
 * A member's painted page: its HTML, and the API's answers it was drawn from, by the app's query keys,
 * so the app draws its screen at once with them instead of asking again first.
 */
export interface MemberPainted {
  html: string;
  queries: PaintedQuery[];
}

/** The member's first screen, or null when it cannot be painted (the app then draws it). */
export async function paintMemberPage(what: MemberPaint, read: ReadApi): Promise<MemberPainted | null> {
  try {
    const [hidden, user] = await Promise.all([hiddenAuthors(read), read<CurrentUser>(API.currentUser)]);
    if (!hidden || !user) return null;
    const me: PaintedQuery = [[API.currentUser], user];
    if (what.page === 'home') {
      const page = await read<RecentPastesPage>(API.threadsRecent);
      if (!page) return null;
      // As the app's infinite query holds it: its first page.
      const recent: PaintedQuery = [[API.threadsRecent], { pages: [page], pageParams: [null] }];
      return { html: memberFrame(homeHtml(page, hidden)), queries: [me, recent] };
    }
    // refresh: the painted read counts no view (the app's own read of the page does).
    const paste = await read<PasteDetail>(`${API.thread(encodeURIComponent(what.ref))}?refresh=true`);
    if (!paste) return null;
    const body = pasteHtml(paste, hidden);
    if (body === null) return null;
    return { html: memberFrame(body), queries: [me, [[API.threads, what.ref], paste]] };
  } catch {
    return null; // too slow, or the API refused: the app loads it as it always did
  }
}

/** The signed-in layout's frame as the app draws it on a phone: the top bar, then the screen. */
export function memberFrame(content: string): string {
  return (
    `<div class="shell-layout"><div class="shell-main">` +
    `<header class="shell-topbar"><a class="shell-topbar__home" href="/" aria-label="termpaste home">` +
    `<span class="shell-topbar__brand">termpaste</span></a></header>` +
    `<main class="shell-content" id="content">${content}</main></div></div>`
  );
}

function card(title: string, body: string, level: 1 | 2 = 2): string {
  const h = `h${level}`;
  return (
    `<section class="tp-card"><header class="tp-card__bar">` +
    `<span class="tp-card__corner" aria-hidden="true">┌─[</span><${h} class="tp-card__title">${e(title)}</${h}>` +
    `<span class="tp-card__corner" aria-hidden="true">]</span><span class="tp-card__rule" aria-hidden="true"></span>` +
    `</header><div class="tp-card__body">${body}</div></section>`
  );
}

const pasteHref = (id: string | number) => e(PAGES.thread(id));

function pasteRow(paste: PasteCard): string {
  const author = paste.author ? e(paste.author.username || 'User') : 'Anonymous';
  return (
    `<tr class="tp-table__row forum-row"><td class="tp-table__cell forum-title-cell">` +
    `<a class="forum-title" href="${pasteHref(paste.id)}">${e(paste.title)}</a></td>` +
    `<td class="tp-table__cell forum-num">${paste.replyCount}</td>` +
    `<td class="tp-table__cell forum-num">${paste.viewCount}</td>` +
    `<td class="tp-table__cell">${author}</td><td class="tp-table__cell forum-muted forum-nowrap"></td></tr>`
  );
}

function pasteTable(pastes: PasteCard[], label: string): string {
  return (
    `<div class="tp-table-frame"><table class="tp-table forum-thread-table" aria-label="${e(label)}">` +
    `<thead class="tp-table__header"><tr class="tp-table__row">` +
    `<th scope="col" class="tp-table__head">Title</th><th scope="col" class="tp-table__head forum-num">Comments</th>` +
    `<th scope="col" class="tp-table__head forum-num">Views</th><th scope="col" class="tp-table__head">Created by</th>` +
    `<th scope="col" class="tp-table__head">Added</th></tr></thead>` +
    `<tbody class="tp-table__body">${pastes.map(pasteRow).join('')}</tbody></table></div>`
  );
}

export function homeHtml(page: RecentPastesPage, hidden: ReadonlySet<number>): string {
  const shown = (list: PasteCard[]) => list.filter((paste) => !paste.author || !hidden.has(paste.author.id));
  const pinned = shown(page.pinned);
  const recent = shown(page.threads).slice(0, PAINT_ROWS);
  return (
    `<div class="forum-stack">` +
    (pinned.length > 0 ? card('Pinned Pastes', pasteTable(pinned, 'Pinned Pastes')) : '') +
    card('RECENT PASTES', pasteTable(recent, 'Recent pastes'), 1) +
    `</div>`
  );
}

/** Markdown as written, a paragraph a block, as the app's draft shows it until it is drawn. */
export function markdownDraft(text: string): string {
  const cut = text.length > PAINT_TEXT_CHARS ? text.slice(0, PAINT_TEXT_CHARS) : text;
  const blocks = cut.split(/\n[ \t]*\n/).filter((block) => block.trim() !== '');
  return `<div class="tp-markdown__loading">${blocks.map((block) => `<p>${e(block)}</p>`).join('')}</div>`;
}

/** The code's first lines, numbered, in the code view's classes (drawn plain: highlighting is the app's). */
export function codeDraft(text: string): string {
  const lines = text.split('\n').slice(0, PAINT_CODE_LINES);
  return (
    `<div class="cv"><div class="cv-scroll"><div class="cv-lines">` +
    lines
      .map(
        (line, n) =>
          `<div class="cv-line"><span class="cv-num" aria-hidden="true">${n + 1}</span>` +
          `<code class="cv-code">${e(line)}</code></div>`,
      )
      .join('') +
    `</div></div></div>`
  );
}

/** The paste and its first replies; null for one the app shows otherwise (burning, hidden, a hidden author). */
export function pasteHtml(paste: PasteDetail, hidden: ReadonlySet<number>): string | null {
  if (paste.content === undefined || paste.burnAfterReading) return null;
  if (paste.author && hidden.has(paste.author.id)) return null;
  const author = paste.author ? e(paste.author.username || 'User') : 'Anonymous';
  const content =
    paste.language && paste.language !== 'markdown'
      ? codeDraft(paste.content)
      : `<div class="tp-markdown forum-thread__content">${markdownDraft(paste.content)}</div>`;
  const pasteCard = card(
    'PASTE',
    `<div class="forum-split"><div class="forum-split__main">` +
      `<h1 class="forum-thread__title">${e(paste.title)}</h1>` +
      `<p class="forum-thread__meta"><span class="forum-byline">by ${author}</span>` +
      `<span class="forum-muted forum-card__stat">${paste.viewCount} ${paste.viewCount === 1 ? 'view' : 'views'}</span></p>` +
      `${content}</div></div>`,
  );
  const replies = paste.replies
    .filter((reply) => !reply.deleted && !reply.hidden && (!reply.author || !hidden.has(reply.author.id)))
    .slice(0, PAINT_REPLIES)
    .map(
      (reply) =>
        `<li class="forum-reply"><p class="forum-reply__head">${reply.author ? e(reply.author.username || 'User') : 'Anonymous'}</p>` +
        `<div class="tp-markdown">${markdownDraft(reply.content)}</div></li>`,
    )
    .join('');
  return (
    `<div class="forum-stack">${pasteCard}` +
    (replies ? card(`REPLIES (${paste.replyCount})`, `<ul class="forum-replies">${replies}</ul>`) : '') +
    `</div>`
  );
}

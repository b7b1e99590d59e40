/**
 * Test support for the forum's specs: contract-typed fixtures, a recording fetch stub, the toast check and
 * one way to render a screen. Only specs import it, so the build (src/index.ts and the exposed
 * src/screens.tsx) never bundles it.
 *
 * Importing it registers an afterEach for the importing spec file that clears the toasts and puts the
 * real fetch back, like @testing-library/react's own cleanup.
 */
import type {
  CurrentUser,
  DirectoryUser,
  PublicAuthor,
  ReplyView,
  ThreadCard,
  ThreadDetail,
  UserProfile,
} from '@termpaste/contracts';
import { sampleCurrentUser } from '@termpaste/contracts/testing';
import { createQueryClient, currentUserQuery, UiProvider } from '@termpaste/ui';
import type { QueryClient } from '@tanstack/react-query';
import { act, render, waitFor } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { resetToastsForTests } from '../../ui/src/components/toast-store';

export { stubClipboard } from '../../ui/src/testing/clipboard';

export const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

// ---- Fixtures: override what a test is about.

/** trinity (id 3) as others see her: 12 points, a Rookie. */
export function sampleAuthor(overrides: Partial<PublicAuthor> = {}): PublicAuthor {
  return {
    id: 3,
    username: 'trinity',
    avatarUrl: null,
    profileImageUrl: null,
    firstName: null,
    lastName: null,
    reputation: 12,
    activePremiumRank: null,
    ...overrides,
  };
}

/** Paste 4 'nmap cheatsheet' by trinity, two hours old: 2 replies, 7 views, no flag, not hot. */
export function sampleCard(overrides: Partial<ThreadCard> = {}): ThreadCard {
  return {
    id: 4,
    title: 'nmap cheatsheet',
    createdAt: minutesAgo(120),
    author: sampleAuthor(),
    viewCount: 7,
    voteScore: 0,
    replyCount: 2,
    isPinned: false,
    isLocked: false,
    isFeatured: false,
    lastReplyAt: null,
    lastReplyAuthor: null,
    ...overrides,
  };
}

/** A top-level reply by trinity on paste 5; its text and age follow its id ('reply number 11', 49 min). */
export function sampleReply(overrides: Partial<ReplyView> = {}): ReplyView {
  const id = overrides.id ?? 11;
  return {
    id,
    threadId: 5,
    parentId: null,
    content: `reply number ${id}`,
    createdAt: minutesAgo(60 - id),
    author: sampleAuthor(),
    voteScore: 0,
    myVote: null,
    ...overrides,
  };
}

/**
 * Paste 5 'nmap cheatsheet' by trinity (260 points: Advanced), score +3, with four replies: morpheus (11),
 * trinity under him (12), tank under her (13), and a deleted author's (14, score -2).
 */
export function sampleThread(overrides: Partial<ThreadDetail> = {}): ThreadDetail {
  const tank = sampleAuthor({ id: 9, username: 'tank' });
  return {
    ...sampleCard({
      id: 5,
      author: sampleAuthor({ reputation: 260 }),
      voteScore: 3,
      replyCount: 4,
      lastReplyAt: minutesAgo(30),
      lastReplyAuthor: tank,
    }),
    content: '## Usage\n\nRun **nmap -sV** against the host.',
    myVote: null,
    replies: [
      sampleReply({ id: 11, author: sampleAuthor({ id: 8, username: 'morpheus' }) }),
      sampleReply({ id: 12, parentId: 11 }),
      sampleReply({ id: 13, parentId: 12, author: tank }),
      sampleReply({ id: 14, author: null, content: 'ghost words', voteScore: -2 }),
    ],
    ...overrides,
  };
}

/** trinity's profile: 42 points (Rookie), full name, avatar, a Markdown bio and two recent pastes. */
export function sampleProfile(overrides: Partial<UserProfile> = {}): UserProfile {
  const own = (id: number, title: string) =>
    sampleCard({ id, title, author: sampleAuthor({ reputation: 42 }) });
  return {
    id: 3,
    username: 'trinity',
    firstName: 'Tri',
    lastName: 'Nity',
    avatarUrl: 'https://cdn.test/trinity.png',
    profileImageUrl: null,
    bio: 'I *hack* things. See [my site](https://trinity.example).',
    reputation: 42,
    activePremiumRank: null,
    ownedPremiumRanks: [],
    threadCount: 3,
    replyCount: 17,
    createdAt: '2026-01-05T12:00:00.000Z',
    isAdmin: false,
    isOwner: false,
    isBanned: false,
    recentThreads: [own(11, 'first paste'), own(12, 'second paste')],
    ...overrides,
  };
}

/** trinity in the members directory: 120 points, 4 pastes, 9 replies, joined Jan 5, 2026. */
export function sampleDirectoryUser(overrides: Partial<DirectoryUser> = {}): DirectoryUser {
  return {
    ...sampleAuthor({ reputation: 120 }),
    threadCount: 4,
    replyCount: 9,
    createdAt: '2026-01-05T12:00:00.000Z',
    isAdmin: false,
    isOwner: false,
    ...overrides,
  };
}

// ---- fetch

/** One request the screen made; `body` is the parsed JSON body (undefined without one). */
export interface FetchCall {
  method: string;
  url: string;
  body: unknown;
}

/** The stub's answer: 200 and `{}` by default; a string body is sent as is, anything else as JSON. */
export interface FetchAnswer {
  status?: number;
  body?: unknown;
}

const realFetch = globalThis.fetch;

/** Replaces fetch: records each call and answers with the handler's status and body. */
export function stubFetch(handler: (call: FetchCall) => FetchAnswer | Promise<FetchAnswer>): FetchCall[] {
  const calls: FetchCall[] = [];
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const call: FetchCall = {
      method: init?.method ?? 'GET',
      url: String(input),
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
    };
    calls.push(call);
    const { status = 200, body = {} } = await handler(call);
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    return {
      ok: status >= 200 && status < 300,
      status,
      statusText: '',
      text: async () => text,
      json: async () => JSON.parse(text),
    } as Response;
  }) as typeof fetch;
  return calls;
}

/** A handler for stubFetch that never answers: whatever the screen asks for stays loading. */
export const pending = () => new Promise<FetchAnswer>(() => undefined);

/** The URLs of the calls, in order. */
export const urls = (calls: FetchCall[]) => calls.map((call) => call.url);

// ---- toasts

/** Waits for the toast on screen (one at a time) to read this title, and this description if given. */
export async function expectToast(title: string, description?: string) {
  await waitFor(() => {
    const shown = document.querySelector('.tp-toast');
    expect(shown?.querySelector('.tp-toast__title')?.textContent).toBe(title);
    if (description !== undefined) {
      expect(shown?.querySelector('.tp-toast__description')?.textContent).toBe(description);
    }
  });
}

afterEach(() => {
  act(() => resetToastsForTests());
  globalThis.fetch = realFetch;
});

// ---- rendering

/** Where the router is (path and query), as the status 'location'. */
export function Location() {
  const location = useLocation();
  return <output aria-label="location">{location.pathname + location.search}</output>;
}

export interface RenderScreenOptions {
  /** The address the router starts at; '/' by default. */
  path?: string;
  /** The route pattern(s) that show the element: the path without its query by default. */
  route?: string | string[];
  /** The query client, seeded by the test; a new one by default. */
  client?: QueryClient;
  /** The signed-in member, null when signed out; sampleCurrentUser() by default. */
  user?: CurrentUser | null;
}

/**
 * Renders a screen as the shell does (UiProvider, router) with the current user in the cache. Any address
 * the routes do not match shows <Location />, so a test can read where the screen navigated to.
 * Returns the query client and a user-event instance.
 */
export function renderScreen(
  element: ReactElement,
  {
    path = '/',
    route = path.replace(/\?.*$/, ''),
    client = createQueryClient(),
    user = sampleCurrentUser(),
  }: RenderScreenOptions = {},
) {
  client.setQueryData(currentUserQuery.queryKey, user);
  render(
    <UiProvider queryClient={client}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          {[route].flat().map((pattern) => (
            <Route key={pattern} path={pattern} element={element} />
          ))}
          <Route path="*" element={<Location />} />
        </Routes>
      </MemoryRouter>
    </UiProvider>,
  );
  return { client, user: userEvent.setup() };
}

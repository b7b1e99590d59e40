import type { API, PAGES } from '@termpaste/contracts';

/*
 * The paths the CLI calls, as the contracts name them. The package imports only the contracts' types
 * (it runs without the monorepo), so the values are written here: the compiler checks the fixed ones
 * against the contracts' literal types, routes.spec.ts every one against the contracts themselves.
 */
export const ROUTES = {
  currentUser: '/api/auth/user',
  pastes: '/api/pastes',
  user: (id: string | number) => `/api/users/${id}`,
  thread: (id: string | number) => `/api/threads/${id}`,
  threadRaw: (id: string | number) => `/api/threads/${id}/raw`,
  threadFork: (id: string | number) => `/api/threads/${id}/fork`,
  threadRevision: (id: string | number, n: string | number) => `/api/threads/${id}/revisions/${n}`,
} as const satisfies Pick<
  typeof API,
  'currentUser' | 'pastes' | 'user' | 'thread' | 'threadRaw' | 'threadFork' | 'threadRevision'
>;

/** A paste's page on the site. */
export const PASTE_PAGE: (typeof PAGES)['thread'] = (id) => `/thread/${id}`;

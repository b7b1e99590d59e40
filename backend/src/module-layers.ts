/**
 * The backend's units from the bottom up: a unit imports only units below it (test/module-graph.spec.ts
 * derives the graph from the imports). A unit is a folder of src/modules/, or src/'s other folders; the
 * files at src/'s root (bootstrap, the app and worker modules) are `app`, the top.
 */
export const LAYERS = [
  // Helpers that know no feature: validation, errors, cursors, cookies.
  'common',
  // What every unit may read: configuration and the logger.
  'config',
  'logging',
  // Ports and their adapters: database, queue, events, mail, storage, outbox.
  'infra',
  'health',
  'audit',
  // The account record every feature names: the User entity, UsersService, the author fragments.
  'users',
  // Who is calling: sessions, sign-in, single sign-on, personal access tokens, the guards, the write limits.
  'auth',
  // Cross-cutting HTTP: the page cache, body handling, security headers, the docs, the frontends.
  'http',
  'uploads',
  // What a post must pass before it is published: spam signals, blocks, held items.
  'screening',
  'notifications',
  'ranks',
  // Members' SSH keys and the check of a paste's SSH signature.
  'signing',
  'pastes',
  'votes',
  // Watching pastes and tags, following members, bookmarks, and the notifications they make.
  'watching',
  'messages',
  'support',
  'chat',
  'live',
  // E-mail while away: notification mails, digests, unsubscribe links.
  'mailings',
  // A user's public page, the directory and their reputation history.
  'profiles',
  'account',
  'admin',
  'moderation',
  'app',
] as const;

export type Unit = (typeof LAYERS)[number];

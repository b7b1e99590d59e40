/**
 * Which module owns which table (issue 14): every table the migrations create, and TypeORM's own, with
 * the one module under `src/modules/` that may read and write it. Another module reaches that table only
 * through the owner's exported service (passing the transaction's manager when its write must be atomic
 * with theirs), or, for lists that show authors in one query, through a read-only fragment or view the
 * owner exports: the fragment's SQL then lives in the owner's folder.
 *
 * `infra` is everything outside `src/modules/` (the outbox relay, the database itself).
 *
 * Held by `test/table-ownership.spec.ts`: every table of the migrated database is in this map (a new
 * migration's table gets its line here), and no module's SQL or entity touches a table it does not own,
 * save the accesses that spec's allowlist still names (each a step of the redesign to come).
 */
export const MODULES = [
  'auth',
  'users',
  'threads',
  'votes',
  'ranks',
  'messages',
  'support',
  'notifications',
  'chat',
  'live',
  'admin',
  'audit',
  'uploads',
  'tokens',
  'account',
  'moderation',
  'screening',
] as const;

/** A module of `src/modules/` (the target list of issue 14), or `infra` for everything outside it. */
export type TableOwner = (typeof MODULES)[number] | 'infra';

export const TABLE_OWNERS = {
  // auth: signing in and out, passwords, the links and codes that prove who someone is.
  sessions: 'auth',
  password_reset_tokens: 'auth',
  email_verification_tokens: 'auth',
  owner_setup_codes: 'auth',
  // Members' accounts at sign-in providers (issue 17).
  user_identities: 'auth',

  // users: accounts and profiles (the members directory, the author fragment every list joins).
  users: 'users',

  // threads: pastes and replies, their counters, search.
  threads: 'threads',
  replies: 'threads',
  forum_stats: 'threads',
  thread_revisions: 'threads',
  reply_revisions: 'threads',

  votes: 'votes',

  // tokens: personal access tokens (issue 15), only their SHA-256.
  personal_access_tokens: 'tokens',

  // ranks: the reputation ladder and its ledger.
  reputation_ledger: 'ranks',
  reputation_daily: 'ranks',

  // messages: private messages (support requests are private messages to the staff: support has no table).
  private_messages: 'messages',

  notifications: 'notifications',
  notification_counters: 'notifications',

  chat_messages: 'chat',

  audit_log: 'audit',

  pending_uploads: 'uploads',

  // account: the member's data exports and mailed account-deletion confirmations.
  account_exports: 'account',
  account_deletion_links: 'account',

  // moderation: flags, the review queue, suspensions.
  review_items: 'moderation',
  flags: 'moderation',
  suspensions: 'moderation',

  // screening: mutes and blocks, the spam signals' memory (what a post must pass).
  member_mutes: 'screening',
  member_blocks: 'screening',
  spam_marks: 'screening',
  post_fingerprints: 'screening',

  // infra: the transactional outbox (infra/outbox) and TypeORM's record of the migrations run.
  outbox: 'infra',
  migrations: 'infra',
} as const satisfies Record<string, TableOwner>;

export type TableName = keyof typeof TABLE_OWNERS;

export function isTable(name: string): name is TableName {
  return Object.hasOwn(TABLE_OWNERS, name);
}

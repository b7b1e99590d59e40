/**
 * Which module owns which table; others go through the owner's service or a fragment it exports. A new
 * migration's table gets its line here (test/table-ownership.spec.ts). docs/schema.md.
 */
export const MODULES = [
  'auth',
  'users',
  'profiles',
  'pastes',
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
  'account',
  'moderation',
  'screening',
  'mailings',
  'watching',
  'signing',
] as const;

/** A module of `src/modules/`, or `infra` for everything outside it. */
export type TableOwner = (typeof MODULES)[number] | 'infra';

export const TABLE_OWNERS = {
  // auth: signing in and out, passwords, the links and codes that prove who someone is.
  sessions: 'auth',
  password_reset_tokens: 'auth',
  email_verification_tokens: 'auth',
  owner_setup_codes: 'auth',
  // Members' accounts at sign-in providers.
  user_identities: 'auth',
  // Personal access tokens, only their SHA-256.
  personal_access_tokens: 'auth',

  // users: accounts and profiles (the members directory, the author fragment every list joins).
  users: 'users',

  // pastes: pastes and replies, their counters, search.
  threads: 'pastes',
  replies: 'pastes',
  forum_stats: 'pastes',
  thread_revisions: 'pastes',
  reply_revisions: 'pastes',
  tags: 'pastes',
  paste_tags: 'pastes',

  votes: 'votes',

  // ranks: the reputation ladder and its ledger.
  reputation_ledger: 'ranks',
  reputation_daily: 'ranks',

  // messages: private messages (support requests are private messages to the staff: support has no table).
  private_messages: 'messages',

  notifications: 'notifications',
  notification_counters: 'notifications',

  chat_messages: 'chat',

  // mailings: e-mail preferences, the away mails' and digests' progress, unsubscribe keys.
  mail_settings: 'mailings',

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

  // watching: watched pastes, followed members, watched tags, bookmarks, the auto-watch setting.
  paste_watches: 'watching',
  member_follows: 'watching',
  tag_watches: 'watching',
  bookmarks: 'watching',
  watch_settings: 'watching',

  // signing: members' SSH public keys, pastes' SSH signatures.
  ssh_keys: 'signing',
  paste_signatures: 'signing',

  // infra: the transactional outbox (infra/outbox), TypeORM's record of the migrations run, and its
  // record of generated columns' expressions (TypeORM creates it when an entity has one).
  outbox: 'infra',
  migrations: 'infra',
  typeorm_metadata: 'infra',
} as const satisfies Record<string, TableOwner>;

export type TableName = keyof typeof TABLE_OWNERS;

/** TypeORM's own tables: every other table has an entity. */
export const TYPEORM_TABLES: readonly TableName[] = ['migrations', 'typeorm_metadata'];

export function isTable(name: string): name is TableName {
  return Object.hasOwn(TABLE_OWNERS, name);
}

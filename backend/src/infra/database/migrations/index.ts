import { EnableCitext1795323328934 } from './1795323328934-enable-citext.js';
import { UsersSessionsResetTokens1795400000000 } from './1795400000000-users-sessions-reset-tokens.js';
import { Forum1795500000000 } from './1795500000000-forum.js';
import { UsersDirectory1795600000000 } from './1795600000000-users-directory.js';
import { Messaging1795700000000 } from './1795700000000-messaging.js';
import { AdminAudit1795800000000 } from './1795800000000-admin-audit.js';
import { PendingUploads1795900000000 } from './1795900000000-pending-uploads.js';
import { ForumStatsSlots1796020000000 } from './1796020000000-forum-stats-slots.js';
import { SearchCandidates1796030000000 } from './1796030000000-search-candidates.js';
import { SearchVectorInline1796040000000 } from './1796040000000-search-vector-inline.js';
import { EmailVerification1796100000000 } from './1796100000000-email-verification.js';
import { ReputationLedger1796400000000 } from './1796400000000-reputation-ledger.js';
import { Outbox1796500000000 } from './1796500000000-outbox.js';
import { PersonalAccessTokens17966000000000 } from './17966000000000-personal-access-tokens.js';
import { ThreadLanguage17967000000000 } from './17967000000000-thread-language.js';
import { SearchVectorPrefix17967000000100 } from './17967000000100-search-vector-prefix.js';
import { Revisions17968000000000 } from './17968000000000-revisions.js';
import { WritesRevisionPurge17970100000000 } from './17970100000000-writes-revision-purge.js';
import { UserIdentities17969000000000 } from './17969000000000-user-identities.js';
import { TokensRevocationPrivateRead17970000000400 } from './17970000000400-tokens-revocation-private-read.js';
import { AvatarPutUploads17970500000000 } from './17970500000000-avatar-put-uploads.js';
import { MessageAddressAbuse17970600000310 } from './17970600000310-abuse-message-address.js';
import { SessionCreatedAbuse17970600000320 } from './17970600000320-abuse-session-created.js';
import { OwnPosts17971000000000 } from './17971000000000-own-posts.js';
import { PostDeletedLedger17971200000000 } from './17971200000000-post-deleted-ledger.js';
import { ForkCountOnRead17971400000000 } from './17971400000000-fork-count-on-read.js';
import { Account17971500000000 } from './17971500000000-account.js';
import { Moderation17972000000000 } from './17972000000000-moderation.js';
import { SpamMarkSources17973000000001 } from './17973000000001-spam-mark-sources.js';
import { AuditActionsOrder17973000000002 } from './17973000000002-audit-actions-order.js';
import { OutboxTrace17973000000004 } from './17973000000004-outbox-trace.js';
import { CliAuditActions17973000000006 } from './17973000000006-cli-audit-actions.js';
import { Tags17974000000000 } from './17974000000000-tags.js';
import { TagWrites17974000000001 } from './17974000000001-tag-writes.js';
import { CodeWords17974000000002 } from './17974000000002-code-words.js';
import { Watching17974000000003 } from './17974000000003-watching.js';
import { MailNotices17974000000004 } from './17974000000004-mail-notices.js';
import { LineComments17976000000003 } from './17976000000003-line-comments.js';
import { SshKeys17976000000004 } from './17976000000004-ssh-keys.js';
import { RecordingText17976000000007 } from './17976000000007-recording-text.js';

/** Every migration, oldest first. Listed as classes: globs do not work with native ESM. */
export const MIGRATIONS = [
  EnableCitext1795323328934,
  UsersSessionsResetTokens1795400000000,
  Forum1795500000000,
  UsersDirectory1795600000000,
  Messaging1795700000000,
  AdminAudit1795800000000,
  PendingUploads1795900000000,
  ForumStatsSlots1796020000000,
  SearchCandidates1796030000000,
  SearchVectorInline1796040000000,
  EmailVerification1796100000000,
  ReputationLedger1796400000000,
  Outbox1796500000000,
  PersonalAccessTokens17966000000000,
  ThreadLanguage17967000000000,
  SearchVectorPrefix17967000000100,
  Revisions17968000000000,
  UserIdentities17969000000000,
  TokensRevocationPrivateRead17970000000400,
  WritesRevisionPurge17970100000000,
  AvatarPutUploads17970500000000,
  MessageAddressAbuse17970600000310,
  SessionCreatedAbuse17970600000320,
  OwnPosts17971000000000,
  PostDeletedLedger17971200000000,
  ForkCountOnRead17971400000000,
  Account17971500000000,
  Moderation17972000000000,
  SpamMarkSources17973000000001,
  AuditActionsOrder17973000000002,
  OutboxTrace17973000000004,
  CliAuditActions17973000000006,
  Tags17974000000000,
  TagWrites17974000000001,
  CodeWords17974000000002,
  Watching17974000000003,
  MailNotices17974000000004,
  LineComments17976000000003,
  SshKeys17976000000004,
  RecordingText17976000000007,
];

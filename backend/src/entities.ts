// Every entity class, one per table: the data source's list (test/schema-diff.spec.ts holds them to the migrations).
import { AccountDeletionLink } from './modules/account/entities/account-deletion-link.entity.js';
import { AccountExport } from './modules/account/entities/account-export.entity.js';
import { AuditEntry } from './modules/audit/entities/audit-entry.entity.js';
import { EmailVerificationToken } from './modules/auth/entities/email-verification-token.entity.js';
import { Identity } from './modules/auth/entities/identity.entity.js';
import { OwnerSetupCode } from './modules/auth/entities/owner-setup-code.entity.js';
import { PasswordResetToken } from './modules/auth/entities/password-reset-token.entity.js';
import { Session } from './modules/auth/entities/session.entity.js';
import { ChatMessage } from './modules/chat/entities/chat-message.entity.js';
import { Message } from './modules/messages/entities/message.entity.js';
import { Block } from './modules/screening/entities/block.entity.js';
import { Flag } from './modules/moderation/entities/flag.entity.js';
import { Mute } from './modules/screening/entities/mute.entity.js';
import { PasteTag } from './modules/pastes/entities/paste-tag.entity.js';
import { Tag } from './modules/pastes/entities/tag.entity.js';
import { MailSetting } from './modules/mailings/entities/mail-setting.entity.js';
import { Bookmark } from './modules/watching/entities/bookmark.entity.js';
import { PasteSignature } from './modules/signing/entities/paste-signature.entity.js';
import { SshKey } from './modules/signing/entities/ssh-key.entity.js';
import { MemberFollow } from './modules/watching/entities/member-follow.entity.js';
import { PasteWatch } from './modules/watching/entities/paste-watch.entity.js';
import { TagWatch } from './modules/watching/entities/tag-watch.entity.js';
import { WatchSetting } from './modules/watching/entities/watch-setting.entity.js';
import { PostFingerprint } from './modules/screening/entities/post-fingerprint.entity.js';
import { ReviewItem } from './modules/moderation/entities/review-item.entity.js';
import { SpamMark } from './modules/screening/entities/spam-mark.entity.js';
import { Suspension } from './modules/moderation/entities/suspension.entity.js';
import { NotificationCounter } from './modules/notifications/entities/notification-counter.entity.js';
import { Notification } from './modules/notifications/entities/notification.entity.js';
import { ReputationDay } from './modules/ranks/entities/reputation-day.entity.js';
import { ReputationEntry } from './modules/ranks/entities/reputation-entry.entity.js';
import { PasteRevision } from './modules/pastes/entities/paste-revision.entity.js';
import { PasteStats } from './modules/pastes/entities/paste-stats.entity.js';
import { Paste } from './modules/pastes/entities/paste.entity.js';
import { ReplyRevision } from './modules/pastes/entities/reply-revision.entity.js';
import { Reply } from './modules/pastes/entities/reply.entity.js';
import { Token } from './modules/auth/entities/token.entity.js';
import { PendingUpload } from './modules/uploads/entities/pending-upload.entity.js';
import { User } from './modules/users/entities/user.entity.js';
import { Vote } from './modules/votes/entities/vote.entity.js';
import { OutboxJob } from './infra/outbox/entities/outbox-job.entity.js';
import type { Entities } from './infra/database/data-source.options.js';

export const ENTITIES: Entities = [
  AccountDeletionLink,
  AccountExport,
  AuditEntry,
  EmailVerificationToken,
  Identity,
  OwnerSetupCode,
  PasswordResetToken,
  Session,
  ChatMessage,
  Message,
  Block,
  Flag,
  Mute,
  PasteTag,
  Tag,
  MailSetting,
  PasteWatch,
  MemberFollow,
  TagWatch,
  Bookmark,
  SshKey,
  PasteSignature,
  WatchSetting,
  PostFingerprint,
  ReviewItem,
  SpamMark,
  Suspension,
  NotificationCounter,
  Notification,
  ReputationDay,
  ReputationEntry,
  PasteRevision,
  PasteStats,
  Paste,
  ReplyRevision,
  Reply,
  Token,
  PendingUpload,
  User,
  Vote,
  OutboxJob,
];

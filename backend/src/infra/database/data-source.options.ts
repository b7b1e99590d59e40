import type { DataSourceOptions } from 'typeorm';
import { AccountDeletionLink } from '../../modules/account/entities/account-deletion-link.entity.js';
import { AccountExport } from '../../modules/account/entities/account-export.entity.js';
import { AuditEntry } from '../../modules/audit/entities/audit-entry.entity.js';
import { EmailVerificationToken } from '../../modules/auth/entities/email-verification-token.entity.js';
import { Identity } from '../../modules/auth/entities/identity.entity.js';
import { OwnerSetupCode } from '../../modules/auth/entities/owner-setup-code.entity.js';
import { PasswordResetToken } from '../../modules/auth/entities/password-reset-token.entity.js';
import { Session } from '../../modules/auth/entities/session.entity.js';
import { ChatMessage } from '../../modules/chat/entities/chat-message.entity.js';
import { Message } from '../../modules/messages/entities/message.entity.js';
import { Block } from '../../modules/moderation/entities/block.entity.js';
import { Flag } from '../../modules/moderation/entities/flag.entity.js';
import { Mute } from '../../modules/moderation/entities/mute.entity.js';
import { PostFingerprint } from '../../modules/moderation/entities/post-fingerprint.entity.js';
import { ReviewItem } from '../../modules/moderation/entities/review-item.entity.js';
import { SpamMark } from '../../modules/moderation/entities/spam-mark.entity.js';
import { Suspension } from '../../modules/moderation/entities/suspension.entity.js';
import { NotificationCounter } from '../../modules/notifications/entities/notification-counter.entity.js';
import { Notification } from '../../modules/notifications/entities/notification.entity.js';
import { ReputationDay } from '../../modules/ranks/entities/reputation-day.entity.js';
import { ReputationEntry } from '../../modules/ranks/entities/reputation-entry.entity.js';
import { PasteRevision } from '../../modules/threads/entities/paste-revision.entity.js';
import { PasteStats } from '../../modules/threads/entities/paste-stats.entity.js';
import { Paste } from '../../modules/threads/entities/paste.entity.js';
import { ReplyRevision } from '../../modules/threads/entities/reply-revision.entity.js';
import { Reply } from '../../modules/threads/entities/reply.entity.js';
import { Token } from '../../modules/tokens/entities/token.entity.js';
import { PendingUpload } from '../../modules/uploads/entities/pending-upload.entity.js';
import { User } from '../../modules/users/entities/user.entity.js';
import { Vote } from '../../modules/votes/entities/vote.entity.js';
import { OutboxJob } from '../outbox/entities/outbox-job.entity.js';
import { MIGRATIONS } from './migrations/index.js';
import { TypeOrmLogger } from './typeorm-logger.js';

/** Every entity class: one per table (test/schema-diff.spec.ts holds them to the migrations). */
export const ENTITIES: Array<new (...args: never[]) => object> = [
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

/**
 * The one definition of how we talk to PostgreSQL, used by the app, the test setup and scripts.
 * `poolSize`: connections opened at most (DATABASE_POOL_SIZE for the app; pg's 10 unless given).
 */
export function dataSourceOptions(url: string, { poolSize }: { poolSize?: number } = {}): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    ...(poolSize === undefined ? {} : { poolSize }),
    entities: ENTITIES,
    migrations: MIGRATIONS,
    migrationsRun: true,
    synchronize: false,
    // Extensions come from migrations, never as a side effect of connecting.
    installExtensions: false,
    applicationName: 'termpaste',
    connectTimeoutMS: 5000,
    logger: new TypeOrmLogger(),
    maxQueryExecutionTime: 1000,
    extra: {
      // Every connection of the pool keeps a listener for its errors: a connection the server drops
      // (PostgreSQL killed, restarted) can emit one after the pool has let go of it, which without a
      // listener would be an unhandled 'error' event that ends the process. The error itself reaches
      // the query that was running, or the pool's own handler (logged) for an idle connection.
      onConnect: (client: { on(event: 'error', listener: () => void): unknown }) => {
        client.on('error', () => undefined);
      },
    },
  };
}

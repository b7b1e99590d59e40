import { BACKUP_QUEUE } from './infra/backup/backup.queue.js';
import { MAIL_QUEUE } from './infra/mail/mail.service.js';
import { ACCOUNT_QUEUE } from './modules/account/account.queue.js';
import { AKISMET_QUEUE } from './modules/screening/akismet.queue.js';
import { SUSPENSIONS_QUEUE } from './modules/moderation/suspensions.queue.js';
import { NOTIFICATIONS_QUEUE } from './modules/notifications/notifications.queue.js';
import { EXPIRY_QUEUE } from './modules/pastes/expiry.queue.js';
import { TRASH_QUEUE } from './modules/pastes/trash.queue.js';
import { TOKENS_QUEUE } from './modules/auth/tokens/tokens.queue.js';
import { UPLOADS_QUEUE } from './modules/uploads/uploads.queue.js';

/**
 * Every queue of the app, each named by the feature that owns its processor, handed to QueueModule by
 * the API and the worker alike (BullMQ registers each at start-up; workers start in this order).
 */
export const QUEUE_NAMES: readonly string[] = [
  MAIL_QUEUE,
  NOTIFICATIONS_QUEUE,
  UPLOADS_QUEUE,
  TOKENS_QUEUE,
  EXPIRY_QUEUE,
  TRASH_QUEUE,
  ACCOUNT_QUEUE,
  SUSPENSIONS_QUEUE,
  AKISMET_QUEUE,
  BACKUP_QUEUE,
];

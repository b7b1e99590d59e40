import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import type { Readable } from 'node:stream';
import {
  HttpException,
  HttpStatus,
  Injectable,
  Logger,
  NotFoundException,
  GoneException,
} from '@nestjs/common';
import {
  ACCOUNT_MESSAGES,
  API,
  EXPORT_EVERY_HOURS,
  EXPORT_VALID_HOURS,
  type ExportStatus,
  type ExportStatusBody,
  PAGES,
} from '@termpaste/contracts';
import { DataSource, type EntityManager } from 'typeorm';
import type { AppConfig } from '../../config/config.js';
import { InjectConfig } from '../../config/config.module.js';
import { type Row, selectColumns } from '../../infra/database/columns.js';
import { MAIL_QUEUE, SEND_MAIL_JOB, type MailMessage } from '../../infra/mail/mail.service.js';
import { OutboxService } from '../../infra/outbox/outbox.service.js';
import { newExportKey } from '../../infra/storage/object-keys.js';
import { StoragePort } from '../../infra/storage/storage.port.js';
import { identitiesForExport } from '../auth/user-identities.js';
import { messagesForExport } from '../messages/user-messages.js';
import { NOTIFICATIONS_FILE, notificationsForExport } from '../notifications/user-notifications.js';
import { ledgerForExport } from '../ranks/user-ledger.js';
import { pastesForExport, REPLIES_FILE, repliesForExport } from '../pastes/user-posts.js';
import { tokensForExport } from '../auth/tokens/user-tokens.js';
import { sshKeysForExport } from '../signing/user-keys.js';
import { profileForExport } from '../users/user-profile.js';
import { VOTES_FILE, votesForExport } from '../votes/user-votes.js';
import { ACCOUNT_QUEUE, EXPORT_BUILD_JOB, type ExportBuildJob } from './account.queue.js';
import { AccountExport } from './entities/account-export.entity.js';
import { avatarFileName, buildArchive, readAll } from './export-archive.js';

const EXPORT_COLUMNS = ['id', 'userId', 'status', 'requestedAt', 'expiresAt', 'storageKey'] as const;
const EXPORT_SELECT = selectColumns(AccountExport, 'e', EXPORT_COLUMNS);
type ExportRow = Row<AccountExport, (typeof EXPORT_COLUMNS)[number]>;
const READY_SELECT = selectColumns(AccountExport, 'e', ['expiresAt']);
const EXPIRED_SELECT = selectColumns(AccountExport, 'e', ['id', 'storageKey']);
const KEY_SELECT = selectColumns(AccountExport, 'e', ['storageKey']);

type Config = Pick<AppConfig, 'publicUrl' | 'productName' | 'sessionSecret'>;

/** `23 hours`, `5 minutes`: how long until a new export may be asked for. */
export function waitText(seconds: number): string {
  if (seconds >= 3600) {
    const hours = Math.ceil(seconds / 3600);
    return `${hours} hour${hours === 1 ? '' : 's'}`;
  }
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}

/**
 * A member's data export, once a day: a job builds one zip in storage, mailed as a link that works 24
 * hours, for that member's session only. The link is HMAC-signed (export, member, expiry) so nobody else,
 * and no later time, can use it; the sweep removes expired archives.
 */
@Injectable()
export class ExportsService {
  private readonly logger = new Logger('Exports');
  private readonly signingKey: Buffer;

  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: OutboxService,
    private readonly storage: StoragePort,
    @InjectConfig() private readonly config: Config,
  ) {
    this.signingKey = Buffer.from(
      hkdfSync('sha256', config.sessionSecret, 'termpaste', 'termpaste data export links', 32),
    );
  }

  /**
   * Queues an export: 429 with Retry-After (`retryAfter` receives the seconds) when one was asked for in
   * the last EXPORT_EVERY_HOURS hours and did not fail.
   */
  async request(userId: number, retryAfter: (seconds: number) => void): Promise<ExportStatus> {
    await this.dataSource.transaction(async (manager) => {
      // One request at a time per member: two at once cannot both pass the check.
      await manager.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`account-export-${userId}`]);
      const [recent]: Array<{ wait: number }> = await manager.query(
        `SELECT ceil(extract(epoch FROM requested_at + make_interval(hours => $2) - now()))::int AS wait
         FROM account_exports
         WHERE user_id = $1 AND status <> 'failed' AND requested_at > now() - make_interval(hours => $2)
         ORDER BY requested_at DESC LIMIT 1`,
        [userId, EXPORT_EVERY_HOURS],
      );
      if (recent) {
        const seconds = Math.max(1, recent.wait);
        retryAfter(seconds);
        throw new HttpException(
          ACCOUNT_MESSAGES.exportTooSoon(waitText(seconds)),
          HttpStatus.TOO_MANY_REQUESTS,
        );
      }
      const [row]: Array<Row<AccountExport, 'id'>> = await manager.query(
        `INSERT INTO account_exports (user_id) VALUES ($1) RETURNING id`,
        [userId],
      );
      await this.outbox.add(manager, {
        queue: ACCOUNT_QUEUE,
        name: EXPORT_BUILD_JOB,
        data: { exportId: row!.id } satisfies ExportBuildJob,
        jobId: `export-${row!.id}`,
      });
    });
    this.outbox.committed();
    return 'queued';
  }

  /** The member's newest export: its state, and while it is ready its link. */
  async status(userId: number): Promise<ExportStatusBody> {
    const [row]: ExportRow[] = await this.dataSource.query(
      `SELECT ${EXPORT_SELECT} FROM account_exports e
       WHERE e.user_id = $1 ORDER BY e.requested_at DESC, e.id DESC LIMIT 1`,
      [userId],
    );
    if (!row) return { status: 'none' };
    const expired = row.status === 'expired' || (row.status === 'ready' && row.expiresAt! <= new Date());
    const status: ExportStatus = expired ? 'expired' : row.status;
    return {
      status,
      requestedAt: row.requestedAt.toISOString(),
      ...(row.expiresAt ? { expiresAt: row.expiresAt.toISOString() } : {}),
      ...(status === 'ready' ? { url: this.link(row.id, userId, row.expiresAt!) } : {}),
    };
  }

  /** The signed download link of export `id` of member `userId`, valid until `expiresAt`. */
  link(id: number, userId: number, expiresAt: Date): string {
    const expires = Math.floor(expiresAt.getTime() / 1000);
    return `${this.config.publicUrl}${API.userExportDownload(id)}?expires=${expires}&signature=${this.sign(id, userId, expires)}`;
  }

  /**
   * The archive behind a download link, for member `userId`: 404 unless the link is theirs (signed for
   * them, their export), 410 once it has expired (its time, or the sweep took the archive).
   */
  async open(
    userId: number,
    id: number,
    expires: string | undefined,
    signature: string | undefined,
  ): Promise<{ stream: Readable; requestedAt: Date }> {
    if (!expires || !/^\d{1,12}$/.test(expires) || !signature || !/^[A-Za-z0-9_-]{43}$/.test(signature)) {
      throw new NotFoundException(ACCOUNT_MESSAGES.exportNotFound);
    }
    const expected = Buffer.from(this.sign(id, userId, Number(expires)));
    if (!timingSafeEqual(expected, Buffer.from(signature))) {
      throw new NotFoundException(ACCOUNT_MESSAGES.exportNotFound);
    }
    const [row]: ExportRow[] = await this.dataSource.query(
      `SELECT ${EXPORT_SELECT} FROM account_exports e WHERE e.id = $1 AND e.user_id = $2`,
      [id, userId],
    );
    if (!row) throw new NotFoundException(ACCOUNT_MESSAGES.exportNotFound);
    const now = Date.now();
    if (
      row.status !== 'ready' ||
      !row.storageKey ||
      !row.expiresAt ||
      row.expiresAt.getTime() <= now ||
      Number(expires) * 1000 <= now
    ) {
      throw new GoneException(ACCOUNT_MESSAGES.exportExpired);
    }
    const stream = await this.storage.read(row.storageKey);
    if (!stream) throw new GoneException(ACCOUNT_MESSAGES.exportExpired);
    return { stream, requestedAt: row.requestedAt };
  }

  /**
   * Builds export `exportId`. Safe to run twice: only a queued or running export is built, and the row
   * changes only if still as found. Ready state and mail go in one transaction; a failure marks it failed.
   */
  async build(exportId: number): Promise<void> {
    const [row]: ExportRow[] = await this.dataSource.query(
      `WITH run AS (UPDATE account_exports AS e SET status = 'running'
         WHERE e.id = $1 AND e.status IN ('queued', 'running') RETURNING ${EXPORT_SELECT})
       SELECT * FROM run`,
      [exportId],
    );
    if (!row) return;
    let key: string | null = null;
    try {
      const archive = await this.archive(row.userId);
      if (!archive) return;
      key = newExportKey(row.userId);
      await this.storage.putPrivate(key, archive.bytes, 'application/zip');
      const storedKey = key;
      const done = await this.dataSource.transaction(async (manager) => {
        const [ready]: Array<Row<AccountExport, 'expiresAt'>> = await manager.query(
          `WITH done AS (UPDATE account_exports AS e SET status = 'ready', finished_at = now(), storage_key = $2,
             size = $3, expires_at = now() + make_interval(hours => $4)
             WHERE e.id = $1 AND e.status = 'running' RETURNING ${READY_SELECT})
           SELECT * FROM done`,
          [exportId, storedKey, archive.bytes.length, EXPORT_VALID_HOURS],
        );
        if (!ready) return false;
        await this.mail(
          manager,
          archive.user,
          this.link(exportId, row.userId, ready.expiresAt!),
          ready.expiresAt!,
        );
        return true;
      });
      if (!done) await this.storage.delete(storedKey);
      else this.outbox.committed();
    } catch (error) {
      this.logger.error(
        `Export ${exportId} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      );
      if (key) await this.storage.delete(key).catch(() => undefined);
      await this.dataSource.query(
        `UPDATE account_exports SET status = 'failed', finished_at = now() WHERE id = $1 AND status = 'running'`,
        [exportId],
      );
    }
  }

  /** Removes the archives past their link's time; resolves with how many. */
  async sweep(): Promise<number> {
    const rows: Array<Row<AccountExport, 'id' | 'storageKey'>> = await this.dataSource.query(
      `SELECT ${EXPIRED_SELECT} FROM account_exports e
       WHERE e.status = 'ready' AND e.expires_at <= now() LIMIT 500`,
    );
    for (const row of rows) {
      if (row.storageKey) await this.storage.delete(row.storageKey);
      await this.dataSource.query(
        `UPDATE account_exports SET status = 'expired', storage_key = NULL WHERE id = $1`,
        [row.id],
      );
    }
    if (rows.length > 0) this.logger.log(`Removed ${rows.length} expired data export(s)`);
    return rows.length;
  }

  /** The storage keys of every archive of member `userId` (their account is being deleted). */
  async keysOf(manager: EntityManager, userId: number): Promise<string[]> {
    const rows: Array<Row<AccountExport, 'storageKey'>> = await manager.query(
      `SELECT ${KEY_SELECT} FROM account_exports e WHERE e.user_id = $1 AND e.storage_key IS NOT NULL`,
      [userId],
    );
    return rows.flatMap((row) => row.storageKey ?? []);
  }

  private async archive(
    userId: number,
  ): Promise<{ bytes: Buffer; user: { username: string; email: string } } | null> {
    // One snapshot: every file of the archive tells the same moment.
    return this.dataSource.transaction('REPEATABLE READ', async (manager) => {
      const profile = await profileForExport(manager, userId);
      if (!profile) return null;
      const files = [
        { name: 'profile.json', data: profile },
        { name: 'pastes.json', data: await pastesForExport(manager, userId) },
        { name: REPLIES_FILE, data: await repliesForExport(manager, userId) },
        { name: 'messages.json', data: await messagesForExport(manager, userId) },
        { name: NOTIFICATIONS_FILE, data: await notificationsForExport(manager, userId) },
        { name: VOTES_FILE, data: await votesForExport(manager, userId) },
        { name: 'reputation.json', data: await ledgerForExport(manager, userId) },
        { name: 'tokens.json', data: await tokensForExport(manager, userId) },
        { name: 'providers.json', data: await identitiesForExport(manager, userId) },
        { name: 'ssh-keys.json', data: await sshKeysForExport(manager, userId) },
      ];
      const extras: Array<{ name: string; bytes: Buffer }> = [];
      const avatarUrl = (profile.avatar_url ?? profile.profile_image_url) as string | null;
      const avatarKey = avatarUrl ? this.storage.keyOfPublicUrl(avatarUrl) : null;
      if (avatarKey) {
        const stream = await this.storage.read(avatarKey);
        if (stream) {
          const bytes = await readAll(stream);
          const name = avatarFileName(bytes);
          if (name) extras.push({ name, bytes });
        }
      }
      const username = String(profile.username);
      const bytes = await buildArchive(
        `${this.config.productName.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-${username}`,
        files,
        extras,
      );
      return { bytes, user: { username, email: String(profile.email) } };
    });
  }

  private async mail(
    manager: EntityManager,
    user: { username: string; email: string },
    url: string,
    expiresAt: Date,
  ): Promise<void> {
    const product = this.config.productName;
    const message: MailMessage = {
      to: user.email,
      subject: `Your ${product} data export is ready`,
      text: [
        `The data export you asked for, of the ${product} account ${user.username}, is ready.`,
        '',
        `Download it (signed in as ${user.username}) before ${expiresAt.toISOString()}:`,
        url,
        '',
        `You can also find it in your settings: ${this.config.publicUrl}${PAGES.settingsAccount}`,
        'If you did not ask for it, change your password.',
      ].join('\n'),
    };
    await this.outbox.add(manager, { queue: MAIL_QUEUE, name: SEND_MAIL_JOB, data: message });
  }

  private sign(id: number, userId: number, expires: number): string {
    return createHmac('sha256', this.signingKey)
      .update(`export\n${id}\n${userId}\n${expires}`)
      .digest('base64url');
  }
}

import { BadRequestException, Injectable } from '@nestjs/common';
import {
  MAIL_NOTICE_KINDS,
  MAIL_PREFERENCE_MESSAGES,
  type MailNoticeKind,
  NOTIFICATION_PREFERENCE_DEFAULTS,
  type NotificationPreferences,
  type UnsubscribeResult,
  type UnsubscribeScope,
  unsubscribeWhat,
  type UpdateNotificationPreferencesBody,
} from '@termpaste/contracts';
import { DataSource, type EntityManager } from 'typeorm';
import { type Row, selectColumns } from '../../infra/database/columns.js';
import { UsersService } from '../users/users.service.js';
import { MailSetting } from './entities/mail-setting.entity.js';
import {
  newUnsubscribeKey,
  readUnsubscribe,
  signUnsubscribe,
  unsubscribeMacValid,
} from './unsubscribe-tokens.js';

/** The column of each kind's preference. */
const KIND_COLUMNS: Record<MailNoticeKind, string> = Object.fromEntries(
  MAIL_NOTICE_KINDS.map((kind) => [kind, `${kind}_mail`]),
) as Record<MailNoticeKind, string>;

const PREFERENCE_COLUMNS = [
  'replyMail',
  'mentionMail',
  'messageMail',
  'watchMail',
  'tagMail',
  'followMail',
  'digest',
] as const;
type PreferenceRow = Row<MailSetting, (typeof PREFERENCE_COLUMNS)[number]>;

/**
 * Whether the member of settings row `alias` (LEFT JOINed: NULL columns are the defaults) wants a
 * notification of type `type` by mail, as an SQL boolean. Types without a preference (moderation) never are.
 */
export function wantsMailSql(alias: string, type: string): string {
  const cases = MAIL_NOTICE_KINDS.map(
    (kind) =>
      `WHEN '${kind}' THEN COALESCE(${alias}.${KIND_COLUMNS[kind]}, '${NOTIFICATION_PREFERENCE_DEFAULTS[kind]}')`,
  ).join(' ');
  return `(CASE ${type} ${cases} ELSE 'site' END) = 'email'`;
}

/** The kinds whose notifications `preferences` wants by mail. */
export function kindsByMail(preferences: NotificationPreferences): MailNoticeKind[] {
  return MAIL_NOTICE_KINDS.filter((kind) => preferences[kind] === 'email');
}

function toPreferences(row: PreferenceRow | undefined): NotificationPreferences {
  if (!row) return { ...NOTIFICATION_PREFERENCE_DEFAULTS };
  return {
    reply: row.replyMail,
    mention: row.mentionMail,
    message: row.messageMail,
    watch: row.watchMail,
    tag: row.tagMail,
    follow: row.followMail,
    digest: row.digest,
  };
}

/**
 * What a scope turns off, as the columns and values of an UPDATE (the digest's frequency, or kinds to
 * `site`).
 */
function offChanges(scope: UnsubscribeScope): Record<string, string> {
  if (scope === 'digest') return { digest: 'never' };
  const kinds = scope === 'all' ? MAIL_NOTICE_KINDS : [scope];
  const changes: Record<string, string> = Object.fromEntries(
    kinds.map((kind) => [KIND_COLUMNS[kind], 'site']),
  );
  if (scope === 'all') changes.digest = 'never';
  return changes;
}

function isOff(preferences: NotificationPreferences, scope: UnsubscribeScope): boolean {
  if (scope === 'digest') return preferences.digest === 'never';
  if (scope === 'all') return preferences.digest === 'never' && kindsByMail(preferences).length === 0;
  return preferences[scope] === 'site';
}

/** Members' e-mail preferences (mail_settings: a missing row is the defaults) and unsubscribe links. */
@Injectable()
export class MailSettings {
  constructor(
    private readonly dataSource: DataSource,
    private readonly users: UsersService,
  ) {}

  async preferences(
    userId: number,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<NotificationPreferences> {
    const [row]: PreferenceRow[] = await manager.query(
      `SELECT ${selectColumns(MailSetting, 's', PREFERENCE_COLUMNS)} FROM mail_settings s WHERE s.user_id = $1`,
      [userId],
    );
    return toPreferences(row);
  }

  /** Changes the preferences `body` names (the row made with the defaults for the others if need be). */
  async update(userId: number, body: UpdateNotificationPreferencesBody): Promise<NotificationPreferences> {
    const changes: Record<string, string> = {};
    for (const kind of MAIL_NOTICE_KINDS) {
      const value = body[kind];
      if (value !== undefined) changes[KIND_COLUMNS[kind]] = value;
    }
    if (body.digest !== undefined) changes.digest = body.digest;
    return this.apply(userId, changes);
  }

  /** The member's key for unsubscribe links, the row made (with the defaults) if need be. */
  async unsubscribeKey(userId: number, manager: EntityManager = this.dataSource.manager): Promise<string> {
    const read = async () =>
      (await manager.query(
        'SELECT unsubscribe_key AS "unsubscribeKey" FROM mail_settings WHERE user_id = $1',
        [userId],
      )) as Array<Row<MailSetting, 'unsubscribeKey'>>;
    const [existing] = await read();
    if (existing) return existing.unsubscribeKey;
    await manager.query(
      'INSERT INTO mail_settings (user_id, unsubscribe_key) VALUES ($1, $2) ON CONFLICT (user_id) DO NOTHING',
      [userId, newUnsubscribeKey()],
    );
    const [made] = await read();
    return made!.unsubscribeKey;
  }

  /** A token that turns `scope` off for the member. */
  async unsubscribeToken(userId: number, scope: UnsubscribeScope, manager?: EntityManager): Promise<string> {
    return signUnsubscribe(await this.unsubscribeKey(userId, manager), userId, scope);
  }

  /** What `token` turns off, and whether it is off already; a bad token is a 400. */
  async describe(token: string): Promise<UnsubscribeResult> {
    const { userId, scope, username } = await this.verify(token);
    const preferences = await this.preferences(userId);
    return { username, scope, what: unsubscribeWhat(scope), unsubscribed: isOff(preferences, scope) };
  }

  /** Turns off what `token` names (again is fine); a bad token is a 400. */
  async unsubscribe(token: string): Promise<UnsubscribeResult> {
    const { userId, scope, username } = await this.verify(token);
    await this.apply(userId, offChanges(scope));
    return { username, scope, what: unsubscribeWhat(scope), unsubscribed: true };
  }

  private async verify(
    token: string,
  ): Promise<{ userId: number; scope: UnsubscribeScope; username: string }> {
    const claim = readUnsubscribe(token);
    const [row]: Array<Row<MailSetting, 'unsubscribeKey'>> = claim
      ? await this.dataSource.query(
          'SELECT unsubscribe_key AS "unsubscribeKey" FROM mail_settings WHERE user_id = $1',
          [claim.userId],
        )
      : [];
    const user =
      row && claim && unsubscribeMacValid(row.unsubscribeKey, claim)
        ? await this.users.findById(claim.userId)
        : null;
    if (!claim || !user) throw new BadRequestException(MAIL_PREFERENCE_MESSAGES.tokenInvalid);
    return { userId: claim.userId, scope: claim.scope, username: user.username };
  }

  /** Sets `changes` (column → value) on the member's row, made with the defaults first if missing. */
  private async apply(userId: number, changes: Record<string, string>): Promise<NotificationPreferences> {
    const columns = Object.keys(changes);
    const values = Object.values(changes);
    const insertColumns = ['user_id', 'unsubscribe_key', ...columns].join(', ');
    const params = values.map((_, i) => `$${i + 3}`);
    const set = columns.length
      ? columns.map((column, i) => `${column} = ${params[i]}`).join(', ')
      : 'user_id = mail_settings.user_id';
    const [row]: PreferenceRow[] = await this.dataSource.query(
      `INSERT INTO mail_settings (${insertColumns}) VALUES ($1, $2${params.map((p) => `, ${p}`).join('')})
       ON CONFLICT (user_id) DO UPDATE SET ${set}
       RETURNING ${selectColumns(MailSetting, 'mail_settings', PREFERENCE_COLUMNS)}`,
      [userId, newUnsubscribeKey(), ...values],
    );
    return toPreferences(row);
  }
}

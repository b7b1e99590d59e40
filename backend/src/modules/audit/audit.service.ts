import { Injectable } from '@nestjs/common';
import { AUDIT_PAGE_SIZE, type AuditAction, type AuditEntry, type AuditPage } from '@termpaste/contracts';
import { DataSource, type EntityManager } from 'typeorm';
import { createdMicros, keysetPage } from '../../common/keyset-cursor.js';
import { containsPattern } from '../../common/like-pattern.js';
import { type Row, selectColumns } from '../../infra/database/columns.js';
import { AuditEntry as AuditLogEntry } from './entities/audit-entry.entity.js';

/** Who did an admin action: a member (their name at the time is kept), or the command line. */
export interface AuditActor {
  /** Null: the command line (`npm run admin`). */
  id: number | null;
  username: string;
}

/** The actor of changes made with `npm run admin` (make-admin, revoke-admin). */
export const CLI_ACTOR: AuditActor = { id: null, username: 'cli' };

/** One admin action to record. */
export interface AuditRecord {
  action: AuditAction;
  targetType: AuditEntry['targetType'];
  targetId: number;
  /** The target's title or username as it is when the action happens. */
  targetLabel: string;
  before?: unknown;
  after?: unknown;
}

/** The filter of the audit log's list (auditQuerySchema parsed it). */
export interface AuditFilter {
  action?: AuditAction;
  /** Kept when the actor's name or the target's label contains it, in any letter case. */
  q?: string;
  cursor?: string;
}

/** A label for a text (a reply): its first words on one line, at most `max` characters. */
export function excerpt(text: string, max = 80): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

const AUDIT_COLUMNS = [
  'id',
  'action',
  'actorId',
  'actorName',
  'targetType',
  'targetId',
  'targetLabel',
  'before',
  'after',
  'createdAt',
] as const;

type AuditRow = Row<AuditLogEntry, (typeof AUDIT_COLUMNS)[number]> & { createdMicros: string };

function toEntry({ createdMicros: _cursor, createdAt, ...row }: AuditRow): AuditEntry {
  return { ...row, before: row.before ?? null, after: row.after ?? null, createdAt: createdAt.toISOString() };
}

/**
 * The staff action log: every admin action `record`s its entry in its own transaction, so one that fails
 * or is refused leaves none and one that commits always has one.
 */
@Injectable()
export class AuditService {
  constructor(private readonly dataSource: DataSource) {}

  async record(manager: EntityManager, actor: AuditActor, entry: AuditRecord): Promise<void> {
    await manager.query(
      `INSERT INTO audit_log (actor_id, actor_name, action, target_type, target_id, target_label, before, after)
       VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8::jsonb)`,
      [
        actor.id,
        actor.username,
        entry.action,
        entry.targetType,
        entry.targetId,
        entry.targetLabel.replaceAll('\0', ''),
        entry.before === undefined ? null : JSON.stringify(entry.before),
        entry.after === undefined ? null : JSON.stringify(entry.after),
      ],
    );
  }

  /** Newest first, AUDIT_PAGE_SIZE a page (keyset on (created_at, id)); a made-up cursor is a 400. */
  async page({ action, q, cursor }: AuditFilter): Promise<AuditPage> {
    const params: unknown[] = [];
    const conditions: string[] = [];
    if (action) {
      params.push(action);
      conditions.push(`a.action = $${params.length}`);
    }
    if (q) {
      params.push(containsPattern(q));
      conditions.push(
        `(lower(a.actor_name) LIKE $${params.length} OR lower(a.target_label) LIKE $${params.length})`,
      );
    }
    const { rows, nextCursor } = await keysetPage<AuditRow>(
      (sql, values) => this.dataSource.query(sql, values),
      {
        alias: 'a',
        select: `${selectColumns(AuditLogEntry, 'a', AUDIT_COLUMNS)}, ${createdMicros('a')} AS "createdMicros"`,
        from: 'audit_log a',
        where: conditions.length ? conditions.join(' AND ') : 'true',
        params,
        pageSize: AUDIT_PAGE_SIZE,
        cursor,
      },
    );
    return { entries: rows.map(toEntry), nextCursor };
  }
}

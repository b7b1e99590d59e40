import { Injectable, NotFoundException } from '@nestjs/common';
import {
  MODERATION_MESSAGES,
  SPAM_MARK_HASH_PREFIX,
  SPAM_MARKS_PAGE_SIZE,
  type SpamMarkKind,
  type SpamMarksPage,
} from '@termpaste/contracts';
import { DataSource } from 'typeorm';
import { createdMicros, keysetPage } from '../../common/keyset-cursor.js';
import { type AuditActor, AuditService } from '../audit/audit.service.js';

interface MarkRow {
  id: number;
  kind: SpamMarkKind;
  value: string;
  spammer: string | null;
  created_at: Date;
  createdMicros: string;
}

/** What staff see of a mark's value: a domain as it is, an address hash by its first characters only. */
const shown = (row: Pick<MarkRow, 'kind' | 'value'>) =>
  row.kind === 'address' ? row.value.slice(0, SPAM_MARK_HASH_PREFIX) : row.value;

/**
 * The spam marks delete spammer left (spam_marks), for staff to see and forget: a mark on a domain
 * honest members share holds every newcomer from it.
 */
@Injectable()
export class SpamMarksService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly audit: AuditService,
  ) {}

  /** Newest first, SPAM_MARKS_PAGE_SIZE a page; a made-up cursor is a 400. */
  async page(cursor?: string): Promise<SpamMarksPage> {
    const { rows, nextCursor } = await keysetPage<MarkRow>(
      (sql, params) => this.dataSource.query(sql, params),
      {
        alias: 'k',
        select: `k.id, k.kind, k.value, k.spammer, k.created_at, ${createdMicros('k')} AS "createdMicros"`,
        from: 'spam_marks k',
        where: 'true',
        params: [],
        pageSize: SPAM_MARKS_PAGE_SIZE,
        cursor,
      },
    );
    return {
      marks: rows.map((row) => ({
        id: row.id,
        kind: row.kind,
        value: shown(row),
        createdAt: row.created_at.toISOString(),
        spammer: row.spammer,
      })),
      nextCursor,
    };
  }

  /** Forgets mark `id`, audited in the same transaction; 404 when there is no such mark. */
  async forget(actor: AuditActor, id: number): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      // A DELETE answers [rows, count].
      const [[row]]: [Array<Pick<MarkRow, 'kind' | 'value' | 'spammer'>>, number] = await manager.query(
        'DELETE FROM spam_marks WHERE id = $1 RETURNING kind, value, spammer',
        [id],
      );
      if (!row) throw new NotFoundException(MODERATION_MESSAGES.spamMarkNotFound);
      const label = `${row.kind} ${shown(row)}`;
      await this.audit.record(manager, actor, {
        action: 'spam_mark.forget',
        targetType: 'spam_mark',
        targetId: id,
        targetLabel: label,
        before: { kind: row.kind, value: shown(row), spammer: row.spammer },
      });
    });
  }
}

import { Injectable, NotFoundException } from '@nestjs/common';
import { MODERATION_MESSAGES, SPAM_MARKS_PAGE_SIZE, type SpamMarksPage } from '@termpaste/contracts';
import { DataSource } from 'typeorm';
import { createdMicros, keysetPage } from '../../common/keyset-cursor.js';
import { type AuditActor, AuditService } from '../audit/audit.service.js';
import { type Row, selectColumns } from '../../infra/database/columns.js';
import { SpamMark } from './entities/spam-mark.entity.js';
import { MARK_COLUMNS, type MarkRow, shownValue, toSpamMark } from './screening-rows.js';

const FORGOTTEN_COLUMNS = ['kind', 'value', 'spammer'] as const;

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
        select: `${selectColumns(SpamMark, 'k', MARK_COLUMNS)}, ${createdMicros('k')} AS "createdMicros"`,
        from: 'spam_marks k',
        where: 'true',
        params: [],
        pageSize: SPAM_MARKS_PAGE_SIZE,
        cursor,
      },
    );
    return {
      marks: rows.map(toSpamMark),
      nextCursor,
    };
  }

  /** Forgets mark `id`, audited in the same transaction; 404 when there is no such mark. */
  async forget(actor: AuditActor, id: number): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      // A DELETE answers [rows, count].
      const [[row]]: [Array<Row<SpamMark, (typeof FORGOTTEN_COLUMNS)[number]>>, number] = await manager.query(
        `DELETE FROM spam_marks WHERE id = $1 RETURNING ${selectColumns(SpamMark, 'spam_marks', FORGOTTEN_COLUMNS)}`,
        [id],
      );
      if (!row) throw new NotFoundException(MODERATION_MESSAGES.spamMarkNotFound);
      const label = `${row.kind} ${shownValue(row)}`;
      await this.audit.record(manager, actor, {
        action: 'spam_mark.forget',
        targetType: 'spam_mark',
        targetId: id,
        targetLabel: label,
        before: { kind: row.kind, value: shownValue(row), spammer: row.spammer },
      });
    });
  }
}

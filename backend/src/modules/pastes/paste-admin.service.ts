import { Injectable, Logger, NotFoundException } from '@nestjs/common';
import {
  type AuditAction,
  PASTE_LIVE_EVENT,
  POST_MESSAGES,
  type PasteLiveEvent,
  type PasteRef,
  type PasteDetail,
  type PasteFlags,
} from '@termpaste/contracts';
import { DataSource } from 'typeorm';
import { columnName, type Row, selectColumns } from '../../infra/database/columns.js';
import { Paste } from './entities/paste.entity.js';
import { announcePagesChanged, EventsPort, type PagesChanged } from '../../infra/events/events.port.js';
import { type AuditActor, AuditService } from '../audit/audit.service.js';
import { PastesService } from './pastes.service.js';
import { TrashService } from './trash.service.js';

/** A paste's flags an admin toggles (Paste properties), and the audit actions of turning each on and off. */
export type PasteFlag = keyof PasteFlags & keyof Paste;
const FLAG_ACTIONS: Record<PasteFlag, { on: AuditAction; off: AuditAction }> = {
  isPinned: { on: 'thread.pin', off: 'thread.unpin' },
  isLocked: { on: 'thread.lock', off: 'thread.unlock' },
  isFeatured: { on: 'thread.feature', off: 'thread.unfeature' },
};
const FLAG_PROPERTIES = ['isPinned', 'isLocked', 'isFeatured'] as const satisfies readonly PasteFlag[];
/** What a toggle returns: the title for the audit entry, the flags, and whether the lists show it. */
const TOGGLED_SELECT = selectColumns(Paste, 'threads', ['title', ...FLAG_PROPERTIES, 'listed']);

/**
 * Pin, lock and feature a paste, delete a paste or reply: admins only, each action with its audit entry in
 * one transaction.
 */
@Injectable()
export class PasteAdminService {
  private readonly logger = new Logger('Moderation');

  constructor(
    private readonly dataSource: DataSource,
    private readonly audit: AuditService,
    private readonly events: EventsPort,
    private readonly trash: TrashService,
    private readonly pastes: PastesService,
  ) {}

  /** Tells every instance which public pages a committed action made stale (their caches drop them). */
  private pagesChanged(
    change: Omit<PagesChanged, 'type'>,
    pasteEvent: PasteLiveEvent,
    listed = true,
  ): Promise<void> {
    return announcePagesChanged(this.events, change, this.logger, pasteEvent, { listed });
  }

  /**
   * The paste `ref` names (alive), as staff read it: a private one of another member is recorded in the
   * audit log ('thread.private_read'), so every read of what its author alone may see is accounted for.
   */
  async readPaste(ref: PasteRef, admin: AuditActor): Promise<PasteDetail> {
    const { detail, id, authorId } = await this.pastes.detail(ref);
    if (detail.visibility === 'private' && authorId !== admin.id) {
      await this.audit.record(this.dataSource.manager, admin, {
        action: 'thread.private_read',
        targetType: 'thread',
        targetId: id,
        targetLabel: detail.title,
        before: null,
        after: { authorId },
      });
    }
    return detail;
  }

  /** Flips one flag of a paste; `actor` (an admin) is recorded in the audit log, in the same transaction. */
  async toggle(threadId: number, flag: PasteFlag, actor: AuditActor): Promise<PasteFlags> {
    let listed = true;
    const column = columnName(Paste, flag);
    const flags = await this.dataSource.transaction(async (manager) => {
      const [rows] = (await manager.query(
        `UPDATE threads SET ${column} = NOT ${column} WHERE id = $1 AND deleted_at IS NULL
         RETURNING ${TOGGLED_SELECT}`,
        [threadId],
      )) as [Array<Row<Paste, 'title' | PasteFlag | 'listed'>>, number];
      const row = rows[0];
      if (!row) throw new NotFoundException(POST_MESSAGES.pasteNotFound);
      listed = row.listed;
      const after: PasteFlags = {
        isPinned: row.isPinned,
        isLocked: row.isLocked,
        isFeatured: row.isFeatured,
      };
      const { on, off } = FLAG_ACTIONS[flag];
      await this.audit.record(manager, actor, {
        action: after[flag] ? on : off,
        targetType: 'thread',
        targetId: threadId,
        targetLabel: row.title,
        before: { ...after, [flag]: !after[flag] },
        after,
      });
      return after;
    });
    // A paste no list shows: its flags reach its readers only, never the lists' watchers.
    await this.pagesChanged(
      { lists: true, threads: [threadId] },
      { type: PASTE_LIVE_EVENT.pasteFlags, threadId, ...flags },
      listed,
    );
    return flags;
  }

  /**
   * Deletes a paste to the trash (TrashService: its replies, votes and versions unreachable with it,
   * the counters and the reputation it earned moved back; staff may restore it for TRASH_DAYS days).
   * `actor` (an admin) is recorded in the audit log, in the same transaction.
   */
  deletePaste(threadId: number, actor: AuditActor): Promise<void> {
    return this.trash.deletePaste(threadId, actor, { audited: true });
  }

  /**
   * Deletes a reply and the live replies under it to the trash, keeping the paste's and the authors'
   * counters right. `actor` (an admin) is recorded in the audit log, in the same transaction.
   */
  deleteReply(replyId: number, actor: AuditActor): Promise<void> {
    return this.trash.deleteReply(replyId, actor, { audited: true });
  }
}

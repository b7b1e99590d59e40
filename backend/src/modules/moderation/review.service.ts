import { BadRequestException, ConflictException, Injectable, NotFoundException } from '@nestjs/common';
import {
  type AuditTargetType,
  type FlagTarget,
  MODERATION_MESSAGES,
  REVIEW_PAGE_SIZE,
  type ReviewDecisionBody,
  type ReviewFlag,
  type ReviewItem,
  type ReviewPage,
  type ReviewQuery,
} from '@termpaste/contracts';
import { DataSource, type EntityManager } from 'typeorm';
import { decodeCursor, encodeCursor } from '../../common/keyset-cursor.js';
import { type Row, selectColumns } from '../../infra/database/columns.js';
import type { Actor } from '../admin/admin.service.js';
import { AuditService } from '../audit/audit.service.js';
import { ChatService } from '../chat/chat.service.js';
import { OutboxService } from '../../infra/outbox/outbox.service.js';
import { noticesJob } from '../notifications/notifications.queue.js';
import type { NewNotification } from '../notifications/notifications.service.js';
import { type HidingChange, PostHidingService } from '../pastes/post-hiding.js';
import { authorPostCounts } from '../pastes/review-posts.js';
import { TrashService } from '../pastes/trash.service.js';
import { authorJoin, authorJson } from '../users/author-sql.js';
import { userFacts } from '../users/user-facts.js';
import { ReviewItems } from './review-items.js';
import { HeldPostsService } from './held-posts.service.js';
import { resolveTargets, type ResolvedTarget } from './review-targets.js';
import { SuspensionsService } from './suspensions.service.js';
import { Flag } from './entities/flag.entity.js';
import { ReviewItem as ReviewItemEntity } from './entities/review-item.entity.js';
import { Suspension } from './entities/suspension.entity.js';
import {
  ITEM_SELECT,
  type ItemRow,
  REVIEW_FLAG_COLUMNS,
  type ReviewFlagRow,
  toReviewFlag,
  toReviewItem,
} from './moderation-rows.js';

/** The post types a flag can hide (members and private messages are only queued). */
export const HIDEABLE: ReadonlySet<FlagTarget> = new Set(['paste', 'reply', 'chat']);

/** The audit log's target type of a flagged item's. */
const AUDIT_TARGET: Record<FlagTarget, AuditTargetType> = {
  paste: 'thread',
  reply: 'reply',
  chat: 'chat',
  message: 'message',
  member: 'user',
};

/** How a decision reads to the flaggers. */
const FLAGGER_NOTICE: Record<'agree' | 'disagree' | 'ignore', (noun: string) => string> = {
  agree: (noun) => `Staff agreed with your flag on ${noun}. Thank you.`,
  disagree: (noun) => `Staff reviewed your flag on ${noun} and found nothing wrong.`,
  ignore: (noun) => `Staff reviewed your flag on ${noun} and took no action.`,
};

/** What a decision changed, for its notices and its announcements. */
interface Decided {
  flaggers: Array<{ flagId: number; flaggerId: number }>;
  authorId: number | null;
  resolved: ResolvedTarget;
  /** What became of the post for its author: deleted, kept hidden, or shown again. */
  outcome: 'deleted' | 'hidden' | 'restored' | null;
}

/** Each flagger is told what staff decided, and the author what became of their post. */
function decisionNotices(
  itemId: number,
  decision: keyof typeof FLAGGER_NOTICE,
  decided: Decided,
): NewNotification[] {
  const { noun, threadId } = decided.resolved;
  const notices: NewNotification[] = decided.flaggers.map(({ flagId, flaggerId }) => ({
    userId: flaggerId,
    type: 'moderation',
    content: FLAGGER_NOTICE[decision](noun),
    // The flagger may not read what stays hidden: the notice names it, and links nowhere.
    threadId: null,
    actorId: null,
    source: `flag:${flagId}`,
  }));
  if (decided.authorId !== null && decided.outcome !== null) {
    const yours = noun.replace(/^the /, 'your ');
    const content = {
      deleted: `Staff deleted ${yours} after flags by members.`,
      hidden: `Staff agreed with members' flags: ${yours} stays hidden. You can still edit it.`,
      restored: `Staff reviewed ${yours}: it is shown again.`,
    }[decided.outcome];
    notices.push({
      userId: decided.authorId,
      type: 'moderation',
      content,
      threadId: decided.outcome === 'deleted' ? null : threadId,
      actorId: null,
      source: `review:${itemId}:decided`,
    });
  }
  return notices;
}

/**
 * The review queue: every open item (a flagged item, a post held for approval) rendered as members see
 * it, with its author's history and its flags, newest first by its last flag or signal; and staff's
 * decisions, each in one transaction with its audit entry, told to the flaggers and the author.
 */
@Injectable()
export class ReviewService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly chat: ChatService,
    private readonly hiding: PostHidingService,
    private readonly trash: TrashService,
    private readonly audit: AuditService,
    private readonly outbox: OutboxService,
    private readonly suspensions: SuspensionsService,
    private readonly held: HeldPostsService,
    private readonly items: ReviewItems,
  ) {}

  /** Open items, newest first by (updated_at, id), REVIEW_PAGE_SIZE a page; filters by kind, type, reason. */
  async page(query: ReviewQuery): Promise<ReviewPage> {
    const params: unknown[] = [];
    const where = ["i.status = 'open'"];
    if (query.kind) where.push(`i.kind = $${params.push(query.kind)}`);
    if (query.targetType) where.push(`i.target_type = $${params.push(query.targetType)}`);
    if (query.reason) {
      where.push(
        `EXISTS (SELECT 1 FROM flags f WHERE f.item_id = i.id AND f.reason = $${params.push(query.reason)})`,
      );
    }
    if (query.cursor) {
      const { key, id } = decodeCursor(query.cursor);
      const micros = params.push(key);
      const after = params.push(id);
      where.push(
        `(i.updated_at, i.id) < ('epoch'::timestamptz + $${micros}::bigint * interval '1 microsecond', $${after}::integer)`,
      );
    }
    const rows: ItemRow[] = await this.dataSource.query(
      `SELECT ${ITEM_SELECT} FROM review_items i WHERE ${where.join(' AND ')}
       ORDER BY i.updated_at DESC, i.id DESC LIMIT ${REVIEW_PAGE_SIZE + 1}`,
      params,
    );
    const more = rows.length > REVIEW_PAGE_SIZE;
    const shown = more ? rows.slice(0, REVIEW_PAGE_SIZE) : rows;
    const last = shown[shown.length - 1];
    return {
      items: await this.render(this.dataSource, shown),
      nextCursor: more && last ? encodeCursor(last.updatedMicros, last.id) : null,
      openCount: await this.openCount(),
    };
  }

  /** Every open item (the admin navigation's count). */
  async openCount(db: DataSource | EntityManager = this.dataSource): Promise<number> {
    const [row]: Array<{ count: number }> = await db.query(
      "SELECT count(*)::int AS count FROM review_items WHERE status = 'open'",
    );
    return row?.count ?? 0;
  }

  /** Tells every admin's sockets how many items are open now (after a new item or a decision). */
  announceCount(): Promise<void> {
    return this.items.announceCount();
  }

  /**
   * Decides item `itemId`: 404 none, 409 decided (the row lock lets one admin win), 400 the other kind. The
   * flags take the decision (for or against their flaggers' weight); AGREE may suspend or silence the author
   * first, under the owner-only rule. A held post goes to HeldPostsService.
   */
  async decide(itemId: number, body: ReviewDecisionBody, actor: Actor): Promise<ReviewItem> {
    const [found]: Array<Row<ReviewItemEntity, 'kind' | 'status' | 'authorId'>> = await this.dataSource.query(
      `SELECT ${selectColumns(ReviewItemEntity, 'i', ['kind', 'status', 'authorId'])} FROM review_items i
       WHERE i.id = $1`,
      [itemId],
    );
    if (!found) throw new NotFoundException(MODERATION_MESSAGES.itemNotFound);
    if (found.status !== 'open') throw new ConflictException(MODERATION_MESSAGES.itemDecided);
    const { decision } = body;
    if (found.kind === 'held') {
      if (decision !== 'approve' && decision !== 'reject') {
        throw new BadRequestException(MODERATION_MESSAGES.decisionForFlags);
      }
      await this.held.decide(itemId, decision, actor);
      await this.announceCount();
      return this.item(itemId);
    }
    if (decision === 'approve' || decision === 'reject') {
      throw new BadRequestException(MODERATION_MESSAGES.decisionForHeld);
    }
    if (decision === 'agree' && body.silenceDays !== undefined && body.reason === undefined) {
      throw new BadRequestException(MODERATION_MESSAGES.reasonRequired);
    }
    // The author's account may be gone: there is nobody left to suspend.
    if (decision === 'agree' && found.authorId !== null) {
      if (body.suspendDays !== undefined) {
        await this.suspensions.ban(actor, found.authorId, { days: body.suspendDays, reason: body.reason });
      }
      if (body.silenceDays !== undefined) {
        await this.suspensions.silence(actor, found.authorId, {
          days: body.silenceDays,
          reason: body.reason!,
        });
      }
    }
    const announce = await this.dataSource.transaction((manager) =>
      this.decideFlagged(manager, itemId, decision, body, actor),
    );
    this.outbox.committed();
    for (const announced of announce) await announced();
    await this.announceCount();
    return this.item(itemId);
  }

  private async decideFlagged(
    manager: EntityManager,
    itemId: number,
    decision: 'agree' | 'disagree' | 'ignore',
    body: ReviewDecisionBody,
    actor: Actor,
  ): Promise<Array<() => Promise<void>>> {
    const [row]: ItemRow[] = await manager.query(
      `SELECT ${ITEM_SELECT} FROM review_items i WHERE i.id = $1 FOR UPDATE`,
      [itemId],
    );
    if (!row) throw new NotFoundException(MODERATION_MESSAGES.itemNotFound);
    if (row.status !== 'open') throw new ConflictException(MODERATION_MESSAGES.itemDecided);
    const resolved = (await resolveTargets(manager, this.chat, [row])).get(row.id)!;
    const status = ({ agree: 'agreed', disagree: 'disagreed', ignore: 'ignored' } as const)[decision];
    const [flaggers]: [Array<Row<Flag, 'id' | 'flaggerId'>>, number] = await manager.query(
      `UPDATE flags SET status = $2 WHERE item_id = $1 AND status = 'open'
       RETURNING ${selectColumns(Flag, 'flags', ['id', 'flaggerId'])}`,
      [itemId, status],
    );
    const announce: Array<() => Promise<void>> = [];
    const type = row.targetType;
    const id = row.targetId!;
    let hidden = row.hidden;
    let outcome: Decided['outcome'] = null;
    if (HIDEABLE.has(type) && !resolved.target.gone) {
      if (decision === 'agree' && body.deletePost === true) {
        if (type === 'chat') {
          if (await this.chat.remove(manager, id)) announce.push(() => this.chat.announceHidden(id, true));
        } else {
          const post = type === 'paste' ? { paste: id } : { reply: id };
          announce.push(await this.trash.deleteInTransaction(manager, post, actor));
        }
        outcome = 'deleted';
        hidden = false;
      } else {
        const hide = decision === 'agree';
        const changed = await this.setHidden(manager, type, id, hide);
        if (changed) announce.push(changed);
        hidden = hide;
        if (hide) outcome = 'hidden';
        else if (changed || row.hidden) outcome = 'restored';
      }
    }
    await manager.query(
      `UPDATE review_items SET status = $2, hidden = $3, decided_at = now(), decided_by = $4 WHERE id = $1`,
      [itemId, status, hidden, actor.id],
    );
    await this.audit.record(manager, actor, {
      action: `review.${decision}`,
      targetType: AUDIT_TARGET[type],
      targetId: id,
      targetLabel: resolved.label,
      before: { item: itemId, status: 'open', hidden: row.hidden, score: row.score },
      after: {
        item: itemId,
        status,
        hidden,
        flags: flaggers.length,
        ...(outcome === 'deleted' ? { deleted: true } : {}),
        ...(decision === 'agree' && body.suspendDays !== undefined ? { suspendDays: body.suspendDays } : {}),
        ...(decision === 'agree' && body.silenceDays !== undefined ? { silenceDays: body.silenceDays } : {}),
        ...(decision === 'agree' && body.reason !== undefined ? { reason: body.reason } : {}),
      },
    });
    const decided: Decided = {
      flaggers: flaggers
        .filter((flag) => flag.flaggerId !== null)
        .map((flag) => ({ flagId: flag.id, flaggerId: flag.flaggerId! })),
      authorId: row.authorId,
      resolved,
      outcome,
    };
    // Through the outbox, in this transaction: the notices go out however the process ends.
    await this.outbox.add(
      manager,
      noticesJob(`review-${itemId}`, decisionNotices(itemId, decision, decided)),
    );
    return announce;
  }

  /**
   * Hides or shows a paste, a reply or a chat message in `manager`'s transaction; answers the
   * announcement to make after commit, or null when it was so already (or is gone).
   */
  async setHidden(
    manager: EntityManager,
    type: FlagTarget,
    id: number,
    hidden: boolean,
  ): Promise<(() => Promise<void>) | null> {
    if (type === 'chat') {
      const changed = await this.chat.setHidden(manager, id, hidden);
      return changed ? () => this.chat.announceHidden(id, hidden) : null;
    }
    let change: HidingChange | null = null;
    if (type === 'paste') change = await this.hiding.setPasteHidden(manager, id, hidden);
    if (type === 'reply') change = await this.hiding.setReplyHidden(manager, id, hidden);
    return change ? () => this.hiding.announce(change) : null;
  }

  /** One item as the queue shows it (decided or not). */
  async item(itemId: number): Promise<ReviewItem> {
    const rows: ItemRow[] = await this.dataSource.query(
      `SELECT ${ITEM_SELECT} FROM review_items i WHERE i.id = $1`,
      [itemId],
    );
    const [item] = await this.render(this.dataSource, rows);
    if (!item) throw new NotFoundException(MODERATION_MESSAGES.itemNotFound);
    return item;
  }

  /** Renders `rows` in a fixed number of queries, whatever their number. */
  private async render(db: DataSource | EntityManager, rows: readonly ItemRow[]): Promise<ReviewItem[]> {
    if (rows.length === 0) return [];
    const itemIds = rows.map((row) => row.id);
    const authorIds = [...new Set(rows.flatMap((row) => (row.authorId === null ? [] : [row.authorId])))];
    const [targets, flags, authors, agreed, suspensions, posts, held] = await Promise.all([
      resolveTargets(db, this.chat, rows),
      db.query(
        `SELECT ${selectColumns(Flag, 'f', REVIEW_FLAG_COLUMNS)}, ${authorJson('a')} AS flagger
         FROM flags f ${authorJoin('a', 'f.flagger_id')}
         WHERE f.item_id = ANY ($1::int[]) ORDER BY f.created_at, f.id`,
        [itemIds],
      ) as Promise<ReviewFlagRow[]>,
      userFacts(db, authorIds),
      db.query(
        `SELECT ${selectColumns(ReviewItemEntity, 'i', ['authorId'])}, count(*)::int AS count
         FROM flags f JOIN review_items i ON i.id = f.item_id
         WHERE i.author_id = ANY ($1::int[]) AND f.status = 'agreed' GROUP BY i.author_id`,
        [authorIds],
      ) as Promise<Array<Row<ReviewItemEntity, 'authorId'> & { count: number }>>,
      db.query(
        `SELECT ${selectColumns(Suspension, 's', ['userId'])}, count(*)::int AS count FROM suspensions s
         WHERE s.user_id = ANY ($1::int[]) GROUP BY s.user_id`,
        [authorIds],
      ) as Promise<Array<Row<Suspension, 'userId'> & { count: number }>>,
      authorPostCounts(db, authorIds),
      // Posts still held for approval are theirs too, though not made yet.
      db.query(
        `SELECT ${selectColumns(ReviewItemEntity, 'i', ['authorId'])},
           count(*) FILTER (WHERE i.target_type = 'paste')::int AS pastes,
           count(*) FILTER (WHERE i.target_type = 'reply')::int AS replies
         FROM review_items i WHERE i.kind = 'held' AND i.status = 'open' AND i.author_id = ANY ($1::int[])
         GROUP BY i.author_id`,
        [authorIds],
      ) as Promise<Array<Row<ReviewItemEntity, 'authorId'> & { pastes: number; replies: number }>>,
    ]);
    const heldOf = new Map(held.map((row) => [row.authorId, row]));
    const flagsOf = new Map<number, ReviewFlag[]>();
    for (const flag of flags) {
      const list = flagsOf.get(flag.itemId) ?? [];
      list.push(toReviewFlag(flag));
      flagsOf.set(flag.itemId, list);
    }
    const agreedOf = new Map(agreed.map((row) => [row.authorId, row.count]));
    const suspensionsOf = new Map(suspensions.map((row) => [row.userId, row.count]));
    return rows.map((row) => {
      const author = row.authorId === null ? undefined : authors.get(row.authorId);
      return toReviewItem(row, {
        target: targets.get(row.id)!.target,
        author: author?.author ?? null,
        history: author
          ? {
              joinedAt: author.joinedAt.toISOString(),
              pastes: (posts.get(author.id)?.pastes ?? 0) + (heldOf.get(author.id)?.pastes ?? 0),
              replies: (posts.get(author.id)?.replies ?? 0) + (heldOf.get(author.id)?.replies ?? 0),
              flagsAgreed: agreedOf.get(author.id) ?? 0,
              suspensions: suspensionsOf.get(author.id) ?? 0,
              bannedUntil: author.bannedUntil?.toISOString() ?? null,
              isBanned: author.isBanned,
              silencedUntil: author.silencedUntil?.toISOString() ?? null,
            }
          : null,
        flags: flagsOf.get(row.id) ?? [],
      });
    });
  }
}

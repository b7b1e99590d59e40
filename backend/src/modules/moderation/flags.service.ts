import { BadRequestException, ConflictException, Injectable, NotFoundException } from '@nestjs/common';
import {
  type FlagCreate,
  type PasteRef,
  type FlagTarget,
  flagWeight,
  MODERATION_MESSAGES,
  type MyFlag,
  type MyFlags,
} from '@termpaste/contracts';
import { DataSource, type EntityManager } from 'typeorm';
import type { AppConfig } from '../../config/config.js';
import { InjectConfig } from '../../config/config.module.js';
import { violatedUniqueConstraint } from '../../common/unique-violation.js';
import { excerpt } from '../audit/audit.service.js';
import { ChatService } from '../chat/chat.service.js';
import { messagesForReview } from '../messages/review-messages.js';
import { OutboxService } from '../../infra/outbox/outbox.service.js';
import { noticesJob } from '../notifications/notifications.queue.js';
import { flaggablePaste, flaggableReply, pasteRefs } from '../pastes/review-posts.js';
import type { User } from '../users/entities/user.entity.js';
import { userFacts } from '../users/user-facts.js';
import { HIDEABLE, ReviewService } from './review.service.js';
import type { Row } from '../../infra/database/columns.js';
import type { ReviewItem } from './entities/review-item.entity.js';
import { type FlagRow, flagColumns, toMyFlag } from './moderation-rows.js';

/** The flags a member's list shows at most. */
const MINE_MAX = 500;

/** Scores are sums of real weights: a threshold reached up to rounding is reached. */
const SCORE_EPSILON = 1e-4;

/** What a flag is about, as the member who flags may see it. */
interface FlagTargetFacts {
  authorId: number | null;
  /** How the author's notice names it, when it is hidden. */
  yours: string;
  /** The paste it is or is on (the author's notice links to it). */
  threadId: number | null;
  /** Its number (a paste flagged by its key: the key's paste's). */
  id: number;
  /** How the member's list of flags names it: a paste's ref, else its number. */
  ref: PasteRef;
}

/** What a committed flag leaves to do. */
interface Flagged {
  flag: MyFlag;
  itemId: number;
  newItem: boolean;
  announce: (() => Promise<void>) | null;
  target: FlagTargetFacts;
}

/**
 * Members' flags: one per member and item, each weighted by the flagger's record with staff
 * (flagWeight), added to the item's open review item; when the score reaches MODERATION_FLAG_HIDE_THRESHOLD
 * a paste, a reply or a chat message is hidden pending review at once, and its author is told.
 */
@Injectable()
export class FlagsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly chat: ChatService,
    private readonly review: ReviewService,
    private readonly outbox: OutboxService,
    @InjectConfig() private readonly config: Pick<AppConfig, 'moderation'>,
  ) {}

  /**
   * Flags `body.targetId` for member `flagger`: 404 when there is nothing they may see there, 400 for
   * their own post or themselves, 409 when they flagged it already. One transaction: the item opened (or
   * reused), the flag, the score, and the hiding when the score reaches the threshold.
   */
  async create(flagger: User, body: FlagCreate): Promise<MyFlag> {
    let flagged: Flagged;
    try {
      flagged = await this.dataSource.transaction((manager) => this.flag(manager, flagger, body));
    } catch (error) {
      if (violatedUniqueConstraint(error) === 'flags_once_key') {
        throw new ConflictException(MODERATION_MESSAGES.alreadyFlagged);
      }
      throw error;
    }
    if (flagged.announce) {
      this.outbox.committed();
      await flagged.announce();
    }
    if (flagged.newItem) await this.review.announceCount();
    return flagged.flag;
  }

  /** The member's flags, newest first (the last MINE_MAX). */
  async mine(userId: number): Promise<MyFlags> {
    const rows: FlagRow[] = await this.dataSource.query(
      `SELECT ${flagColumns('f')} FROM flags f
       WHERE f.flagger_id = $1 ORDER BY f.created_at DESC, f.id DESC LIMIT ${MINE_MAX}`,
      [userId],
    );
    const refs = await pasteRefs(
      this.dataSource,
      rows.filter((row) => row.targetType === 'paste').map((row) => row.targetId),
    );
    return {
      flags: rows.map((row) => ({
        ...toMyFlag(row),
        ...(row.targetType === 'paste' ? { targetId: refs.get(row.targetId) ?? row.targetId } : {}),
      })),
    };
  }

  private async flag(manager: EntityManager, flagger: User, body: FlagCreate): Promise<Flagged> {
    const { targetType } = body;
    const target = await this.target(manager, flagger, targetType, body.targetId);
    const targetId = target.id;
    const [already] = await manager.query(
      'SELECT 1 FROM flags WHERE flagger_id = $1 AND target_type = $2 AND target_id = $3',
      [flagger.id, targetType, targetId],
    );
    if (already) throw new ConflictException(MODERATION_MESSAGES.alreadyFlagged);
    const [record]: Array<{ agreed: number; disagreed: number }> = await manager.query(
      `SELECT count(*) FILTER (WHERE status = 'agreed')::int AS agreed,
         count(*) FILTER (WHERE status = 'disagreed')::int AS disagreed
       FROM flags WHERE flagger_id = $1`,
      [flagger.id],
    );
    const weight = flagWeight(record ?? { agreed: 0, disagreed: 0 });
    // The target's one open item: opened now, or the one its earlier flags (or a signal) opened.
    const [item]: Array<Row<ReviewItem, 'id'> & { created: boolean }> = await manager.query(
      `INSERT INTO review_items (kind, target_type, target_id, author_id) VALUES ('flagged', $1, $2, $3)
       ON CONFLICT (target_type, target_id) WHERE status = 'open' AND target_id IS NOT NULL
       DO UPDATE SET updated_at = now()
       RETURNING id, (xmax = 0) AS created`,
      [targetType, targetId, target.authorId],
    );
    const [row]: FlagRow[] = await manager.query(
      `INSERT INTO flags (item_id, flagger_id, target_type, target_id, reason, note, weight)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       RETURNING ${flagColumns('flags')}`,
      [item!.id, flagger.id, targetType, targetId, body.reason, body.note || null, weight],
    );
    const [[scored]]: [Array<Row<ReviewItem, 'score' | 'hidden'>>, number] = await manager.query(
      `UPDATE review_items SET score = score + $2, updated_at = now() WHERE id = $1 RETURNING score, hidden`,
      [item!.id, weight],
    );
    let announce: (() => Promise<void>) | null = null;
    const threshold = this.config.moderation.flagHideThreshold;
    if (HIDEABLE.has(targetType) && !scored!.hidden && scored!.score >= threshold - SCORE_EPSILON) {
      announce = await this.review.setHidden(manager, targetType, targetId, true);
      await manager.query('UPDATE review_items SET hidden = true WHERE id = $1', [item!.id]);
      if (announce) await this.tellHidden(manager, item!.id, target);
    }
    return {
      flag: { ...toMyFlag(row!), targetId: target.ref },
      itemId: item!.id,
      newItem: item!.created,
      announce,
      target,
    };
  }

  /**
   * What `targetType` `targetId` is, if `flagger` may see it (else 404 targetNotFound): a paste by its
   * ref, a reply on a paste they may read, a chat message, a private message they received, a member.
   * 400 for their own post, or themselves.
   */
  private async target(
    manager: EntityManager,
    flagger: User,
    targetType: FlagTarget,
    given: PasteRef,
  ): Promise<FlagTargetFacts> {
    // Only a paste is named by a key (the body's schema refuses one elsewhere).
    const targetId = typeof given === 'number' ? given : 0;
    const notFound = () => new NotFoundException(MODERATION_MESSAGES.targetNotFound);
    const own = (authorId: number | null) => {
      if (authorId === flagger.id) throw new BadRequestException(MODERATION_MESSAGES.ownPost);
    };
    switch (targetType) {
      case 'paste':
      case 'reply': {
        const post =
          targetType === 'paste'
            ? await flaggablePaste(manager, given, flagger.id)
            : await flaggableReply(manager, targetId, flagger.id).then(
                (reply) => reply && { ...reply, ref: targetId },
              );
        if (!post) throw notFound();
        own(post.authorId);
        const title = `"${excerpt(post.title, 60)}"`;
        return {
          authorId: post.authorId,
          yours: targetType === 'paste' ? `Your paste ${title}` : `Your reply on ${title}`,
          threadId: post.threadId,
          id: targetType === 'paste' ? post.threadId : targetId,
          ref: post.ref,
        };
      }
      case 'chat': {
        const [line] = await this.chat.lines(manager, [targetId]);
        if (!line) throw notFound();
        own(line.authorId);
        return {
          authorId: line.authorId,
          yours: `Your chat message "${excerpt(line.content, 60)}"`,
          threadId: null,
          id: targetId,
          ref: targetId,
        };
      }
      case 'message': {
        const [message] = await messagesForReview(manager, [targetId]);
        // Only its recipient may flag it: to anyone else it is not there.
        if (!message || message.recipientId !== flagger.id) throw notFound();
        own(message.senderId);
        return { authorId: message.senderId, yours: '', threadId: null, id: targetId, ref: targetId };
      }
      case 'member': {
        if (targetId === flagger.id) throw new BadRequestException(MODERATION_MESSAGES.self);
        const user = (await userFacts(manager, [targetId])).get(targetId);
        if (!user) throw notFound();
        return { authorId: user.id, yours: '', threadId: null, id: targetId, ref: targetId };
      }
    }
  }

  /**
   * The author of a post just hidden is told (they may edit it; staff will decide): through the outbox,
   * in the flag's transaction.
   */
  private async tellHidden(manager: EntityManager, itemId: number, target: FlagTargetFacts): Promise<void> {
    if (target.authorId === null) return;
    await this.outbox.add(
      manager,
      noticesJob(`hidden-${itemId}`, [
        {
          userId: target.authorId,
          type: 'moderation',
          content: `${target.yours} is hidden pending review after flags by members. You can edit it; staff will decide.`,
          threadId: target.threadId,
          actorId: null,
          source: `review:${itemId}:hidden`,
        },
      ]),
    );
  }
}

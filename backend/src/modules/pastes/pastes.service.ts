import {
  BadRequestException,
  ForbiddenException,
  Injectable,
  Logger,
  NotFoundException,
  UnauthorizedException,
} from '@nestjs/common';
import {
  type CreateReplyBody,
  pasteLines,
  type CreatePasteBody,
  FEATURED_MAX,
  PASTE_LIVE_EVENT,
  POST_MESSAGES,
  PINNED_MAX,
  rankChanges,
  type RecentPastesPage,
  REPUTATION,
  type PasteCard,
  type PasteDetail,
  PASTES_PAGE_SIZE,
  type PasteLiveEvent,
  type PasteRef,
  pasteKeyed,
  OWN_POSTS_MESSAGES,
  FORKS_PAGE_SIZE,
  type ForksPage,
  type HeldPost,
  MODERATION_MESSAGES,
  type SpamSignal,
  SIGNATURE_MESSAGES,
  type Visibility,
} from '@termpaste/contracts';
import {
  aliveSql,
  listedSql,
  newPasteKey,
  readableSql,
  refOf,
  type RefRow,
  refWhere,
  resolvePaste,
} from './visibility.js';
import { PasteExpiry } from './paste-expiry.js';
import { DataSource, type EntityManager, QueryFailedError } from 'typeorm';
import { type HeldPayload, ReviewQueuePort } from '../screening/review-queue.js';
import { SpamScreen, type Submission } from '../screening/spam-screen.js';
import { mentionsAnyone } from '../auth/mentions.js';
import { notificationJobSql } from '../notifications/notifications.queue.js';
import { outboxInsertSql } from '../../infra/outbox/outbox.js';
import { traceparent } from '../../infra/tracing/tracing.js';
import { OutboxService } from '../../infra/outbox/outbox.service.js';
import { prepare, queryPrepared } from '../../infra/database/prepared.js';
import {
  checkLockSequence,
  type LockingSql,
  lockingSql,
  queryLocking,
} from '../../infra/database/lock-order.js';
import { announcePagesChanged, EventsPort, type PagesChanged } from '../../infra/events/events.port.js';
import { ViewCounter } from './view-counter.js';
import { keysetPage } from '../../common/keyset-cursor.js';
import { retryOnConflict } from '../../common/retry-on-conflict.js';
import { cappedAwardCtes, ReputationService } from '../ranks/reputation.service.js';
import { authorJoin, authorJson } from '../users/author-sql.js';
import { CARD_COLUMNS, CARD_FROM } from './cards.js';
import { Paste } from './entities/paste.entity.js';
import { Reply } from './entities/reply.entity.js';
import { anchorColumns } from './line-comments.js';
import { type CardRow, PAGE_REPLY_PROPERTIES, type PageReplyRow, toCard, toReplyView } from './paste-rows.js';
import { type Row, selectColumns } from '../../infra/database/columns.js';
import type { User } from '../users/entities/user.entity.js';
import { moveReputation } from '../users/user-sql.js';
import { UsersService } from '../users/users.service.js';
import { type CheckedSignature, SigningService, toPasteSignature } from '../signing/signing.service.js';
import { type PasteSignatureRow, pasteSignatureJson } from '../signing/signing-sql.js';

import { checkRecording } from './languages.js';
import { PASTE_STATS_SLOT } from './paste-stats.js';

export { PASTE_STATS_SLOT };

/**
 * In a new paste's statement (CTE `created`), to the outbox ($13: its trace): the notification job of one
 * that @mentions members ('thread'), or of one that mentions nobody but may notify watchers ('paste').
 */
const PASTE_JOB_SQL = {
  thread: outboxInsertSql('created', notificationJobSql('thread', '$13')),
  paste: outboxInsertSql('created', notificationJobSql('paste', '$13')),
};
/** A new paste's +5 (within the day's cap, on the ledger), in its statement: $3 the author, $4 the points, $5 the cap. */
const PASTE_AWARD = cappedAwardCtes({
  userId: '$3',
  reason: 'paste',
  points: '$4',
  cap: '$5',
  source: 'created',
  threadId: 's.id',
  replyId: 'NULL',
});
/**
 * A new paste's statement (PastesService.createPaste); with `queued`, its mentions' job to the outbox.
 * Only a listed paste (public, not burning) counts in its author's and the forum's paste counts, which
 * anyone can read. Its locks, in order: the author's 'paste' daily row, then their row.
 */
const createPasteSql = (queued: keyof typeof PASTE_JOB_SQL | null): LockingSql =>
  lockingSql`WITH ${PASTE_AWARD.daily}, author AS (
     ${moveReputation({
       id: '$3',
       points: 'COALESCE((SELECT points FROM daily), 0)',
       newPaste: `$7::text = 'public' AND NOT $10::boolean`,
     })}
     RETURNING id
   ), created AS (
     INSERT INTO threads (title, content, author_id, language, visibility, key, expires_at, burn_after_reading,
       forked_from_id, is_fork, tags)
     SELECT $1, $2, id, $6, $7, $8, $9, $10, (SELECT o.id FROM threads o WHERE o.id = $11::int), $11::int IS NOT NULL,
       $12::text[]
     FROM author RETURNING id, listed
   ), counted AS (
     UPDATE forum_stats SET thread_count = thread_count + (SELECT count(*) FROM created WHERE listed)
     WHERE slot = ${PASTE_STATS_SLOT}
   ), ${PASTE_AWARD.logged}${queued ? lockingSql`, queued AS (${PASTE_JOB_SQL[queued]})` : ''}
   SELECT id, listed, (SELECT points FROM daily) AS points FROM created`;

/** A new paste's row as its statement answers it (`points`: what its author earned, null: nothing). */
type CreatedPaste = Row<Paste, 'id' | 'listed'> & { points: number | null };
type CreatePasteParams = [
  title: string,
  content: string,
  authorId: number,
  points: number,
  cap: number,
  language: string | null,
  visibility: Visibility,
  key: string | null,
  expiresAt: Date | null,
  burnAfterReading: boolean,
  forkedFrom: number | null,
  tags: string[],
];
const CREATE_PASTE = prepare<CreatedPaste, CreatePasteParams>('thread-create', createPasteSql(null));
const CREATE_PASTE_NOTIFYING = prepare<CreatedPaste, [...CreatePasteParams, traceparent: string | null]>(
  'thread-create-notifying',
  createPasteSql('thread'),
);
const CREATE_PASTE_ANNOUNCING = prepare<CreatedPaste, [...CreatePasteParams, traceparent: string | null]>(
  'thread-create-announcing',
  createPasteSql('paste'),
);
/**
 * The original of a fork, while it is alive: who wrote it (they may always see it named) and whether
 * it is listed (then everyone may).
 */
export interface ForkOriginal {
  ref: PasteRef;
  title: string;
  authorId: number | null;
  listed: boolean;
}

/** A new reply's row and its notification job ($5: its trace), to the outbox; the paste is locked before it. */
const INSERT_REPLY = lockingSql`WITH reply AS (
     INSERT INTO replies (thread_id, parent_id, author_id, content,
       anchor_from, anchor_to, anchor_version, anchor_hash, suggestion)
     VALUES ($1, $2, $3, $4, $6, $7, $8, $9, $10)
     RETURNING id, created_at
   ), queued AS (${outboxInsertSql('reply', notificationJobSql('reply', '$5'))})
   SELECT id, created_at AS "createdAt" FROM reply`;
checkLockSequence('reply-create', INSERT_REPLY.locks);

/**
 * The replies a paste's page shows: every live one, and a deleted one only while a live reply stands
 * under it (a placeholder that keeps the tree's shape). `replies` oldest first.
 */
export function withoutDeadBranches<T extends { id: number; parentId: number | null; deleted: boolean }>(
  replies: readonly T[],
): T[] {
  const parentOf = new Map(replies.map((reply) => [reply.id, reply.parentId]));
  const needed = new Set<number>();
  for (const reply of replies) {
    if (reply.deleted) continue;
    // Walk up from each live reply until a reply already marked: each reply is marked at most once.
    let up = reply.parentId;
    while (up !== null && !needed.has(up)) {
      needed.add(up);
      up = parentOf.get(up) ?? null;
    }
  }
  return replies.filter((reply) => !reply.deleted || needed.has(reply.id));
}

const DETAIL_PROPERTIES = ['content', 'language', 'editedAt', 'authorId', 'isFork', 'forkedFromId'] as const;
const DETAIL_SELECT = selectColumns(Paste, 't', DETAIL_PROPERTIES);
const PAGE_REPLY_SELECT = selectColumns(Reply, 'r', PAGE_REPLY_PROPERTIES);

/** A paste's page: its card, its own columns, its forks and its original (when alive). */
type DetailRow = CardRow &
  Row<Paste, (typeof DETAIL_PROPERTIES)[number]> & {
    hidden: boolean;
    forkCount: number;
    forkIds: number[];
    original: (RefRow & Row<Paste, 'id' | 'title' | 'authorId'> & { listed: boolean }) | null;
    signature: PasteSignatureRow | null;
  };

/** A new paste's fields, as the routes pass them (`language` canonical or null). */
export type PasteBody = Omit<CreatePasteBody, 'language'> & { language?: string | null };

/** How a paste is made. */
export interface PasteOptions {
  forkedFrom?: number;
  mentions?: boolean;
  /** false: not screened (staff approve a held post, which was screened when it came). */
  screen?: boolean;
  /** The request's address and user agent (for the Akismet check). */
  client?: { ip: string | null; userAgent: string | null };
  /** The route it came by, kept with a held paste. */
  via?: 'web' | 'terminal' | 'fork';
}

/** A held paste's request, as approving it replays it. */
export interface HeldPasteRequest {
  kind: 'paste';
  via: 'web' | 'terminal' | 'fork';
  body: PasteBody;
  forkedFrom: number | null;
  mentions: boolean;
}

/** A held reply's request, as approving it replays it. */
export interface HeldReplyRequest {
  kind: 'reply';
  ref: PasteRef;
  body: Pick<CreateReplyBody, 'content' | 'parentId' | 'anchor' | 'suggestion'> & { parentId: number | null };
}

export type HeldRequest = HeldPasteRequest | HeldReplyRequest;

type PastePlan = Awaited<ReturnType<PastesService['planPaste']>>;

interface CreatedReply {
  id: number;
  earned: number;
  parentId: number | null;
  replyCount: number;
}

/** The cached lists a new listed paste is on (listNamed); featured and others' profiles are not. */
const NEW_PASTE_LISTS = ['home:*', 'feed:*'];

/** PostgreSQL's foreign_key_violation. */
const FOREIGN_KEY_VIOLATION = '23503';

/** A write whose author's account was deleted since the guard loaded it (a row naming them fails): 401. */
async function signedOutOnMissingAuthor<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    const code = (error as { driverError?: { code?: unknown } }).driverError?.code;
    if (error instanceof QueryFailedError && code === FOREIGN_KEY_VIOLATION) {
      throw new UnauthorizedException();
    }
    throw error;
  }
}

/** Pastes, replies and search: every counter is kept in the transaction of its write. */
@Injectable()
export class PastesService {
  private readonly logger = new Logger('Pastes');

  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: OutboxService,
    private readonly views: ViewCounter,
    private readonly users: UsersService,
    private readonly events: EventsPort,
    private readonly reputation: ReputationService,
    private readonly expiry: PasteExpiry,
    private readonly spam: SpamScreen,
    private readonly reviewItems: ReviewQueuePort,
    private readonly signing: SigningService,
  ) {}

  /**
   * Tells every instance which public pages a committed write made stale (their caches drop them). An
   * author who `gained` reputation and so moved to another rank shows it on every page they wrote on.
   */
  private pagesChanged(
    change: Omit<PagesChanged, 'type'>,
    author?: User,
    gained = 0,
    pasteEvent?: PasteLiveEvent,
  ): Promise<void> {
    const moved = author !== undefined && rankChanges(author.reputation, gained);
    return announcePagesChanged(this.events, moved ? { all: true } : change, this.logger, pasteEvent);
  }

  async recent(cursor?: string): Promise<RecentPastesPage> {
    const pinned: CardRow[] = cursor
      ? []
      : await this.dataSource.query(
          `SELECT ${CARD_COLUMNS} FROM ${CARD_FROM} WHERE t.is_pinned AND ${listedSql('t')} ORDER BY t.created_at DESC, t.id DESC
           LIMIT ${PINNED_MAX}`,
        );
    const { rows, nextCursor } = await keysetPage<CardRow>(
      (sql, params) => this.dataSource.query(sql, params),
      {
        alias: 't',
        select: CARD_COLUMNS,
        from: CARD_FROM,
        where: `NOT t.is_pinned AND ${listedSql('t')}`,
        params: [],
        pageSize: PASTES_PAGE_SIZE,
        cursor,
      },
    );
    const [stats]: Array<{ pasteCount: number }> = await this.dataSource.query(
      'SELECT GREATEST(sum(thread_count), 0)::int AS "pasteCount" FROM forum_stats',
    );
    return {
      pinned: pinned.map(toCard),
      threads: rows.map(toCard),
      nextCursor,
      total: stats?.pasteCount ?? 0,
    };
  }

  async featured(): Promise<PasteCard[]> {
    const rows: CardRow[] = await this.dataSource.query(
      `SELECT ${CARD_COLUMNS} FROM ${CARD_FROM} WHERE t.is_featured AND ${listedSql('t')} ORDER BY t.created_at DESC, t.id DESC
       LIMIT ${FEATURED_MAX}`,
    );
    return rows.map(toCard);
  }

  /**
   * The paste `ref` names, with its replies, as any reader sees it (`myVote` null) and its view count read
   * consistently with pending views. Alive only; the caller judges a private one and a burning one's
   * content with `authorId`. `db`: a transaction's manager to read in.
   */
  async detail(
    ref: PasteRef,
    db: DataSource | EntityManager = this.dataSource,
  ): Promise<{
    detail: PasteDetail;
    storedViews: number;
    id: number;
    authorId: number | null;
    original: ForkOriginal | null;
    /** The pastes whose change changes this page: its original and its forks (DetailPage.related). */
    related: number[];
  }> {
    const [row] = await this.views.consistentRead((): Promise<Array<DetailRow>> =>
      // Forks are counted here, not kept on write: a fork deleted, expired or hidden leaves the count
      // by itself (threads_forked_from_idx finds them).
      db.query(
        `SELECT ${CARD_COLUMNS}, ${DETAIL_SELECT},
             t.hidden_at IS NOT NULL AS hidden,
             (SELECT count(*)::int FROM threads f WHERE f.forked_from_id = t.id AND ${listedSql('f')}) AS "forkCount",
             ARRAY(SELECT f.id FROM threads f WHERE f.forked_from_id = t.id) AS "forkIds",
             (SELECT json_build_object('id', o.id, 'title', o.title, 'authorId', o.author_id,
                'listed', ${listedSql('o')}, 'pasteKey', o.key, 'pasteVisibility', o.visibility,
                'pasteBurns', o.burn_after_reading)
              FROM threads o WHERE o.id = t.forked_from_id AND ${aliveSql('o')}) AS original,
             ${pasteSignatureJson('t')} AS signature
           FROM ${CARD_FROM} WHERE ${refWhere('t', ref, 1)} AND ${aliveSql('t')}`,
        [ref],
      ),
    );
    if (!row) throw new NotFoundException(POST_MESSAGES.pasteNotFound);
    const replies: PageReplyRow[] = await db.query(
      `SELECT ${PAGE_REPLY_SELECT},
         r.deleted_at IS NOT NULL AS deleted, r.hidden_at IS NOT NULL AS hidden, ${authorJson('a')} AS author
       FROM replies r ${authorJoin('a', 'r.author_id')}
       WHERE r.thread_id = $1 ORDER BY r.created_at, r.id`,
      [row.id],
    );
    const card = toCard(row);
    const original: ForkOriginal | null = row.original && {
      ref: refOf(row.original.id, row.original),
      title: row.original.title,
      authorId: row.original.authorId,
      listed: row.original.listed,
    };
    const shown = withoutDeadBranches(replies);
    // Split once, and only when a line comment asks whether its lines changed since.
    let split: string[] | undefined;
    const lines = () => (split ??= pasteLines(row.content));
    const detail: PasteDetail = {
      ...card,
      content: row.content,
      language: row.language,
      editedAt: row.editedAt?.toISOString() ?? null,
      burnAfterReading: row.pasteBurns,
      // Everyone who reads this page is shown it (it may be cached and shared): a listed original only.
      forkedFrom: !row.isFork
        ? null
        : original?.listed
          ? { id: original.ref, title: original.title }
          : { id: null, title: null },
      forkCount: row.forkCount,
      myVote: null,
      hidden: row.hidden,
      replies: shown.map((reply) => toReplyView(reply, card.id, lines)),
      signature: toPasteSignature(row.signature),
    };
    const related = row.forkedFromId === null ? row.forkIds : [row.forkedFromId, ...row.forkIds];
    return { detail, storedViews: row.viewCount, id: row.id, authorId: row.authorId, original, related };
  }

  /**
   * Counts one view of a paste that exists (in memory: the ViewCounter stores views in batches) and
   * returns its view count now: `storedViews` (read by `detail`) plus this process's pending views.
   */
  viewed(id: number, storedViews: number): number {
    this.views.count(id);
    return this.viewCount(id, storedViews);
  }

  /** The paste's view count now, counting no view (a live refresh of a page already shown). */
  viewCount(id: number, storedViews: number): number {
    return storedViews + this.views.pending(id);
  }

  /**
   * The exact text of the paste `ref` names, if `viewerId` (null: a visitor) may read it; a paste that
   * burns after reading shows its text to its author only (others read it once, through `read-once`).
   */
  async raw(
    ref: PasteRef,
    viewerId: number | null,
  ): Promise<{ id: number; content: string; keyed: boolean }> {
    const [row]: Array<{ id: number; content: string; keyed: boolean }> = await this.dataSource.query(
      `SELECT t.id, t.content, (t.visibility <> 'public' OR t.burn_after_reading) AS keyed
       FROM threads t WHERE ${refWhere('t', ref, 1)} AND ${readableSql('t', '$2::int')}
         AND (NOT t.burn_after_reading OR t.author_id = $2::int)`,
      [ref, viewerId],
    );
    if (!row) throw new NotFoundException(POST_MESSAGES.pasteNotFound);
    return row;
  }

  /**
   * The armoured SSH signature of the paste `ref` names, to whoever may read its raw text (else 404, as
   * for none); 404 when it is unsigned.
   */
  async rawSignature(ref: PasteRef, viewerId: number | null): Promise<{ signature: string; keyed: boolean }> {
    const { id, keyed } = await this.raw(ref, viewerId);
    const signature = await this.signing.armoured(id);
    if (signature === null) throw new NotFoundException(SIGNATURE_MESSAGES.unsigned);
    return { signature, keyed };
  }

  /**
   * A new paste in one prepared statement; its steps run in a fixed order so it cannot deadlock with a
   * deletion. A member's paste is screened first (SpamScreen): too many links is a 400, a spam match is
   * held for review (HeldPost). Steps and arguments: docs/backend.md.
   */
  async createPaste(
    author: User,
    body: PasteBody,
    options: PasteOptions = {},
  ): Promise<{ id: PasteRef } | HeldPost> {
    const plan = await this.planPaste(body, options);
    // Checked against the author's keys before anything is written: 400 or 422 when it does not hold.
    const signature =
      body.signature === undefined ? null : await this.signing.check(author.id, body.content, body.signature);
    const screened = options.screen !== false && this.spam.screens(author);
    if (!screened && (options.screen === false || !this.spam.queues(author))) {
      const row = signature
        ? await signedOutOnMissingAuthor(() =>
            this.dataSource.transaction((manager) => this.insertSigned(manager, author, plan, signature)),
          )
        : await this.insertPaste(this.dataSource, author, plan);
      return { id: await this.afterPaste(author, plan, row) };
    }
    const submission: Submission = {
      author,
      kind: 'paste',
      title: body.title,
      content: body.content,
      client: options.client,
    };
    // Screened before the transaction, so that its reads hold none of the rows the paste locks.
    const signals = screened ? await this.spam.screen(this.dataSource, submission) : [];
    const outcome = await signedOutOnMissingAuthor(() =>
      this.dataSource.transaction(async (manager) => {
        if (signals.length > 0) {
          const request: HeldPasteRequest = {
            kind: 'paste',
            via: options.via ?? 'web',
            body: { ...body, language: body.language ?? null },
            forkedFrom: options.forkedFrom ?? null,
            mentions: options.mentions ?? true,
          };
          return this.hold(manager, submission, signals, {
            title: body.title,
            content: body.content,
            language: body.language ?? null,
            threadRef: null,
            parentId: null,
            request: { ...request },
          });
        }
        const row = await this.insertSigned(manager, author, plan, signature);
        await this.spam.published(manager, {
          ...submission,
          targetType: 'paste',
          targetId: row.id,
          threadId: row.id,
          shared: plan.visibility !== 'private' && !plan.burnAfterReading,
        });
        return row;
      }),
    );
    if ('held' in outcome) {
      await this.reviewItems.announceCount();
      return outcome;
    }
    if (this.spam.queues(author)) this.outbox.committed();
    if (screened) await this.spam.remember(this.dataSource, submission);
    return { id: await this.afterPaste(author, plan, outcome) };
  }

  /**
   * A held post approved by staff: made now as its author asked for it (`request`, as held), without
   * screening, in `manager`'s transaction; `after` is to be called once it committed. A held reply
   * whose paste is gone (or no longer readable by its author) is a 404, whose parent reply is gone a 400.
   */
  async replay(
    manager: EntityManager,
    author: User,
    request: HeldRequest,
  ): Promise<{
    kind: 'paste' | 'reply';
    id: number;
    threadId: number;
    ref: PasteRef;
    after: () => Promise<void>;
  }> {
    if (request.kind === 'paste') {
      const plan = await this.planPaste(request.body, {
        forkedFrom: request.forkedFrom ?? undefined,
        mentions: request.mentions,
      });
      // Signed when it was held; still signed if its author still lists the key (else made unsigned).
      const signature =
        request.body.signature === undefined
          ? null
          : await this.signing
              .check(author.id, request.body.content, request.body.signature)
              .catch(() => null);
      const row = await this.insertSigned(manager, author, plan, signature);
      const ref = plan.keyed && plan.key !== null ? plan.key : row.id;
      return {
        kind: 'paste',
        id: row.id,
        threadId: row.id,
        ref,
        after: async () => {
          await this.afterPaste(author, plan, row);
        },
      };
    }
    const paste = await resolvePaste(manager, request.ref, author.id, { lock: true });
    const created = await this.insertReply(manager, author, paste, request.body);
    return {
      kind: 'reply',
      id: created.id,
      threadId: paste.id,
      ref: request.ref,
      after: async () => {
        this.outbox.committed();
        await this.afterReply(author, paste.id, created);
      },
    };
  }

  /** Opens the held post's review item (and remembers its text) in `manager`'s transaction. */
  private async hold(
    manager: EntityManager,
    submission: Submission,
    signals: SpamSignal[],
    payload: HeldPayload,
  ): Promise<HeldPost> {
    const itemId = await this.reviewItems.openHeld(manager, {
      targetType: submission.kind,
      authorId: submission.author.id,
      signals,
      payload,
    });
    // Held copies count too: the next copy of the text meets them.
    await this.spam.remember(manager, submission);
    return { held: true, message: MODERATION_MESSAGES.held, itemId };
  }

  /** What a new paste's statement takes, worked out before it runs. */
  private async planPaste(body: PasteBody, { forkedFrom, mentions = true }: PasteOptions) {
    checkRecording(body.language, body.content);
    const visibility = body.visibility ?? 'public';
    const burnAfterReading = body.burnAfterReading ?? false;
    const keyed = pasteKeyed({ visibility, burnAfterReading });
    const key = keyed ? newPasteKey() : null;
    const expiresAt = this.expiry.expiresAt(body.expiresIn);
    // A paste in a language shows as code (or terminal output), where an @name is no mention; a private
    // paste notifies nobody (nobody else may read it).
    const notifies =
      mentions &&
      visibility !== 'private' &&
      (body.language ?? null) === null &&
      (await mentionsAnyone(body.content));
    // Any other paste but a private one may still tell its author's followers and its tags' watchers.
    const announces = !notifies && visibility !== 'private';
    return { body, visibility, burnAfterReading, keyed, key, expiresAt, notifies, announces, forkedFrom };
  }

  /** The new paste's statement, on `db` (a transaction's manager, or the pool). 401: the author is gone. */
  private async insertPaste(
    db: DataSource | EntityManager,
    author: User,
    plan: PastePlan,
  ): Promise<CreatedPaste> {
    const params: CreatePasteParams = [
      plan.body.title,
      plan.body.content,
      author.id,
      REPUTATION.thread,
      this.reputation.dailyCap('paste'),
      plan.body.language ?? null,
      plan.visibility,
      plan.key,
      plan.expiresAt,
      plan.burnAfterReading,
      plan.forkedFrom ?? null,
      plan.body.tags ?? [],
    ];
    const [row] = plan.notifies
      ? await queryPrepared(db, CREATE_PASTE_NOTIFYING, [...params, traceparent()])
      : plan.announces
        ? await queryPrepared(db, CREATE_PASTE_ANNOUNCING, [...params, traceparent()])
        : await queryPrepared(db, CREATE_PASTE, params);
    // The account was deleted since the guard loaded it: signed out.
    if (!row) throw new UnauthorizedException();
    return row;
  }

  /** The new paste's statement and, when signed, its signature, in `manager`'s transaction. */
  private async insertSigned(
    manager: EntityManager,
    author: User,
    plan: PastePlan,
    signature: CheckedSignature | null,
  ): Promise<CreatedPaste> {
    const row = await this.insertPaste(manager, author, plan);
    if (signature) await this.signing.record(manager, row.id, signature);
    return row;
  }

  /** After a new paste's commit: its expiry, the pages it changed. Answers its ref. */
  private async afterPaste(author: User, plan: PastePlan, row: CreatedPaste): Promise<PasteRef> {
    const { forkedFrom } = plan;
    if (plan.notifies || plan.announces) this.outbox.committed();
    await this.expiry.schedule(row.id, plan.expiresAt);
    // A paste no list shows changes no list, and no live list hears of it.
    if (row.listed) {
      // A listed fork moves its original's fork count.
      const threads = forkedFrom === undefined ? undefined : [forkedFrom];
      // The lists it is on (home, feeds: a tag's, its author's), its author's profile, and the searches
      // that find it (asked at their next read).
      const change = { listPages: NEW_PASTE_LISTS, posted: [row.id], profiles: [author.id], threads };
      await this.pagesChanged(change, author, row.points ?? 0, {
        type: PASTE_LIVE_EVENT.pasteAdded,
        threadId: row.id,
      });
    } else if (rankChanges(author.reputation, row.points ?? 0)) {
      await this.pagesChanged({ lists: true }, author, row.points ?? 0);
    }
    return plan.keyed && plan.key !== null ? plan.key : row.id;
  }

  /**
   * What a fork of the paste `ref` names starts from, if `viewerId` may read it (else 404, as for none):
   * its number, title, content, language and tags. A paste that burns after reading is forked by its author
   * only (404 to others): its content is shown once, to one reader, and never copied.
   */
  async forkSource(
    ref: PasteRef,
    viewerId: number,
  ): Promise<{ id: number; title: string; content: string; language: string | null; tags: string[] }> {
    const paste = await resolvePaste(this.dataSource, ref, viewerId);
    if (paste.burnAfterReading && paste.authorId !== viewerId) {
      throw new NotFoundException(POST_MESSAGES.pasteNotFound);
    }
    const [row]: Array<Row<Paste, 'title' | 'content' | 'language' | 'tags'>> = await this.dataSource.query(
      'SELECT title, content, language, tags FROM threads WHERE id = $1',
      [paste.id],
    );
    if (!row) throw new NotFoundException(POST_MESSAGES.pasteNotFound);
    return { id: paste.id, ...row };
  }

  /**
   * The listed forks of the paste `ref` names (public, not burning, alive), newest first, a page after
   * `cursor`; 404 when `viewerId` may not read the paste.
   */
  async forks(ref: PasteRef, viewerId: number | null, cursor?: string): Promise<ForksPage> {
    const original = await resolvePaste(this.dataSource, ref, viewerId);
    const { rows, nextCursor } = await keysetPage<CardRow>(
      (sql, params) => this.dataSource.query(sql, params),
      {
        alias: 't',
        select: CARD_COLUMNS,
        from: CARD_FROM,
        where: `t.forked_from_id = $1 AND ${listedSql('t')}`,
        params: [original.id],
        pageSize: FORKS_PAGE_SIZE,
        cursor,
      },
    );
    return { forks: rows.map(toCard), nextCursor };
  }

  /**
   * A reply; +2 reputation (within the day's cap, on the ledger) and the counters of the paste and the
   * author, and its notification job (to the outbox), in one transaction. A member's reply is screened
   * first, in it (see createPaste): held for review, it answers HeldPost.
   */
  async createReply(
    author: User,
    ref: PasteRef,
    body: CreateReplyBody,
    options: Pick<PasteOptions, 'screen' | 'client'> = {},
  ): Promise<{ id: number } | HeldPost> {
    const screened = options.screen !== false && this.spam.screens(author);
    const submission: Submission = {
      author,
      kind: 'reply',
      title: null,
      content: body.content,
      client: options.client,
    };
    let threadId = 0;
    // Screened before the transaction, so that its reads hold none of the rows the reply locks.
    const signals = screened ? await this.spam.screen(this.dataSource, submission) : [];
    // A reply and a vote on the same paste or author race for their rows: a deadlock's victim runs again.
    const outcome = await signedOutOnMissingAuthor(() =>
      retryOnConflict(() =>
        this.dataSource.transaction(async (manager) => {
          // Only a reader replies: a private paste's author alone, anyone with an unlisted one's link; one
          // expired at this instant is not found.
          const paste = await resolvePaste(manager, ref, author.id, { lock: true });
          threadId = paste.id;
          if (signals.length > 0) {
            this.checkReplyable(author, paste);
            await this.checkParent(manager, paste.id, body.parentId ?? null);
            // Judged now as when it is posted (its lines may change before staff approve it).
            await anchorColumns(manager, paste.id, body);
            const request: HeldReplyRequest = {
              kind: 'reply',
              ref,
              body: {
                content: body.content,
                parentId: body.parentId ?? null,
                ...(body.anchor ? { anchor: body.anchor } : {}),
                ...(typeof body.suggestion === 'string' ? { suggestion: body.suggestion } : {}),
              },
            };
            return this.hold(manager, submission, signals, {
              title: null,
              content: body.content,
              language: null,
              threadRef: ref,
              parentId: body.parentId ?? null,
              request: { ...request },
            });
          }
          const created = await this.insertReply(manager, author, paste, body);
          // Akismet checks every member's posts (but staff's), screened or not.
          if (options.screen !== false) {
            await this.spam.published(manager, {
              ...submission,
              targetType: 'reply',
              targetId: created.id,
              threadId,
              shared: paste.visibility !== 'private',
            });
          }
          return created;
        }),
      ),
    );
    if ('held' in outcome) {
      await this.reviewItems.announceCount();
      return outcome;
    }
    this.outbox.committed();
    if (screened) await this.spam.remember(this.dataSource, submission);
    await this.afterReply(author, threadId, outcome);
    return { id: outcome.id };
  }

  /** 403 for a reply to a paste that burns, or to a locked one by a member. */
  private checkReplyable(author: User, paste: { burnAfterReading: boolean; isLocked: boolean }): void {
    if (paste.burnAfterReading) throw new ForbiddenException(OWN_POSTS_MESSAGES.burnNoReplies);
    if (paste.isLocked && !author.isAdmin) throw new ForbiddenException(POST_MESSAGES.pasteLocked);
  }

  /** 400 unless `parentId` (if any) is a live reply of the paste: a deleted reply takes no answers. */
  private async checkParent(
    manager: EntityManager,
    threadId: number,
    parentId: number | null,
  ): Promise<void> {
    if (parentId === null) return;
    const [parent] = await manager.query(
      'SELECT 1 FROM replies WHERE id = $1 AND thread_id = $2 AND deleted_at IS NULL',
      [parentId, threadId],
    );
    if (!parent) throw new BadRequestException(POST_MESSAGES.parentNotInPaste);
  }

  /** The reply's rows, in `manager`'s transaction, on the paste `paste` (resolved and locked). */
  private async insertReply(
    manager: EntityManager,
    author: User,
    paste: { id: number; burnAfterReading: boolean; isLocked: boolean },
    body: CreateReplyBody,
  ): Promise<CreatedReply> {
    const threadId = paste.id;
    this.checkReplyable(author, paste);
    const parentId = body.parentId ?? null;
    await this.checkParent(manager, threadId, parentId);
    const anchor = await anchorColumns(manager, threadId, body);
    const [reply] = await queryLocking<Array<Row<Reply, 'id' | 'createdAt'>>>(manager, INSERT_REPLY, [
      threadId,
      parentId,
      author.id,
      body.content,
      traceparent(),
      anchor.anchorFrom,
      anchor.anchorTo,
      anchor.anchorVersion,
      anchor.anchorHash,
      anchor.suggestion,
    ]);
    const [[counted]] = (await manager.query(
      `UPDATE threads SET reply_count = reply_count + 1, last_reply_at = $2, last_reply_author_id = $3
     WHERE id = $1 RETURNING reply_count AS "replyCount"`,
      [threadId, reply!.createdAt, author.id],
    )) as [Array<Row<Paste, 'replyCount'>>, number];
    await this.users.moveCounts(manager, author.id, { replies: 1 });
    const source = { sourceId: reply!.id, threadId, replyId: reply!.id };
    const change = await this.reputation.earn(manager, author.id, 'reply', REPUTATION.reply, source);
    return { id: reply!.id, earned: change.points, parentId, replyCount: counted!.replyCount };
  }

  /** After a reply's commit: the pages it changed, and the live event. */
  private async afterReply(author: User, threadId: number, created: CreatedReply): Promise<void> {
    // Its paste's page; the counters on that paste's cards; the replier's profile (their count).
    const change = { threads: [threadId], cards: [threadId], profiles: [author.id] };
    await this.pagesChanged(change, author, created.earned, {
      type: PASTE_LIVE_EVENT.replyAdded,
      threadId,
      replyId: created.id,
      parentId: created.parentId,
      authorId: author.id,
      replyCount: created.replyCount,
    });
  }

  /**
   * A member's ten newest pastes, as cards (their profile shows them): the listed ones, or with `own`
   * (the member reads their own profile) every one still alive, unlisted and private included.
   */
  async recentByAuthor(userId: number, { own = false } = {}): Promise<PasteCard[]> {
    const threads: CardRow[] = await this.dataSource.query(
      `SELECT ${CARD_COLUMNS} FROM ${CARD_FROM} WHERE t.author_id = $1
         AND ${own ? aliveSql('t') : listedSql('t')}
       ORDER BY t.created_at DESC, t.id DESC LIMIT 10`,
      [userId],
    );
    return threads.map(toCard);
  }
}

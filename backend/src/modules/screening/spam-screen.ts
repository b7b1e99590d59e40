import { createHash } from 'node:crypto';
import { BadRequestException, Injectable, Logger } from '@nestjs/common';
import { MODERATION_MESSAGES, type SpamSignal } from '@termpaste/contracts';
import { DataSource, type EntityManager } from 'typeorm';
import type { AppConfig } from '../../config/config.js';
import { InjectConfig } from '../../config/config.module.js';
import { OutboxService } from '../../infra/outbox/outbox.service.js';
import { AKISMET_CHECK_JOB, AKISMET_QUEUE, type AkismetCheckJob } from './akismet.queue.js';

/** A post about to be made (or just made), as the spam signals read it. */
export interface Submission {
  author: {
    id: number;
    username: string;
    email: string;
    createdAt: Date;
    isAdmin: boolean;
    /** Listed pastes and live replies: the member's accepted posts (users' counters). */
    threadCount: number;
    replyCount: number;
  };
  kind: 'paste' | 'reply';
  title: string | null;
  content: string;
  /** The request's address and user agent (the Akismet check sends them). */
  client?: { ip: string | null; userAgent: string | null };
}

/** Texts shorter than this (normalised) are too common ("thanks!") to be held as copies. */
export const DUPLICATE_MIN_LENGTH = 20;
const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;
/** A fingerprint older than this counts no more (post_fingerprints keeps an hour). */
const FINGERPRINT_TTL = "interval '1 hour'";
/** At most this many stale fingerprints are purged per post (the rest by the next ones). */
const PURGE_BATCH = 200;
/** The window of the burst signal. */
const BURST_WINDOW = "interval '10 minutes'";

/** A markdown link or image, `[text](target)`. */
const MARKDOWN_LINK = /!?\[[^\]\n]*\]\(\s*[^)\s]+(?:\s+"[^"\n]*")?\s*\)/g;
/** A bare http(s) URL (an autolink `<https://…>` too). */
const BARE_URL = /https?:\/\/[^\s<>()[\]"']+/gi;

/** The links of `text`: markdown links (each counts once, whatever its target) and bare http(s) URLs. */
export function linksIn(text: string): string[] {
  const markdown = text.match(MARKDOWN_LINK) ?? [];
  const bare = text.replace(MARKDOWN_LINK, ' ').match(BARE_URL) ?? [];
  return [...markdown, ...bare];
}

/**
 * Whether `text` is mostly links: the links' characters are more than half of its non-blank
 * characters (a text of links only is).
 */
export function mostlyLinks(text: string): boolean {
  const links = linksIn(text);
  if (links.length === 0) return false;
  const solid = (value: string): number => value.replace(/\s+/g, '').length;
  return links.reduce((sum, link) => sum + solid(link), 0) * 2 > solid(text);
}

/** A text as the copies signal compares it: lower-cased, its blanks collapsed. */
export function normalisedText(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
}

const sha256 = (value: string): string => createHash('sha256').update(value).digest('hex');

/** The spam_marks value of an address: the SHA-256 (hex) of it, lower-cased. */
export function addressMark(email: string): string {
  return sha256(email.trim().toLowerCase());
}

/** The spam_marks value of an address's domain, lower-cased. */
export function domainMark(email: string): string {
  return email
    .slice(email.lastIndexOf('@') + 1)
    .trim()
    .toLowerCase();
}

/**
 * The spam signals of a new paste or reply: `screen` answers those that hold it (none: publish) and refuses
 * a new member's post with too many links; `published` then remembers its fingerprint and queues the
 * Akismet check. Staff are never screened.
 */
@Injectable()
export class SpamScreen {
  private readonly logger = new Logger('SpamScreen');

  constructor(
    @InjectConfig() private readonly config: Pick<AppConfig, 'moderation'>,
    private readonly outbox: OutboxService,
  ) {}

  /** Whether `author` is still a new member (fewer accepted posts than MODERATION_NEW_MEMBER_POSTS). */
  isNewUser(author: Pick<Submission['author'], 'isAdmin' | 'threadCount' | 'replyCount'>): boolean {
    return !author.isAdmin && accepted(author) < this.config.moderation.newUserPosts;
  }

  /**
   * The signals that hold `submission` for review; empty: publish it. 400 for a new member's post with
   * more than MODERATION_NEW_MEMBER_MAX_LINKS links.
   */
  async screen(db: DataSource | EntityManager, submission: Submission): Promise<SpamSignal[]> {
    const { author } = submission;
    if (author.isAdmin) return [];
    const rules = this.config.moderation;
    const posts = accepted(author);
    const whole = [submission.title ?? '', submission.content].join('\n');
    if (this.isNewUser(author) && linksIn(whole).length > rules.newUserMaxLinks) {
      throw new BadRequestException(MODERATION_MESSAGES.tooManyLinks(rules.newUserMaxLinks));
    }
    const signals: SpamSignal[] = [];
    if (posts < rules.holdFirstPosts) signals.push('first-posts');

    const text = normalisedText(submission.content);
    const copies = text.length >= DUPLICATE_MIN_LENGTH;
    const hash = sha256(text);
    const young = isYoung(author);
    // Small reads whatever the traffic: one row per account that posted the text, and one per text a
    // young account posted (no lock: copies posted at the very same instant may each miss the other;
    // the next copy is held).
    const [row]: Array<{ others: number; recent: number; marked: boolean }> = await db.query(
      `SELECT
         (SELECT count(*)::int FROM post_fingerprints
          WHERE $5 AND hash = $1 AND author_id <> $2 AND created_at > now() - ${FINGERPRINT_TTL}) AS others,
         (SELECT COALESCE(sum(posts), 0)::int FROM post_fingerprints
          WHERE $6 AND author_id = $2 AND created_at > now() - ${BURST_WINDOW}) AS recent,
         EXISTS (SELECT 1 FROM spam_marks
                 WHERE (kind = 'address' AND value = $3) OR (kind = 'domain' AND value = $4)) AS marked`,
      [hash, author.id, addressMark(author.email ?? ''), domainMark(author.email ?? ''), copies, young],
    );
    // Counting this one.
    if (copies && row!.others + 1 >= rules.duplicateAccounts) signals.push('duplicate');
    // A first post (MODERATION_NEW_MEMBER_POSTS=0: nobody is new, nor checked so).
    if (posts === 0 && this.isNewUser(author) && mostlyLinks(submission.content)) signals.push('links');
    if (young && row!.recent + 1 >= rules.burstPosts) signals.push('burst');
    if (row!.marked) signals.push('known-spammer');
    return signals;
  }

  /**
   * Remembers the text's fingerprint of a post just made or held (an hour's worth is kept: older ones
   * are purged here). Outside the post's transaction (`db`), a failure is logged and the post stands: a
   * fingerprint lost only makes the next copy of the text count one account fewer.
   */
  async remember(db: DataSource | EntityManager, submission: Submission): Promise<void> {
    const { author } = submission;
    if (author.isAdmin) return;
    try {
      await db.query(
        `WITH stale AS (
           DELETE FROM post_fingerprints WHERE ctid IN (
             SELECT ctid FROM post_fingerprints WHERE created_at < now() - ${FINGERPRINT_TTL} LIMIT ${PURGE_BATCH})
         )
         INSERT INTO post_fingerprints AS f (hash, author_id) VALUES ($1, $2)
         ON CONFLICT (hash, author_id) DO UPDATE SET created_at = now(),
           posts = CASE WHEN f.created_at > now() - ${BURST_WINDOW} THEN f.posts + 1 ELSE 1 END
         -- Only a young account's posts are counted one by one (the burst signal); an older one's row
         -- is kept fresh every ten minutes, which the copies' hour needs, and is not rewritten per post.
         WHERE $3 OR f.created_at < now() - ${BURST_WINDOW}`,
        [sha256(normalisedText(submission.content)), author.id, isYoung(author)],
      );
    } catch (error) {
      if (!(db instanceof DataSource)) throw error;
      this.logger.warn(
        `A post's fingerprint was not kept: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  /**
   * After the post `targetId` was made from `submission`, in its transaction: for a post made while
   * AKISMET_KEY is set that others may read, writes its Akismet check to the outbox (the caller wakes
   * the relay after the commit).
   */
  async published(
    manager: EntityManager,
    submission: Submission & {
      targetType: 'paste' | 'reply';
      targetId: number | null;
      threadId: number | null;
      /** false: not sent to Akismet (a private paste, one that burns, a reply on a private one). */
      shared?: boolean;
    },
  ): Promise<void> {
    const { author } = submission;
    if (author.isAdmin) return;
    // What only its author (or one reader) ever sees is nobody's spam, and not ours to send away.
    if (!this.config.moderation.akismetKey || submission.targetId === null || submission.shared === false)
      return;
    const job: AkismetCheckJob = {
      targetType: submission.targetType,
      targetId: submission.targetId,
      threadId: submission.threadId ?? submission.targetId,
      authorId: author.id,
      authorName: author.username,
      authorEmail: author.email,
      title: submission.title,
      content: submission.content,
      ip: submission.client?.ip ?? null,
      userAgent: submission.client?.userAgent ?? null,
    };
    await this.outbox.add(manager, {
      queue: AKISMET_QUEUE,
      name: AKISMET_CHECK_JOB,
      data: job,
      jobId: `akismet-${submission.targetType}-${submission.targetId}`,
    });
  }

  /**
   * Whether `author`'s posts are screened: a member's first posts are the risky ones, so staff and
   * members both older than a day and past their first MODERATION_NEW_MEMBER_POSTS (and
   * MODERATION_HOLD_FIRST_POSTS) accepted posts are not (Akismet still checks theirs).
   */
  screens(
    author: Pick<Submission['author'], 'isAdmin' | 'createdAt' | 'threadCount' | 'replyCount'>,
  ): boolean {
    if (author.isAdmin) return false;
    const rules = this.config.moderation;
    return isYoung(author) || accepted(author) < Math.max(rules.newUserPosts, rules.holdFirstPosts);
  }

  /** Whether a post by `author` may have written an outbox row (the caller wakes the relay then). */
  queues(author: Pick<Submission['author'], 'isAdmin'>): boolean {
    return !author.isAdmin && !!this.config.moderation.akismetKey;
  }
}

/** An account younger than a day: the burst signal watches its posts. */
function isYoung(author: Pick<Submission['author'], 'createdAt'>): boolean {
  return Date.now() - (author.createdAt?.getTime() ?? 0) < DAY_MS;
}

function accepted(author: Pick<Submission['author'], 'threadCount' | 'replyCount'>): number {
  return (author.threadCount ?? 0) + (author.replyCount ?? 0);
}

import type { Visibility } from '@termpaste/contracts';
import { Check, Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';

/** What the search vectors read: a recording's printed text (the SQL function asciicast_text), else the content. */
const SEARCHED_TEXT = "CASE WHEN language = 'asciicast' THEN asciicast_text(content) ELSE content END";

/**
 * A paste (the table `threads`). Counters are kept by the writes that change them. Index keys are in
 * descending order where the migrations made them so (TypeORM's indexes carry no direction), and
 * `search` is stored in its row (STORAGE MAIN, which TypeORM does not describe).
 */

@Entity('threads')
@Check('threads_visibility_check', "visibility IN ('public', 'unlisted', 'private')")
@Check('threads_key_check', "(visibility = 'public' AND NOT burn_after_reading) OR key IS NOT NULL")
@Check('threads_key_shape_check', "key ~ '^[A-Za-z0-9_-]{22}$'")
@Index('threads_search_idx', ['search'], { type: 'gin' })
@Index('threads_code_words_idx', ['codeWords'], { type: 'gin' })
@Index('threads_recent_idx', ['createdAt', 'id'], { where: 'listed AND NOT is_pinned' })
@Index('threads_pinned_idx', ['createdAt'], { where: 'listed AND is_pinned' })
@Index('threads_featured_idx', ['createdAt'], { where: 'listed AND is_featured' })
@Index('threads_created_idx', ['createdAt', 'id'], { where: 'listed' })
@Index('threads_author_idx', ['authorId', 'createdAt'])
@Index('threads_key_key', ['key'], { unique: true, where: 'key IS NOT NULL' })
@Index('threads_expires_idx', ['expiresAt'], { where: 'expires_at IS NOT NULL' })
@Index('threads_deleted_idx', ['deletedAt', 'id'], { where: 'deleted_at IS NOT NULL' })
@Index('threads_language_idx', ['language', 'createdAt', 'id'], { where: 'listed' })
@Index('threads_forked_from_idx', ['forkedFromId', 'createdAt'], { where: 'forked_from_id IS NOT NULL' })
export class Paste {
  @PrimaryGeneratedColumn('identity', {
    generatedIdentity: 'ALWAYS',
    primaryKeyConstraintName: 'threads_pkey',
  })
  id!: number;

  @Column({ type: 'text' })
  title!: string;

  @Column({ type: 'text' })
  content!: string;

  /** Null once the author's account is deleted (shown as Anonymous). */
  @Column({ name: 'author_id', type: 'integer', nullable: true })
  @ForeignKey('users', { name: 'threads_author_id_fkey', onDelete: 'SET NULL' })
  authorId!: number | null;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'clock_timestamp()' })
  createdAt!: Date;

  @Column({ name: 'view_count', type: 'integer', default: 0 })
  viewCount!: number;

  @Column({ name: 'vote_score', type: 'integer', default: 0 })
  voteScore!: number;

  @Column({ name: 'reply_count', type: 'integer', default: 0 })
  replyCount!: number;

  @Column({ name: 'is_pinned', type: 'boolean', default: false })
  isPinned!: boolean;

  @Column({ name: 'is_locked', type: 'boolean', default: false })
  isLocked!: boolean;

  @Column({ name: 'is_featured', type: 'boolean', default: false })
  isFeatured!: boolean;

  @Column({ name: 'last_reply_at', type: 'timestamptz', nullable: true })
  lastReplyAt!: Date | null;

  @Column({ name: 'last_reply_author_id', type: 'integer', nullable: true })
  @ForeignKey('users', { name: 'threads_last_reply_author_id_fkey', onDelete: 'SET NULL' })
  lastReplyAuthorId!: number | null;

  /**
   * The full-text vector: the title above the content's first 100,000 characters (a recording's printed
   * text, not its JSON). Never read back.
   */
  @Column({
    type: 'tsvector',
    nullable: true,
    select: false,
    generatedType: 'STORED',
    asExpression:
      "setweight(to_tsvector('english', title), 'A') || " +
      `setweight(to_tsvector('english', left(${SEARCHED_TEXT}, 100000)), 'B')`,
  })
  search!: string | null;

  /** The words of code (identifiers cut at dots and brackets), for identifier search. Never read back. */
  @Column({
    name: 'code_words',
    type: 'tsvector',
    nullable: true,
    select: false,
    generatedType: 'STORED',
    asExpression: `to_tsvector('simple', regexp_replace(left(title || ' ' || ${SEARCHED_TEXT}, 100000), '[^[:alnum:]]+', ' ', 'g'))`,
  })
  codeWords!: string | null;

  /** highlight.js's name of the content's language; null: Markdown. */
  @Column({ type: 'text', nullable: true })
  language!: string | null;

  /** Its tags' names, in its author's order (paste_tags holds the same, for paging a tag's pastes). */
  @Column({ type: 'text', array: true, default: () => "'{}'" })
  tags!: string[];

  @Column({ name: 'edited_at', type: 'timestamptz', nullable: true })
  editedAt!: Date | null;

  @Column({ type: 'text', default: 'public' })
  visibility!: Visibility;

  /** The unguessable link of a paste that is not public or burns after reading. */
  @Column({ type: 'text', nullable: true })
  key!: string | null;

  @Column({ name: 'expires_at', type: 'timestamptz', nullable: true })
  expiresAt!: Date | null;

  @Column({ name: 'burn_after_reading', type: 'boolean', default: false })
  burnAfterReading!: boolean;

  /** In the trash since then; null: not deleted. */
  @Column({ name: 'deleted_at', type: 'timestamptz', nullable: true })
  deletedAt!: Date | null;

  @Column({ name: 'deleted_by', type: 'integer', nullable: true })
  @ForeignKey('users', { name: 'threads_deleted_by_fkey', onDelete: 'SET NULL' })
  deletedBy!: number | null;

  /** The original of a fork; null once that is removed for good (`isFork` still says it was one). */
  @Column({ name: 'forked_from_id', type: 'integer', nullable: true })
  @ForeignKey('threads', { name: 'threads_forked_from_id_fkey', onDelete: 'SET NULL' })
  forkedFromId!: number | null;

  @Column({ name: 'is_fork', type: 'boolean', default: false })
  isFork!: boolean;

  /** Hidden pending review since then. */
  @Column({ name: 'hidden_at', type: 'timestamptz', nullable: true })
  hiddenAt!: Date | null;

  /** What every list filters on: public, not burning, not deleted, not hidden. */
  @Column({
    type: 'boolean',
    nullable: true,
    generatedType: 'STORED',
    asExpression:
      "visibility = 'public' AND NOT burn_after_reading AND deleted_at IS NULL AND hidden_at IS NULL",
  })
  listed!: boolean;
}

import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** A paste (SPEC §3 Thread). Counters are kept on write; `search` (generated) is not mapped. */
@Entity('threads')
export class Thread {
  @PrimaryGeneratedColumn('identity', { generatedIdentity: 'ALWAYS' })
  id!: number;

  @Column({ type: 'text' })
  title!: string;

  @Column({ type: 'text' })
  content!: string;

  /** Null once the author is deleted: shown as 'Anonymous'. */
  @Column({ name: 'author_id', type: 'integer', nullable: true })
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
  lastReplyAuthorId!: number | null;
}

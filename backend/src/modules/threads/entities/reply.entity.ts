import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** A reply to a paste (SPEC §3 Reply); parentId makes it a reply to another reply of the same paste. */
@Entity('replies')
export class Reply {
  @PrimaryGeneratedColumn('identity', { generatedIdentity: 'ALWAYS' })
  id!: number;

  @Column({ name: 'thread_id', type: 'integer' })
  threadId!: number;

  @Column({ name: 'parent_id', type: 'integer', nullable: true })
  parentId!: number | null;

  @Column({ name: 'author_id', type: 'integer', nullable: true })
  authorId!: number | null;

  @Column({ type: 'text' })
  content!: string;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'clock_timestamp()' })
  createdAt!: Date;

  @Column({ name: 'vote_score', type: 'integer', default: 0 })
  voteScore!: number;
}

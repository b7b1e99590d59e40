import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** One member's vote (1 or -1) on exactly one paste or reply (SPEC §3 Vote). */
@Entity('votes')
export class Vote {
  @PrimaryGeneratedColumn('identity', { generatedIdentity: 'ALWAYS' })
  id!: number;

  @Column({ name: 'user_id', type: 'integer' })
  userId!: number;

  @Column({ name: 'thread_id', type: 'integer', nullable: true })
  threadId!: number | null;

  @Column({ name: 'reply_id', type: 'integer', nullable: true })
  replyId!: number | null;

  @Column({ type: 'smallint' })
  value!: number;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;
}

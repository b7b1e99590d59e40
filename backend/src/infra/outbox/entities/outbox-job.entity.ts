import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/**
 * A job to queue, written in the transaction of the write it follows (the table `outbox`). The table's
 * autovacuum settings are the migration's (TypeORM does not describe storage parameters).
 */
@Entity('outbox')
export class OutboxJob {
  /** A bigint, which pg returns as a string. */
  @PrimaryGeneratedColumn('identity', {
    type: 'bigint',
    generatedIdentity: 'ALWAYS',
    primaryKeyConstraintName: 'outbox_pkey',
  })
  id!: string;

  @Column({ type: 'text' })
  queue!: string;

  @Column({ type: 'text' })
  name!: string;

  @Column({ type: 'jsonb' })
  data!: unknown;

  @Column({ name: 'job_id', type: 'text', nullable: true })
  jobId!: string | null;

  /** The trace of the write it follows (W3C traceparent), with tracing on: its job's spans join it. */
  @Column({ type: 'text', nullable: true })
  traceparent!: string | null;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;
}

/**
 * The transactional outbox: a job is a row written in its write's transaction, so a crash before enqueue
 * loses nothing and a rollback leaves no job about something that does not exist.
 */

import { type Row, selectColumns } from '../database/columns.js';
import { OutboxJob as OutboxJobEntity } from './entities/outbox-job.entity.js';

/** A job to put on a queue once the transaction that writes it commits. */
export interface OutboxJob<T = unknown> {
  queue: string;
  name: string;
  /** Stored as jsonb: the processor reads it back as JSON (no Date, no class instance). */
  data: T;
  /**
   * The queue's jobId (JobOptions.jobId's rules): a resend after a relay crash adds no second job while
   * the queue still keeps the first. Unset: `outbox-<row id>`.
   */
  jobId?: string;
}

/** A job written by SQL inside the write's own statement (see `outboxInsertSql`). */
export interface OutboxJobSql {
  queue: string;
  name: string;
  /** SQL over the source's columns giving the job's data, as json or jsonb. */
  data: string;
  /** SQL over the source's columns giving the job id, as text. */
  jobId: string;
}

const ROW_COLUMNS = ['id', 'queue', 'name', 'data', 'jobId'] as const;

/** The columns of an outbox row the relay reads, over `o`. */
export const OUTBOX_ROW_SELECT = selectColumns(OutboxJobEntity, 'o', ROW_COLUMNS);

/** A row of `outbox` as the relay reads it (`id` is a bigint: a string). */
export type OutboxRow = Row<OutboxJobEntity, (typeof ROW_COLUMNS)[number]>;

/** The jobId a row is queued under: its own, else one derived from the row. */
export function jobIdOf(row: Pick<OutboxRow, 'id' | 'jobId'>): string {
  return row.jobId ?? `outbox-${row.id}`;
}

/** A queue or job name as an SQL literal; only our own constants come here. */
function literal(name: string): string {
  if (!/^[A-Za-z0-9_.-]+$/.test(name)) throw new Error(`Not a queue or job name: "${name}"`);
  return `'${name}'`;
}

/**
 * A CTE writing one outbox row per row of `from`, so the job commits with the write at no extra round
 * trip. `job.data` and `job.jobId` are SQL over `from`'s columns.
 */
export function outboxInsertSql(from: string, job: OutboxJobSql): string {
  return `INSERT INTO outbox (queue, name, data, job_id)
    SELECT ${literal(job.queue)}, ${literal(job.name)}, (${job.data})::jsonb, ${job.jobId} FROM ${from}`;
}

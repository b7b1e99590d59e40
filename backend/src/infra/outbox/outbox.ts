import { locking, type LockingSql } from '../database/lock-order.js';
import { sqlName } from '../database/sql-operands.js';

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
  /** The job's data: an object of these keys, each the value of the source's column named. */
  data: Readonly<Record<string, string>>;
  /** The job id: this prefix, then the value of the source's column named. */
  jobId: { prefix: string; column: string };
  /**
   * The statement's parameter holding the trace to carry (`$7`), given `traceparent()`: null with
   * tracing off.
   */
  traceparent: string;
}

const ROW_COLUMNS = ['id', 'queue', 'name', 'data', 'jobId', 'traceparent'] as const;

/** The columns of an outbox row the relay reads, over `o`. */
export const OUTBOX_ROW_SELECT = selectColumns(OutboxJobEntity, 'o', ROW_COLUMNS);

/** A row of `outbox` as the relay reads it (`id` is a bigint: a string). */
export type OutboxRow = Row<OutboxJobEntity, (typeof ROW_COLUMNS)[number]>;

/** The jobId a row is queued under: its own, else one derived from the row. */
export function jobIdOf(row: Pick<OutboxRow, 'id' | 'jobId'>): string {
  return row.jobId ?? `outbox-${row.id}`;
}

/** A queue or job name (or a data key) as an SQL literal; only our own constants come here. */
function literal(name: string): string {
  if (!/^[A-Za-z0-9_.-]+$/.test(name)) throw new Error(`Not a queue or job name: "${name}"`);
  return `'${name}'`;
}

/**
 * A CTE writing one outbox row per row of `from` (a CTE of the statement), so the job commits with the
 * write at no extra round trip. Locks no row the lock order knows.
 */
export function outboxInsertSql(from: string, job: OutboxJobSql): LockingSql {
  const data = Object.entries(job.data)
    .map(([key, column]) => `${literal(key)}, ${sqlName(column)}`)
    .join(', ');
  const jobId = `${literal(job.jobId.prefix)} || (${sqlName(job.jobId.column)})::text`;
  if (!/^\$[1-9][0-9]*$/.test(job.traceparent)) throw new Error(`Not a parameter: "${job.traceparent}"`);
  return locking(`INSERT INTO outbox (queue, name, data, job_id, traceparent)
    SELECT ${literal(job.queue)}, ${literal(job.name)}, jsonb_build_object(${data}), ${jobId}, ${job.traceparent}::text
    FROM ${sqlName(from)}`);
}

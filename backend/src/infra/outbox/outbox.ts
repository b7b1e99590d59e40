/**
 * The transactional outbox: a job is a row written in its write's transaction, so a crash before enqueue
 * loses nothing and a rollback leaves no job about something that does not exist.
 */

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

/** A row of `outbox` as the relay reads it (`id` is a bigint: a string). */
export interface OutboxRow {
  id: string;
  queue: string;
  name: string;
  data: unknown;
  job_id: string | null;
}

/** The jobId a row is queued under: its own, else one derived from the row. */
export function jobIdOf(row: Pick<OutboxRow, 'id' | 'job_id'>): string {
  return row.job_id ?? `outbox-${row.id}`;
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

import type { Metrics, QueueDepth, Reading } from '../metrics/metrics.js';
import { QUEUE_STATES } from '../metrics/metrics.js';

/**
 * One job attempt's time and outcome (`failure` when it threw: `final` when no attempt is left), as
 * termpaste_queue_job_duration_seconds and termpaste_queue_job_failures_total count them.
 */
export function recordJob(
  metrics: Metrics | undefined,
  queue: string,
  startedAt: number,
  failure?: { final: boolean },
): void {
  if (!metrics) return;
  const seconds = (performance.now() - startedAt) / 1000;
  metrics.jobSeconds.observe({ queue, outcome: failure ? 'failed' : 'completed' }, seconds);
  if (failure) metrics.jobFailures.inc({ queue, final: String(failure.final) });
}

/** Each queue's depth as termpaste_queue_jobs' values. */
export function depthReading(depths: ReadonlyMap<string, QueueDepth>): Reading<'queue' | 'state'> {
  return [...depths].flatMap(([queue, depth]) =>
    QUEUE_STATES.map((state) => [{ queue, state }, depth[state]] as const),
  );
}

export const QUEUE_JOBS_FAMILY = 'termpaste_queue_jobs';

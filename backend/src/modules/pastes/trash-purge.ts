import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { type QueueJob, QueueProcessor, QueuePort } from '../../infra/queue/queue.port.js';
import {
  IN_TRASH,
  TRASH_PURGE_INTERVAL_MS,
  TRASH_PURGE_JOB,
  TRASH_PURGE_SCHEDULE,
  TRASH_QUEUE,
} from './trash.queue.js';

/** A deleted post that has left the trash: deleted more than TRASH_DAYS days ago. */
const PAST_TRASH = (column: string) => `${column} IS NOT NULL AND NOT (${IN_TRASH(column)})`;

/**
 * Removes posts deleted more than TRASH_DAYS ago; a reply others still stand under keeps its row as the
 * placeholder, text and versions gone. A repeatable job, safe to run twice; a failed purge is not
 * retried, the next one takes what it left.
 */
@Injectable()
@QueueProcessor(TRASH_QUEUE)
export class TrashPurger implements QueueProcessor, OnModuleInit {
  private readonly logger = new Logger('Trash');

  constructor(
    private readonly dataSource: DataSource,
    private readonly queue: QueuePort,
  ) {}

  onModuleInit(): void {
    this.queue.repeat({
      queue: TRASH_QUEUE,
      id: TRASH_PURGE_SCHEDULE,
      name: TRASH_PURGE_JOB,
      data: {},
      everyMs: TRASH_PURGE_INTERVAL_MS,
      attempts: 1,
    });
  }

  async process(job: QueueJob): Promise<void> {
    if (job.name !== TRASH_PURGE_JOB) throw new Error(`Unknown trash job "${job.name}"`);
    await this.purge();
  }

  /** Removes what left the trash; resolves with how many pastes and replies went, and replies emptied. */
  async purge(): Promise<{ pastes: number; replies: number; emptied: number }> {
    return this.dataSource.transaction(async (manager) => {
      const pastes: unknown[] = await manager.query(
        `WITH gone AS (DELETE FROM threads WHERE ${PAST_TRASH('deleted_at')} RETURNING id) SELECT id FROM gone`,
      );
      // The replies that stay (alive, or still in the trash) keep every reply above them.
      const [counts]: Array<{ replies: number; emptied: number }> = await manager.query(
        `WITH RECURSIVE old AS (
           SELECT id, thread_id FROM replies WHERE ${PAST_TRASH('deleted_at')}
         ), kept AS (
           SELECT r.parent_id AS id FROM replies r
           WHERE r.thread_id IN (SELECT thread_id FROM old) AND r.parent_id IS NOT NULL
             AND NOT (${PAST_TRASH('r.deleted_at')})
           UNION
           SELECT p.parent_id FROM replies p JOIN kept ON p.id = kept.id WHERE p.parent_id IS NOT NULL
         ), gone AS (
           DELETE FROM replies WHERE id IN (SELECT id FROM old) AND id NOT IN (SELECT id FROM kept)
           RETURNING id
         ), emptied AS (
           UPDATE replies SET content = ''
           WHERE id IN (SELECT id FROM old) AND id IN (SELECT id FROM kept) AND content <> ''
           RETURNING id
         ), versions AS (
           DELETE FROM reply_revisions WHERE reply_id IN (SELECT id FROM emptied)
         )
         SELECT (SELECT count(*) FROM gone)::int AS replies, (SELECT count(*) FROM emptied)::int AS emptied`,
      );
      const purged = { pastes: pastes.length, replies: counts!.replies, emptied: counts!.emptied };
      if (purged.pastes + purged.replies + purged.emptied > 0) {
        this.logger.log(
          `Purged ${purged.pastes} paste(s) and ${purged.replies} reply(ies) from the trash` +
            (purged.emptied > 0 ? `; emptied ${purged.emptied} placeholder(s)` : ''),
        );
      }
      return purged;
    });
  }
}

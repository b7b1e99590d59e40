import { TRASH_DAYS } from '@termpaste/contracts';

/** The trash queue: its one job removes for good what lay in the trash TRASH_DAYS days, every interval. */
export const TRASH_QUEUE = 'trash';
export const TRASH_PURGE_JOB = 'purge';
/** The id of the purge's schedule (a BullMQ job scheduler with Redis). */
export const TRASH_PURGE_SCHEDULE = 'trash-purge';
/** How often the purge runs, once across every process that runs jobs. */
export const TRASH_PURGE_INTERVAL_MS = 60 * 60 * 1000;

/** A post deleted this recently is in the trash (staff may restore it); older ones are the purge's. */
export const IN_TRASH = (column: string) => `${column} > now() - make_interval(days => ${TRASH_DAYS})`;

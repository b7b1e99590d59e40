/** The account queue: building a member's data export, and the repeatable sweep of expired archives. */
export const ACCOUNT_QUEUE = 'account';
export const EXPORT_BUILD_JOB = 'build-export';
export const EXPORTS_SWEEP_JOB = 'sweep-exports';
/** The id of the sweep's schedule (a BullMQ job scheduler with Redis). */
export const EXPORTS_SWEEP_SCHEDULE = 'exports-sweep';
/** How often expired archives are removed, once across every process that runs jobs. */
export const EXPORTS_SWEEP_INTERVAL_MS = 15 * 60 * 1000;

/** The build job's data: the export's row (the rest is read when it runs). */
export interface ExportBuildJob {
  exportId: number;
}

// What every part of the smoke run shares: its clock, its log line and its fixed settings.

/** The whole run, start-up included, must end within this. */
export const DEADLINE_MS = 4 * 60_000;
export const STARTED = Date.now();
export const SESSION_SECRET = 'smoke-run-session-secret-0123456789abcdef';
export const PASSWORD = 'correct horse battery staple';
/** Every backend process's METRICS_TOKEN: /metrics answers it only. */
export const METRICS_TOKEN = 'smoke-run-metrics-token-0123456789';
/** The workers' job lock and stalled-check period (JOB_LOCK_SECONDS): the kill step waits about twice it. */
export const JOB_LOCK_SECONDS = 5;
/** The remotes the web service serves (the admin remote has its own origin). */
export const WEB_REMOTES = ['forum', 'messaging', 'settings'];

export const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
export const elapsed = () => `${((Date.now() - STARTED) / 1000).toFixed(1)}s`;
export const log = (line) => console.log(`[test:prod ${elapsed()}] ${line}`);

/** The live socket's default heartbeat: a ping every 30 seconds. */
export const LIVE_HEARTBEAT_MS_DEFAULT = 30_000;

/** Paste views are stored every 5 seconds unless VIEW_FLUSH_SECONDS says otherwise. */
export const VIEW_FLUSH_SECONDS_DEFAULT = 5;
export const VIEW_FLUSH_SECONDS_MAX = 300;

/**
 * EXPIRY_TIME_SCALE, for tests and demos: a paste's expiry choices pass this many times faster (60: `10m`
 * lasts 10 seconds). 1 (the default) in production.
 */
export const EXPIRY_TIME_SCALE_DEFAULT = 1;
export const EXPIRY_TIME_SCALE_MAX = 100_000;

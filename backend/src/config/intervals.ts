/** The live socket's default heartbeat: a ping every 30 seconds. */
export const LIVE_HEARTBEAT_MS_DEFAULT = 30_000;

/** Paste views are stored every 5 seconds unless VIEW_FLUSH_SECONDS says otherwise. */
export const VIEW_FLUSH_SECONDS_DEFAULT = 5;
export const VIEW_FLUSH_SECONDS_MAX = 300;

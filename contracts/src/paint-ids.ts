// The ids of what a painted page carries (first-paint.ts), apart: no import, so the ui can read them
// without evaluating any of the contracts' schemas (zod must be configured before the first is built).

/** The element the server's painted page is in: the app removes it when its page mounts. */
export const PAINT_ID = 'tp-paint';
/** A JSON script with the data the app would fetch first (`currentUser`), so it does not. */
export const PAINT_DATA_ID = 'tp-data';
/** A JSON script with remotes.json's content, so the app does not fetch it. */
export const REMOTES_DATA_ID = 'tp-remotes';
/**
 * A JSON script of a member's painted page (never cached in front): the API's answers the server drew it
 * from, each with the app's query key, so the app starts with them rather than asking again first.
 */
export const PAINT_QUERIES_ID = 'tp-queries';

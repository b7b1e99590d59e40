/*
 * Read-only fragments for the away mails (the mailings module reads notifications, never writes them).
 * Arguments are SQL expressions.
 */

/** The unread notifications, as `alias`, to start a statement from (notifications_unread_idx). */
export const unreadNoticesFrom = (alias: string) =>
  `(SELECT * FROM notifications WHERE NOT is_read) ${alias}`;

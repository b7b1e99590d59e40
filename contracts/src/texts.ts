/** User-facing texts that more than one part of the product shows. */
export const PRODUCT_NAME_DEFAULT = 'Termpaste';

export const TEXTS = {
  notFound: 'Did you forget to add the page to the router?',
  pasteNotFound: 'Thread not found [404]',
  userNotFound: 'User not found [404]',
  accessDenied: 'ACCESS DENIED [403]',
  adminRequired: 'Admin privileges required',
  unauthorized: 'Unauthorized',
  loggedOut: 'You are logged out. Logging in again...',
  validationTitle: 'Validation Error',
  validationText: 'Please fill in all fields',
  moduleOffline: 'MODULE OFFLINE',
  landingTagline: 'Share your pastes with the underground.',
} as const;

/** Errors any route may answer, whatever it does (the toasts show them as the server's message). */
export const SERVICE_MESSAGES = {
  /** 503, with Retry-After, while the database cannot be reached (down, restarting, recovering). */
  databaseUnavailable: 'The database is unavailable; try again in a moment',
} as const;

/**
 * The note over member-written Markdown shown as plain text (@termpaste/ui's Markdown): its parse ran out
 * of time, the page cannot parse it off its main thread, or the parser failed on it.
 */
export const MARKDOWN_TEXTS = {
  plainSlow: 'This text took too long to format, so it is shown as plain text.',
  plainUnavailable: 'This text is too long to format on this page, so it is shown as plain text.',
  plainFailed: 'This text could not be formatted, so it is shown as plain text.',
} as const;

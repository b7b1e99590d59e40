/** Business constants and limits, shared by the backend, the frontends and the tests. */
export const LIMITS = {
  passwordMin: 8,
  /** Beyond the spec: an upper bound keeps hashing cheap and bodies small. */
  passwordMax: 256,
  resetLinkExpiryMs: 60 * 60 * 1000,
  titleMax: 200,
  subjectMax: 200,
  chatMessageMax: 500,
  avatarMaxFiles: 1,
  avatarMaxBytes: 10_485_760,
} as const;

/** A thread is hot when replyCount is above 20 or viewCount above 100. */
export const HOT_PASTE = { replyCountOver: 20, viewCountOver: 100 } as const;

export const VOTE_VALUES = [1, -1] as const;
export type VoteValue = (typeof VOTE_VALUES)[number];

/**
 * Reputation earned per write, and per vote received on one's paste or reply; each capped a day
 * (reputation.ts).
 */
export const REPUTATION = { thread: 5, reply: 2, chatMessage: 1, voteReceived: 1 } as const;

export const SIDEBAR = {
  cookieName: 'sidebar_state',
  cookieMaxAgeSeconds: 604_800,
  width: '16rem',
  widthMobile: '18rem',
  widthIcon: '3rem',
  mobileBreakpointPx: 768,
  shortcutKey: 'b',
} as const;

/** Redirects after an unauthorized error and after a thread is deleted. */
export const REDIRECT_DELAY_MS = 500;

export const LAYOUT = {
  pasteListSkeletonRows: 10,
  chatPopoverPx: 600,
  inboxHeightPx: 600,
  chatPaneHeightPx: 500,
  chatTextareaMinHeightPx: 80,
} as const;

export const TOASTS = {
  limit: 1,
  durationMs: 5000,
  swipeDirection: 'right',
  swipeThresholdPx: 50,
  hotkey: 'F8',
} as const;

export const TOOLTIPS = { delayMs: 700, skipDelayMs: 300 } as const;

export const LANDING = { typeIntervalMs: 100, cursorBlinkMs: 500 } as const;

export const UPLOADS = {
  multipartThresholdBytes: 100 * 1024 * 1024,
  minPartBytes: 5 * 1024 * 1024,
  maxParts: 10_000,
  concurrency: 6,
  retryDelaysMs: [0, 1000, 3000, 5000],
  presignedUrlDefaultExpirySeconds: 604_800,
  retryableStatuses: [408, 409, 418, 423, 429],
  /** 5xx are retryable except these. */
  nonRetryableServerStatuses: [501, 505],
} as const;

/** Whether an upload request that failed with `status` should be tried again. */
export function isRetryableUploadStatus(status: number): boolean {
  if ((UPLOADS.retryableStatuses as readonly number[]).includes(status)) return true;
  return (
    status >= 500 &&
    status < 600 &&
    !(UPLOADS.nonRetryableServerStatuses as readonly number[]).includes(status)
  );
}

/** Data fetching defaults: no interval refetch, no refetch on focus, never stale, no retries. */
export const QUERY_DEFAULTS = {
  refetchInterval: false,
  refetchOnWindowFocus: false,
  staleTime: Infinity,
  retry: false,
} as const;

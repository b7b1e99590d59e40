/**
 * The spam signals' settings that hold nothing a test posts, as RATE_LIMITS=off lifts the limits: nobody
 * is a new member (no link cap, no first-post check, no new members' limit), and copies and bursts are
 * held only far beyond what a test posts. Suites about the signals set their own (spam.spec.ts).
 */
export const SPAM_SIGNALS_OFF = {
  MODERATION_NEW_MEMBER_POSTS: '0',
  MODERATION_DUPLICATE_ACCOUNTS: '1000',
  MODERATION_BURST_POSTS: '10000',
} as const;

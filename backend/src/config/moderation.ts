import { FLAG_HIDE_THRESHOLD_DEFAULT } from '@termpaste/contracts';
import type { EnvVars } from './env.js';

/** The moderation defaults an operator may change (docs/moderation.md). */
export const MODERATION_DEFAULTS = {
  /** Flags a member may send an hour. */
  flagsPerHour: 20,
  /** Score (members' flags, weighted by their record) at which an item is hidden pending review. */
  flagHideThreshold: FLAG_HIDE_THRESHOLD_DEFAULT,
  /** A new member's first posts held for approval (0: none). */
  holdFirstPosts: 0,
  /** Posts accepted before a member is no longer new (their links and limits loosen). */
  newUserPosts: 3,
  /** Links a new member's post may carry at most. */
  newUserMaxLinks: 3,
  /** Pastes and replies together a new member may post an hour. */
  newUserPostsPerHour: 10,
  /** Accounts posting the same text within an hour, from which it is held. */
  duplicateAccounts: 3,
  /** Posts in 10 minutes from an account younger than a day, from which they are held. */
  burstPosts: 5,
  /** Where the Akismet-compatible service answers (its `/1.1/comment-check`). */
  akismetUrl: 'https://rest.akismet.com',
  /** For tests and demos only: how many times faster suspensions and silences pass. */
  timeScale: 1,
} as const;

export const MODERATION_TIME_SCALE_MAX = 1_000_000;
export const FLAG_HIDE_THRESHOLD_MAX = 1000;

/** Moderation's configuration: MODERATION_* and AKISMET_* (each falls back to MODERATION_DEFAULTS). */
export interface ModerationConfig {
  flagsPerHour: number;
  flagHideThreshold: number;
  holdFirstPosts: number;
  newUserPosts: number;
  newUserMaxLinks: number;
  newUserPostsPerHour: number;
  duplicateAccounts: number;
  burstPosts: number;
  /** AKISMET_KEY: the check runs (a job after each post) only when set. */
  akismetKey: string | undefined;
  /** AKISMET_URL, without a trailing slash. */
  akismetUrl: string;
  timeScale: number;
}

export function moderationConfig(vars: EnvVars): ModerationConfig {
  const d = MODERATION_DEFAULTS;
  return {
    flagsPerHour: vars.RATE_LIMIT_FLAGS_PER_HOUR ?? d.flagsPerHour,
    flagHideThreshold: vars.MODERATION_FLAG_HIDE_THRESHOLD ?? d.flagHideThreshold,
    holdFirstPosts: vars.MODERATION_HOLD_FIRST_POSTS ?? d.holdFirstPosts,
    newUserPosts: vars.MODERATION_NEW_MEMBER_POSTS ?? d.newUserPosts,
    newUserMaxLinks: vars.MODERATION_NEW_MEMBER_MAX_LINKS ?? d.newUserMaxLinks,
    newUserPostsPerHour: vars.RATE_LIMIT_NEW_MEMBER_POSTS_PER_HOUR ?? d.newUserPostsPerHour,
    duplicateAccounts: vars.MODERATION_DUPLICATE_ACCOUNTS ?? d.duplicateAccounts,
    burstPosts: vars.MODERATION_BURST_POSTS ?? d.burstPosts,
    akismetKey: vars.AKISMET_KEY,
    akismetUrl: (vars.AKISMET_URL ?? d.akismetUrl).replace(/\/+$/, ''),
    timeScale: vars.MODERATION_TIME_SCALE ?? d.timeScale,
  };
}

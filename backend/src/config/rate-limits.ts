import {
  CHAT_RATE_LIMIT_DEFAULTS,
  POST_RATE_LIMIT_DEFAULTS,
  PRIVATE_MESSAGE_RATE_LIMIT_DEFAULTS,
  PROFILE_SAVE_RATE_LIMIT_DEFAULTS,
  TOKEN_REQUESTS_PER_MINUTE_DEFAULT,
  UPLOAD_RATE_LIMIT_DEFAULT_PER_HOUR,
  VERIFY_RESEND_RATE_LIMIT_DEFAULTS,
} from '@termpaste/contracts';
import type { EnvVars } from './env.js';

/** Attempts allowed per client address, and per account or e-mail where the request names one. */
export interface RateLimitConfig {
  enabled: boolean;
  /** Per address. */
  loginPerMinute: number;
  /** Per address. */
  loginPerHour: number;
  /** Per account from every address together; past it each attempt on the account waits loginSlowdownMs. */
  loginPerAccountPerHour: number;
  loginSlowdownMs: number;
  /** Per address. */
  registerPerHour: number;
  /** Per address. */
  forgotPasswordPerHour: number;
  /** Per e-mail address from one client address. */
  forgotPasswordPerEmailPerHour: number;
  /** Per e-mail address from every client address: at most one request in this many seconds. */
  forgotPasswordEmailIntervalSeconds: number;
  /** Per address. */
  resetPasswordPerHour: number;
  /** Password changes (`POST /api/change-password`) an hour, per member and per address. */
  changePasswordPerHour: number;
  /** Chat messages per member in `chatWindowSeconds` (both chat POST routes together). */
  chatMessages: number;
  chatWindowSeconds: number;
  /** Private messages per member (support requests included), a minute and an hour. */
  messagesPerMinute: number;
  messagesPerHour: number;
  /** Upload addresses (`POST /api/objects/upload`) per member an hour. */
  uploadsPerHour: number;
  /** Pastes, replies and votes per member, a minute and an hour. */
  pastesPerMinute: number;
  pastesPerHour: number;
  repliesPerMinute: number;
  repliesPerHour: number;
  votesPerMinute: number;
  votesPerHour: number;
  /** Members @mentioned per member an hour, in pastes and replies together. */
  mentionsPerHour: number;
  /** Edits (`PATCH` of a paste or a reply, together) an hour, per member and per address. */
  editsPerHour: number;
  editsPerAddressPerHour: number;
  /** Profile saves (`PUT /api/user/profile`) an hour, per member and per address. */
  profileSavesPerHour: number;
  profileSavesPerAddressPerHour: number;
  /** Re-sent verification links per member an hour. */
  verifyEmailPerHour: number;
  /** Re-sent verification links per client address an hour. */
  verifyEmailPerAddressPerHour: number;
  /** Requests per personal access token a minute (reads and writes together). */
  tokenRequestsPerMinute: number;
  /** Searches (`GET /api/threads/search`) per client address a minute. */
  searchPerMinute: number;
}

/** Rate limit defaults, close to Discourse's. */
export const RATE_LIMIT_DEFAULTS: Omit<RateLimitConfig, 'enabled'> = {
  loginPerMinute: 6,
  loginPerHour: 30,
  loginPerAccountPerHour: 30,
  loginSlowdownMs: 2000,
  registerPerHour: 5,
  forgotPasswordPerHour: 5,
  forgotPasswordPerEmailPerHour: 3,
  forgotPasswordEmailIntervalSeconds: 300,
  resetPasswordPerHour: 10,
  changePasswordPerHour: 10,
  chatMessages: CHAT_RATE_LIMIT_DEFAULTS.messages,
  chatWindowSeconds: CHAT_RATE_LIMIT_DEFAULTS.windowSeconds,
  messagesPerMinute: PRIVATE_MESSAGE_RATE_LIMIT_DEFAULTS.perMinute,
  messagesPerHour: PRIVATE_MESSAGE_RATE_LIMIT_DEFAULTS.perHour,
  uploadsPerHour: UPLOAD_RATE_LIMIT_DEFAULT_PER_HOUR,
  ...POST_RATE_LIMIT_DEFAULTS,
  profileSavesPerHour: PROFILE_SAVE_RATE_LIMIT_DEFAULTS.perHour,
  profileSavesPerAddressPerHour: PROFILE_SAVE_RATE_LIMIT_DEFAULTS.perAddressPerHour,
  verifyEmailPerHour: VERIFY_RESEND_RATE_LIMIT_DEFAULTS.perUserPerHour,
  verifyEmailPerAddressPerHour: VERIFY_RESEND_RATE_LIMIT_DEFAULTS.perAddressPerHour,
  tokenRequestsPerMinute: TOKEN_REQUESTS_PER_MINUTE_DEFAULT,
  searchPerMinute: 30,
};

/** RATE_LIMITS and each RATE_LIMIT_*, a default for each one unset. */
export function rateLimitConfig(vars: EnvVars): RateLimitConfig {
  return {
    enabled: vars.RATE_LIMITS !== 'off',
    loginPerMinute: vars.RATE_LIMIT_LOGIN_PER_MINUTE ?? RATE_LIMIT_DEFAULTS.loginPerMinute,
    loginPerHour: vars.RATE_LIMIT_LOGIN_PER_HOUR ?? RATE_LIMIT_DEFAULTS.loginPerHour,
    loginPerAccountPerHour:
      vars.RATE_LIMIT_LOGIN_PER_ACCOUNT_PER_HOUR ?? RATE_LIMIT_DEFAULTS.loginPerAccountPerHour,
    loginSlowdownMs: vars.RATE_LIMIT_LOGIN_SLOWDOWN_MS ?? RATE_LIMIT_DEFAULTS.loginSlowdownMs,
    registerPerHour: vars.RATE_LIMIT_REGISTER_PER_HOUR ?? RATE_LIMIT_DEFAULTS.registerPerHour,
    forgotPasswordPerHour:
      vars.RATE_LIMIT_FORGOT_PASSWORD_PER_HOUR ?? RATE_LIMIT_DEFAULTS.forgotPasswordPerHour,
    forgotPasswordPerEmailPerHour:
      vars.RATE_LIMIT_FORGOT_PASSWORD_PER_EMAIL_PER_HOUR ?? RATE_LIMIT_DEFAULTS.forgotPasswordPerEmailPerHour,
    forgotPasswordEmailIntervalSeconds:
      vars.RATE_LIMIT_FORGOT_PASSWORD_INTERVAL_SECONDS ??
      RATE_LIMIT_DEFAULTS.forgotPasswordEmailIntervalSeconds,
    resetPasswordPerHour: vars.RATE_LIMIT_RESET_PASSWORD_PER_HOUR ?? RATE_LIMIT_DEFAULTS.resetPasswordPerHour,
    changePasswordPerHour:
      vars.RATE_LIMIT_CHANGE_PASSWORD_PER_HOUR ?? RATE_LIMIT_DEFAULTS.changePasswordPerHour,
    chatMessages: vars.RATE_LIMIT_CHAT_MESSAGES ?? RATE_LIMIT_DEFAULTS.chatMessages,
    chatWindowSeconds: vars.RATE_LIMIT_CHAT_WINDOW_SECONDS ?? RATE_LIMIT_DEFAULTS.chatWindowSeconds,
    messagesPerMinute: vars.RATE_LIMIT_MESSAGES_PER_MINUTE ?? RATE_LIMIT_DEFAULTS.messagesPerMinute,
    messagesPerHour: vars.RATE_LIMIT_MESSAGES_PER_HOUR ?? RATE_LIMIT_DEFAULTS.messagesPerHour,
    uploadsPerHour: vars.RATE_LIMIT_UPLOADS_PER_HOUR ?? RATE_LIMIT_DEFAULTS.uploadsPerHour,
    pastesPerMinute: vars.RATE_LIMIT_PASTES_PER_MINUTE ?? RATE_LIMIT_DEFAULTS.pastesPerMinute,
    pastesPerHour: vars.RATE_LIMIT_PASTES_PER_HOUR ?? RATE_LIMIT_DEFAULTS.pastesPerHour,
    repliesPerMinute: vars.RATE_LIMIT_REPLIES_PER_MINUTE ?? RATE_LIMIT_DEFAULTS.repliesPerMinute,
    repliesPerHour: vars.RATE_LIMIT_REPLIES_PER_HOUR ?? RATE_LIMIT_DEFAULTS.repliesPerHour,
    votesPerMinute: vars.RATE_LIMIT_VOTES_PER_MINUTE ?? RATE_LIMIT_DEFAULTS.votesPerMinute,
    votesPerHour: vars.RATE_LIMIT_VOTES_PER_HOUR ?? RATE_LIMIT_DEFAULTS.votesPerHour,
    mentionsPerHour: vars.RATE_LIMIT_MENTIONS_PER_HOUR ?? RATE_LIMIT_DEFAULTS.mentionsPerHour,
    editsPerHour: vars.RATE_LIMIT_EDITS_PER_HOUR ?? RATE_LIMIT_DEFAULTS.editsPerHour,
    editsPerAddressPerHour:
      vars.RATE_LIMIT_EDITS_PER_ADDRESS_PER_HOUR ?? RATE_LIMIT_DEFAULTS.editsPerAddressPerHour,
    profileSavesPerHour: vars.RATE_LIMIT_PROFILE_SAVES_PER_HOUR ?? RATE_LIMIT_DEFAULTS.profileSavesPerHour,
    profileSavesPerAddressPerHour:
      vars.RATE_LIMIT_PROFILE_SAVES_PER_ADDRESS_PER_HOUR ?? RATE_LIMIT_DEFAULTS.profileSavesPerAddressPerHour,
    verifyEmailPerHour: vars.RATE_LIMIT_VERIFY_EMAIL_PER_HOUR ?? RATE_LIMIT_DEFAULTS.verifyEmailPerHour,
    verifyEmailPerAddressPerHour:
      vars.RATE_LIMIT_VERIFY_EMAIL_PER_ADDRESS_PER_HOUR ?? RATE_LIMIT_DEFAULTS.verifyEmailPerAddressPerHour,
    tokenRequestsPerMinute:
      vars.RATE_LIMIT_TOKEN_REQUESTS_PER_MINUTE ?? RATE_LIMIT_DEFAULTS.tokenRequestsPerMinute,
    searchPerMinute: vars.RATE_LIMIT_SEARCH_PER_MINUTE ?? RATE_LIMIT_DEFAULTS.searchPerMinute,
  };
}

import { type CappedReputationReason, REPUTATION_DAILY_CAP_DEFAULTS } from '@termpaste/contracts';
import type { EnvVars } from './env.js';

/** The points a member may earn a day by each reason, a default for each variable unset. */
export function reputationDailyCaps(vars: EnvVars): Record<CappedReputationReason, number> {
  return {
    paste: vars.REPUTATION_DAILY_CAP_PASTES ?? REPUTATION_DAILY_CAP_DEFAULTS.paste,
    reply: vars.REPUTATION_DAILY_CAP_REPLIES ?? REPUTATION_DAILY_CAP_DEFAULTS.reply,
    chat: vars.REPUTATION_DAILY_CAP_CHAT ?? REPUTATION_DAILY_CAP_DEFAULTS.chat,
    vote: vars.REPUTATION_DAILY_CAP_VOTES ?? REPUTATION_DAILY_CAP_DEFAULTS.vote,
  };
}

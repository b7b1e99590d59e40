import type { EnvVars } from './env.js';
import { wholeNumber } from './values.js';

/** Notification mails and digests: MAIL_* (docs: the e-mail preferences). */
export interface MailingsConfig {
  /** A notification unread this long, its member with no live socket open, is mailed. */
  awayMs: number;
  /** How often the mail queue looks for members to mail. */
  sweepMs: number;
  /** A member gets the digest once they have not visited for this long. */
  digestAwayMs: number;
}

export const MAILINGS_DEFAULTS = { awayMinutes: 10, sweepSeconds: 60, digestAwayDays: 7 } as const;

export const mailingsEnv = {
  MAIL_AWAY_MINUTES: wholeNumber(0, 10_080, ' of minutes').optional(),
  MAIL_SWEEP_SECONDS: wholeNumber(1, 3600, ' of seconds').optional(),
  MAIL_DIGEST_AWAY_DAYS: wholeNumber(1, 365, ' of days').optional(),
};

export function mailingsConfig(vars: EnvVars): MailingsConfig {
  const d = MAILINGS_DEFAULTS;
  return {
    awayMs: (vars.MAIL_AWAY_MINUTES ?? d.awayMinutes) * 60_000,
    sweepMs: (vars.MAIL_SWEEP_SECONDS ?? d.sweepSeconds) * 1000,
    digestAwayMs: (vars.MAIL_DIGEST_AWAY_DAYS ?? d.digestAwayDays) * 86_400_000,
  };
}

import { EXPIRES_IN_CHOICES, type ExpiresIn } from '@termpaste/contracts';
import { EXPIRES_IN_LABELS, OWN_POSTS_TEXTS } from '@termpaste/contracts/own-posts';
import { relativeTime } from '@termpaste/ui';
import { Flame, Hourglass } from 'lucide-react';
import { useEffect, useState } from 'react';

/** The longest wait a browser timer takes (about 24.8 days): a paste expiring later is not timed. */
const TIMER_MAX_MS = 2 ** 31 - 1;

/**
 * The expiry choices as a select (`keep`: a choice that leaves the expiry as it is, for the edit form,
 * where a choice counts from now).
 */
export function ExpirySelect({
  id,
  value,
  onChange,
  keep,
}: {
  id: string;
  value: ExpiresIn | '';
  onChange: (value: ExpiresIn | '') => void;
  /** The words of the option that changes nothing (its value is ''); absent: no such option. */
  keep?: string;
}) {
  return (
    <select
      id={id}
      className="tp-input forum-select"
      value={value}
      onChange={(event) => onChange(event.target.value as ExpiresIn | '')}
    >
      {keep !== undefined && <option value="">{keep}</option>}
      {EXPIRES_IN_CHOICES.map((choice) => (
        <option key={choice} value={choice}>
          {EXPIRES_IN_LABELS[choice]}
        </option>
      ))}
    </select>
  );
}

/** The exact time, as the tooltip of 'expires in …' shows it. */
export function exactTime(iso: string): string {
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
}

/** Whether a paste expiring at `expiresAt` (null: never) has expired at `now`. */
export function hasExpired(expiresAt: string | null, now = Date.now()): boolean {
  return expiresAt !== null && Date.parse(expiresAt) <= now;
}

/**
 * True from the moment the paste expires (a timer at `expiresAt`), so an open page says so without
 * waiting for the server's word.
 */
export function useExpired(expiresAt: string | null): boolean {
  const [expired, setExpired] = useState(() => hasExpired(expiresAt));
  useEffect(() => {
    setExpired(hasExpired(expiresAt));
    if (expiresAt === null) return;
    const wait = Date.parse(expiresAt) - Date.now();
    if (wait <= 0 || wait > TIMER_MAX_MS) return;
    const timer = setTimeout(() => setExpired(true), wait);
    return () => clearTimeout(timer);
  }, [expiresAt]);
  return expired;
}

/** 'expires in 9 minutes', the exact time in its tooltip; kept up to date every half minute. */
export function ExpiryMark({ expiresAt }: { expiresAt: string }) {
  const [, tick] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => tick((n) => n + 1), 30_000);
    return () => clearInterval(timer);
  }, []);
  const at = exactTime(expiresAt);
  return (
    <span className="forum-muted forum-card__stat forum-expiry" title={`Expires ${at}`}>
      <Hourglass size={13} aria-hidden="true" />
      {hasExpired(expiresAt) ? 'expired' : `expires ${relativeTime(expiresAt)}`}
      <span className="tp-sr-only"> ({at})</span>
    </span>
  );
}

/** For its author: the paste burns after reading (the first other reader deletes it). */
export function BurnMark() {
  return (
    <span className="forum-card__stat forum-burn-mark" title={OWN_POSTS_TEXTS.burnWarning}>
      <Flame size={13} aria-hidden="true" />
      burns after reading
    </span>
  );
}

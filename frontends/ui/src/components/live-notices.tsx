import { cx } from '../lib/cx.js';
import { Badge } from './badge.js';
import { Button } from './button.js';

/** `1 new reply`, `3 new pastes`: a count and its noun, plural (`plural`, else an s) past one. */
export function countOf(count: number, noun: string, plural = `${noun}s`): string {
  return `${count} ${count === 1 ? noun : plural}`;
}

/**
 * How many are here now, as a tag with a pulsing dot: `● 2 ONLINE`; nothing until known; read out politely.
 */
export function PresenceCount({
  count,
  label,
  title,
  className,
  reserve = false,
}: {
  count: number | undefined;
  /** What the count is, after it: `online`, `reading`. */
  label: string;
  /** A longer description (a tooltip and the accessible name). */
  title?: string;
  className?: string;
  /** Until the count is known, keep its room (unseen), so its arrival moves nothing. */
  reserve?: boolean;
}) {
  if (count === undefined)
    return reserve ? (
      <Badge className={cx('tp-presence', 'tp-reserved', className)} aria-hidden="true">
        <span className="tp-presence__dot" />0 {label}
      </Badge>
    ) : null;
  return (
    <Badge
      className={cx('tp-presence', className)}
      role="status"
      aria-live="polite"
      title={title}
      aria-label={title ? `${title}: ${count}` : undefined}
      data-testid="presence-count"
    >
      <span className="tp-presence__dot" aria-hidden="true" />
      {count} {label}
    </Badge>
  );
}

/**
 * `3 new pastes — SHOW` above a list: nothing moves until SHOW, so the reader is never pushed off their row.
 */
export function NewItemsBar({
  count,
  noun,
  onShow,
  className,
}: {
  count: number;
  /** Singular: `paste`. */
  noun: string;
  onShow: () => void;
  className?: string;
}) {
  if (count <= 0) return null;
  return (
    <div className={cx('tp-new-items', className)} role="status" aria-live="polite">
      <span className="tp-new-items__text">
        <span className="tp-new-items__mark" aria-hidden="true">
          ▲
        </span>{' '}
        {countOf(count, `new ${noun}`)}
      </span>
      <span className="tp-new-items__dash" aria-hidden="true">
        —
      </span>
      <Button variant="outline" size="sm" onClick={onShow}>
        SHOW
      </Button>
    </div>
  );
}

/** A floating pill, `↓ 1 new reply`, for news out of sight; a click takes the reader there. */
export function JumpPill({
  count,
  noun,
  plural,
  onJump,
}: {
  count: number;
  /** Singular and plural: `new reply`, `new replies`. */
  noun: string;
  plural: string;
  onJump: () => void;
}) {
  if (count <= 0) return null;
  const text = countOf(count, noun, plural);
  return (
    <div className="tp-jump-pill">
      <button type="button" className="tp-jump-pill__button" onClick={onJump}>
        <span aria-hidden="true">↓</span> {text}
      </button>
    </div>
  );
}

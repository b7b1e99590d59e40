import { cx } from '../lib/cx.js';

export interface SpinnerProps {
  /** Shown beside the spinner; without it, 'Loading...' is read to screen readers only. */
  label?: string;
  className?: string;
}

export function Spinner({ label, className }: SpinnerProps) {
  return (
    <span role="status" className={cx('tp-spinner', className)}>
      <span className="tp-spinner__glyph" aria-hidden="true" />
      {label ? (
        <span className="tp-spinner__label">{label}</span>
      ) : (
        <span className="tp-sr-only">Loading...</span>
      )}
    </span>
  );
}

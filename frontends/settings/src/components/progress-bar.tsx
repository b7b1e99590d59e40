import { cx } from '@termpaste/ui';

/** A terminal-style bar, 0–100, announced as a progressbar under `label`. */
export function ProgressBar({
  value,
  label,
  className,
}: {
  value: number;
  label: string;
  className?: string;
}) {
  const percent = Math.round(Math.min(100, Math.max(0, value)));
  return (
    <div
      className={cx('settings-progress', className)}
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
    >
      <span className="settings-progress__fill" style={{ width: `${percent}%` }} />
    </div>
  );
}

import type { ComponentProps } from 'react';
import { cx } from '../lib/cx.js';

export type DockProps = ComponentProps<'div'>;

/**
 * The strip stuck to the bottom of the content column (never over the sidebar) holding a round
 * DockButton and what it opens. It reserves the button's room so the page's last line can scroll out
 * from under it; only its children take the pointer.
 */
export function Dock({ className, ...props }: DockProps) {
  return <div {...props} className={cx('tp-dock', className)} />;
}

export interface DockButtonProps extends Omit<ComponentProps<'button'>, 'aria-label'> {
  /** The accessible name (the button shows only its icon, its children). */
  label: string;
  /** Something is loading on the button's behalf: aria-busy, and the busy cursor. */
  busy?: boolean;
}

/** The round button of a Dock: an icon, highlighted on hover and while what it opens is open (aria-expanded). */
export function DockButton({ label, busy = false, className, type = 'button', ...props }: DockButtonProps) {
  return (
    <button
      {...props}
      type={type}
      aria-label={label}
      aria-busy={busy || undefined}
      className={cx('tp-dock__button', className)}
    />
  );
}

import type { ComponentProps } from 'react';
import { cx } from '../lib/cx.js';

export type BadgeVariant = 'default' | 'accent' | 'danger' | 'warning' | 'muted';

export interface BadgeProps extends ComponentProps<'span'> {
  variant?: BadgeVariant;
}

/** A small bracketed tag; add a `rank-<style>` class to colour it by rank. */
export function Badge({ variant = 'default', className, ...props }: BadgeProps) {
  return <span {...props} className={cx('tp-badge', `tp-badge--${variant}`, className)} />;
}

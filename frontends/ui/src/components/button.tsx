import type { ComponentProps, ReactNode } from 'react';
import { cx } from '../lib/cx.js';
import { Tooltip, type TooltipSide } from './tooltip.js';

export type ButtonVariant = 'primary' | 'outline' | 'ghost' | 'danger';
export type ButtonSize = 'sm' | 'md' | 'lg';

export interface ButtonProps extends ComponentProps<'button'> {
  variant?: ButtonVariant;
  size?: ButtonSize;
  /** Disables the button and shows a spinner before its label; the label itself stays the caller's. */
  loading?: boolean;
}

export function Button({
  variant = 'primary',
  size = 'md',
  loading = false,
  disabled,
  className,
  type = 'button',
  children,
  ...props
}: ButtonProps) {
  return (
    <button
      {...props}
      type={type}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
      data-loading={loading || undefined}
      className={cx('tp-button', `tp-button--${variant}`, `tp-button--${size}`, className)}
    >
      {loading && <span className="tp-button__spinner" aria-hidden="true" />}
      {children}
    </button>
  );
}

export interface IconButtonProps extends Omit<ButtonProps, 'children' | 'aria-label'> {
  /** The accessible name, also shown as the tooltip. */
  label: string;
  icon: ReactNode;
  tooltipSide?: TooltipSide;
}

/** A square button showing only an icon; its label is the accessible name and a tooltip. */
export function IconButton({
  label,
  icon,
  tooltipSide,
  variant = 'ghost',
  className,
  ...props
}: IconButtonProps) {
  return (
    <Tooltip content={label} side={tooltipSide}>
      <Button {...props} variant={variant} aria-label={label} className={cx('tp-icon-button', className)}>
        <span className="tp-icon-button__icon" aria-hidden="true">
          {icon}
        </span>
      </Button>
    </Tooltip>
  );
}

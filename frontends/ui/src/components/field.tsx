import type { ComponentProps } from 'react';
import { cx } from '../lib/cx.js';

export function Input({ className, type = 'text', ...props }: ComponentProps<'input'>) {
  return <input {...props} type={type} className={cx('tp-input', className)} />;
}

export function Textarea({ className, ...props }: ComponentProps<'textarea'>) {
  return <textarea {...props} className={cx('tp-textarea', className)} />;
}

export function Label({ className, ...props }: ComponentProps<'label'>) {
  return <label {...props} className={cx('tp-label', className)} />;
}

/** A label with something beside it on the right: a character count, a preview toggle. */
export function LabelRow({ className, ...props }: ComponentProps<'div'>) {
  return <div {...props} className={cx('tp-label-row', className)} />;
}

/** `length/max` beside a field, announced as it changes. */
export function CharCount({ length, max, testId }: { length: number; max: number; testId?: string }) {
  return (
    <span className="tp-char-count" aria-live="polite" data-testid={testId}>
      {length}/{max}
    </span>
  );
}

/** A form's buttons, on the right. */
export function FormActions({ className, ...props }: ComponentProps<'div'>) {
  return <div {...props} className={cx('tp-form-actions', className)} />;
}

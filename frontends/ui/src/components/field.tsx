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

import type { ReactNode } from 'react';
import { cx } from '../lib/cx.js';

export type NoticeTone = 'error' | 'ok' | 'note';

const roles = { error: 'alert', ok: 'status', note: undefined } as const;
const prefixes = { error: '[ERR] ', ok: '[OK] ', note: null } as const;

export interface NoticeProps {
  tone: NoticeTone;
  children: ReactNode;
  className?: string;
}

/**
 * A screen's boxed line of outcome or context: an error (an alert, `[ERR]`, red), a success (a status,
 * `[OK]`, green) or a note (dashed, no role: it is part of the screen, not news). The prefix is for the
 * eye only; the role is what a screen reader announces.
 */
export function Notice({ tone, children, className }: NoticeProps) {
  return (
    <p role={roles[tone]} className={cx('tp-notice', `tp-notice--${tone}`, className)}>
      {prefixes[tone] && <span aria-hidden="true">{prefixes[tone]}</span>}
      {children}
    </p>
  );
}

import * as Dialog from '@radix-ui/react-dialog';
import type { ReactNode } from 'react';
import { cx } from '../lib/cx.js';

export interface ModalProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The `$ title` line; an icon may come before the text. */
  title: ReactNode;
  /** A line under the title, read out with it. */
  description?: ReactNode;
  /** Beside `tp-dialog` (its width, its border). */
  className?: string;
  children: ReactNode;
}

/**
 * A terminal dialog holding a form of the caller's (the flag form, the review queue's AGREE): focus kept
 * inside, Escape and a click outside close it, the focus goes back to what opened it.
 */
export function Modal({ open, onOpenChange, title, description, className, children }: ModalProps) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="tp-dialog-overlay" />
        <Dialog.Content
          className={cx('tp-dialog', className)}
          {...(description === undefined ? { 'aria-describedby': undefined } : {})}
        >
          <Dialog.Title className="tp-dialog__title">{title}</Dialog.Title>
          {description !== undefined && (
            <Dialog.Description className="tp-dialog__description">{description}</Dialog.Description>
          )}
          {children}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

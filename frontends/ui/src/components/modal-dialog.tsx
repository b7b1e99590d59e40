import * as Dialog from '@radix-ui/react-dialog';
import { cx } from '../lib/cx.js';
import type { ModalProps } from './modal.js';

/** Modal's dialog (modal.tsx loads it on first open). */
export default function ModalDialog({
  open,
  onOpenChange,
  title,
  description,
  className,
  children,
}: ModalProps) {
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

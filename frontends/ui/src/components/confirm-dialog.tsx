// Fetched with the first confirmation a page asks for (confirm.tsx): pages that never ask load no dialog.
import * as Dialog from '@radix-ui/react-dialog';
import { TriangleAlert } from 'lucide-react';
import type { RefObject } from 'react';
import { Button } from './button.js';
import type { ConfirmOptions } from './confirm.js';

export interface ConfirmDialogProps {
  open: boolean;
  options: ConfirmOptions | undefined;
  settle: (confirmed: boolean) => void;
  /** Where the focus goes back to once the dialog has closed. */
  returnFocusRef: RefObject<HTMLElement | null>;
}

export default function ConfirmDialog({ open, options, settle, returnFocusRef }: ConfirmDialogProps) {
  return (
    <Dialog.Root
      open={open}
      onOpenChange={(next) => {
        if (!next) settle(false);
      }}
    >
      <Dialog.Portal>
        <Dialog.Overlay className="tp-dialog-overlay" />
        <Dialog.Content
          className="tp-dialog"
          role="alertdialog"
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            returnFocusRef.current?.focus();
            returnFocusRef.current = null;
          }}
          {...(options?.description === undefined ? { 'aria-describedby': undefined } : {})}
        >
          <Dialog.Title className="tp-dialog__title">
            {options?.destructive && (
              <TriangleAlert className="tp-dialog__icon" size={16} aria-hidden="true" />
            )}
            {options?.title}
          </Dialog.Title>
          {options?.description !== undefined && (
            <Dialog.Description className="tp-dialog__description">{options.description}</Dialog.Description>
          )}
          <div className="tp-dialog__actions">
            <Button variant="outline" onClick={() => settle(false)}>
              {options?.cancelLabel ?? 'CANCEL'}
            </Button>
            <Button variant={options?.destructive ? 'danger' : 'primary'} onClick={() => settle(true)}>
              {options?.confirmLabel ?? 'CONFIRM'}
            </Button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

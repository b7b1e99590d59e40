import * as Dialog from '@radix-ui/react-dialog';
import { TriangleAlert } from 'lucide-react';
import { createContext, useCallback, useContext, useRef, useState, type ReactNode } from 'react';
import { Button } from './button.js';

export interface ConfirmOptions {
  title: ReactNode;
  description?: ReactNode;
  /** 'CONFIRM' by default. */
  confirmLabel?: ReactNode;
  /** 'CANCEL' by default. */
  cancelLabel?: ReactNode;
  /** Styles the confirm button as dangerous (delete, ban). */
  destructive?: boolean;
}

export type Confirm = (options: ConfirmOptions) => Promise<boolean>;

const ConfirmContext = createContext<Confirm | null>(null);

interface Pending {
  options: ConfirmOptions;
  resolve: (confirmed: boolean) => void;
}

/**
 * Hosts the one confirmation dialog of the app. `confirm()` resolves true on the confirm button and
 * false on cancel, Escape or a click outside. A new prompt cancels one still open.
 */
export function ConfirmProvider({ children }: { children: ReactNode }) {
  const [pending, setPending] = useState<Pending | null>(null);
  const [open, setOpen] = useState(false);
  const pendingRef = useRef<Pending | null>(null);
  // The dialog opens without a Radix trigger, so focus goes back by hand to where the prompt came from.
  const returnFocusRef = useRef<HTMLElement | null>(null);

  const settle = useCallback((confirmed: boolean) => {
    pendingRef.current?.resolve(confirmed);
    pendingRef.current = null;
    // Keep `pending` so the dialog's text stays put while it closes.
    setOpen(false);
  }, []);

  const confirm = useCallback<Confirm>(
    (options) =>
      new Promise<boolean>((resolve) => {
        pendingRef.current?.resolve(false);
        if (!pendingRef.current && document.activeElement instanceof HTMLElement) {
          returnFocusRef.current = document.activeElement;
        }
        const next = { options, resolve };
        pendingRef.current = next;
        setPending(next);
        setOpen(true);
      }),
    [],
  );

  const options = pending?.options;
  return (
    <ConfirmContext.Provider value={confirm}>
      {children}
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
              <Dialog.Description className="tp-dialog__description">
                {options.description}
              </Dialog.Description>
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
    </ConfirmContext.Provider>
  );
}

/** `const confirm = useConfirm(); if (await confirm({ title: 'Delete this paste?', destructive: true })) …` */
export function useConfirm(): Confirm {
  const confirm = useContext(ConfirmContext);
  if (!confirm) throw new Error('useConfirm must be used inside <ConfirmProvider> (UiProvider includes it)');
  return confirm;
}

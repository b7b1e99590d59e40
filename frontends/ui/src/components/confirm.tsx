import {
  createContext,
  lazy,
  Suspense,
  useCallback,
  useContext,
  useRef,
  useState,
  type ReactNode,
} from 'react';

const ConfirmDialog = lazy(() => import('./confirm-dialog.js'));

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

  return (
    <ConfirmContext.Provider value={confirm}>
      {children}
      {/* Mounted from the first prompt on, so it can play its closing animation and open again at once. */}
      {pending && (
        <Suspense fallback={null}>
          <ConfirmDialog
            open={open}
            options={pending.options}
            settle={settle}
            returnFocusRef={returnFocusRef}
          />
        </Suspense>
      )}
    </ConfirmContext.Provider>
  );
}

/** `const confirm = useConfirm(); if (await confirm({ title: 'Delete this paste?', destructive: true })) …` */
export function useConfirm(): Confirm {
  const confirm = useContext(ConfirmContext);
  if (!confirm) throw new Error('useConfirm must be used inside <ConfirmProvider> (UiProvider includes it)');
  return confirm;
}

import * as ToastPrimitive from '@radix-ui/react-toast';
import { TOASTS } from '@termpaste/contracts';
import { X } from 'lucide-react';
import { cx } from '../lib/cx.js';
import { dismissToast, useToast } from './toast-store.js';

// Fetched with the first toast of the page (toaster.tsx).

/** Renders the toast store: one toast at a time, bottom right; F8 focuses it, a swipe right closes it. */
export default function ToastList() {
  const { toasts } = useToast();
  return (
    <ToastPrimitive.Provider
      duration={TOASTS.durationMs}
      swipeDirection={TOASTS.swipeDirection}
      swipeThreshold={TOASTS.swipeThresholdPx}
    >
      {toasts.map(({ id, title, description, variant = 'default', duration, open }) => (
        <ToastPrimitive.Root
          key={id}
          open={open}
          duration={duration}
          type={variant === 'destructive' ? 'foreground' : 'background'}
          onOpenChange={(next) => {
            if (!next) dismissToast(id);
          }}
          className={cx('tp-toast', variant === 'destructive' && 'tp-toast--destructive')}
        >
          <div className="tp-toast__text">
            <ToastPrimitive.Title className="tp-toast__title">{title}</ToastPrimitive.Title>
            {description !== undefined && (
              <ToastPrimitive.Description className="tp-toast__description">
                {description}
              </ToastPrimitive.Description>
            )}
          </div>
          <ToastPrimitive.Close className="tp-toast__close" aria-label="Close">
            <X size={14} aria-hidden="true" />
          </ToastPrimitive.Close>
        </ToastPrimitive.Root>
      ))}
      <ToastPrimitive.Viewport className="tp-toast-viewport" hotkey={[TOASTS.hotkey]} />
    </ToastPrimitive.Provider>
  );
}

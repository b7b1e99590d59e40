import { lazy, Suspense, useState } from 'react';
import { useToast } from './toast-store.js';

const ToastList = lazy(() => import('./toast-list.js'));

/**
 * The app's toasts (toast-list.tsx), fetched with the first toast of the page and kept from then on, so
 * a page that toasts nothing loads no toast code.
 */
export function Toaster() {
  const { toasts } = useToast();
  const [needed, setNeeded] = useState(toasts.length > 0);
  if (toasts.length > 0 && !needed) setNeeded(true);
  if (!needed) return null;
  return (
    <Suspense fallback={null}>
      <ToastList />
    </Suspense>
  );
}

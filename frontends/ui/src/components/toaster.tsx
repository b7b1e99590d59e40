import { lazy, Suspense, useState } from 'react';
import { useToast } from './toast-store.js';

let listLoaded = false;
const loadToastList = () =>
  import('./toast-list.js').then((module) => {
    listLoaded = true;
    return module;
  });
const ToastList = lazy(loadToastList);

/**
 * Runs `then` once toasts can show: at once when their code is there, else when it has arrived (or
 * could not be fetched). For what must follow a toast the member has had time to see.
 */
export function whenToastsCanShow(then: () => void): void {
  if (listLoaded) return then();
  loadToastList().then(then, then);
}

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

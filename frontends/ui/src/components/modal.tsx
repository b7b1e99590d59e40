import { lazy, Suspense, useState, type ReactNode } from 'react';

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

// Radix's dialog weighs about 12 KB gzip: fetched the first time a modal opens, not on a first visit.
const ModalDialog = lazy(() => import('./modal-dialog.js'));

/**
 * A terminal dialog holding a form of the caller's (the flag form, the review queue's AGREE): focus kept
 * inside, Escape and a click outside close it, the focus goes back to what opened it.
 */
export function Modal(props: ModalProps) {
  const [opened, setOpened] = useState(props.open);
  if (props.open && !opened) setOpened(true);
  if (!opened) return null;
  return (
    <Suspense fallback={null}>
      <ModalDialog {...props} />
    </Suspense>
  );
}

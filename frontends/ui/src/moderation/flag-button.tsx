import type { PasteRef } from '@termpaste/contracts';
import type { FlagTarget } from '@termpaste/contracts/moderation';
import { lazy, Suspense } from 'react';

export interface FlagButtonProps {
  targetType: FlagTarget;
  /** A paste's ref (its key unless public), else the item's number. */
  targetId: PasteRef;
  /** What is flagged, for the dialog and the button's accessible name ('paste nmap cheatsheet'). */
  what: string;
  className?: string;
}

// The button, its dialog and the moderation contracts load with the first screen that shows a FLAG
// button, not with every first visit.
const LazyFlagButton = lazy(() =>
  import('./flag-dialog.js').then((module) => ({ default: module.FlagButton })),
);

/**
 * FLAG on an item a member did not write (the caller leaves it out for their own items and for
 * visitors): opens the flag dialog; FLAGGED (disabled) once they flagged it.
 */
export function FlagButton(props: FlagButtonProps) {
  return (
    <Suspense fallback={null}>
      <LazyFlagButton {...props} />
    </Suspense>
  );
}

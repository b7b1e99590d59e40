import type { ReactNode } from 'react';

/**
 * One date of a listed item (a token, a linked account) in its `<dl>`: the term, the short form shown
 * (`children`), and the full local date and time on hover; no hover text while there is no date.
 */
export function DateEntry({ term, at, children }: { term: string; at: string | null; children: ReactNode }) {
  return (
    <div>
      <dt>{term}</dt>
      <dd title={at ? new Date(at).toLocaleString() : undefined}>{children}</dd>
    </div>
  );
}

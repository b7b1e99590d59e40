import { PEOPLE_TEXTS } from '@termpaste/contracts';
import { useState, type ReactNode } from 'react';
import { usePeople } from './people.js';

export interface PersonGateProps {
  /** The post's author; null for a deleted account (never collapsed). */
  authorId: number | null | undefined;
  /** The post, as everyone else sees it. */
  children: ReactNode;
  /**
   * Puts the one-line note where the post would be: a list item, a table row, a card. By default a
   * `div`.
   */
  wrap?: (note: ReactNode, state: 'blocked' | 'muted') => ReactNode;
}

/**
 * A post as the member sees it: a muted author's collapsed with 'show', a blocked author's a one-line note
 * (they unblock in settings). Pages are cached and shared, so the member's own screen does this.
 */
export function PersonGate({ authorId, children, wrap }: PersonGateProps) {
  const people = usePeople();
  const [shown, setShown] = useState(false);
  const state = people.stateOf(authorId);
  if (state === null || (state === 'muted' && shown)) return <>{children}</>;
  const note = <PersonNote state={state} onShow={() => setShown(true)} />;
  return <>{wrap ? wrap(note, state) : <div className="tp-person-gate">{note}</div>}</>;
}

/** The one line: what is left out, and for a mute, 'show'. */
export function PersonNote({ state, onShow }: { state: 'blocked' | 'muted'; onShow?: () => void }) {
  return (
    <p className="tp-person-note" data-person={state}>
      <span className="tp-person-note__mark" aria-hidden="true">
        {'//'}
      </span>{' '}
      {state === 'blocked' ? PEOPLE_TEXTS.blockedPost : PEOPLE_TEXTS.mutedPost}
      {state === 'muted' && onShow && (
        <>
          {' '}
          <button type="button" className="tp-person-note__show" onClick={onShow}>
            [{PEOPLE_TEXTS.show}]
          </button>
        </>
      )}
    </p>
  );
}

/**
 * A list's items without those by members the member blocked, and how many were left out (for
 * PEOPLE_TEXTS.blockedLeftOut below the list).
 */
export function useWithoutBlocked<T>(
  items: readonly T[],
  authorIdOf: (item: T) => number | null | undefined,
): { items: T[]; leftOut: number } {
  const { blocked } = usePeople();
  if (blocked.size === 0) return { items: [...items], leftOut: 0 };
  const kept = items.filter((item) => {
    const id = authorIdOf(item);
    return id === null || id === undefined || !blocked.has(id);
  });
  return { items: kept, leftOut: items.length - kept.length };
}

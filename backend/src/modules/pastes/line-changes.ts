import { countLineChanges, revisionLines } from '@termpaste/contracts';
import { diffArrays } from 'diff';

/**
 * How far the line diff of an edit may go before it gives up (jsdiff's maxEditLength and timeout): two
 * pastes of 20,000 lines that share nothing would otherwise take seconds of the event loop.
 */
const MAX_EDIT_LENGTH = 10_000;
const TIMEOUT_MS = 200;

/**
 * Lines added and removed from `before` to `after`, as the revisions page's diff counts them. Past the
 * limits, a multiset count: exact for an edit that only adds or only removes, close for the rest.
 */
export function lineChanges(before: string, after: string): { added: number; removed: number } {
  const old = revisionLines(before);
  const now = revisionLines(after);
  const changes = diffArrays(old, now, { maxEditLength: MAX_EDIT_LENGTH, timeout: TIMEOUT_MS });
  if (changes) return countLineChanges(changes);
  const left = new Map<string, number>();
  for (const line of old) left.set(line, (left.get(line) ?? 0) + 1);
  let added = 0;
  for (const line of now) {
    const count = left.get(line) ?? 0;
    if (count > 0) left.set(line, count - 1);
    else added += 1;
  }
  let removed = 0;
  for (const count of left.values()) removed += count;
  return { added, removed };
}

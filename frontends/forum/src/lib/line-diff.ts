import { countLineChanges, revisionLines } from '@termpaste/contracts/revisions';
import { diffArrays } from 'diff';

/** How long the diff of two versions may take before it gives up (jsdiff's timeout, ms). */
const DIFF_TIMEOUT_MS = 1000;

export type DiffKind = 'same' | 'added' | 'removed';

/** One line of a unified diff: its text, and its number in the older and the newer version. */
export interface DiffLine {
  kind: DiffKind;
  text: string;
  oldNumber: number | null;
  newNumber: number | null;
}

export interface LineDiff {
  lines: DiffLine[];
  added: number;
  removed: number;
  /** False when the versions differed too much to compare in time: every old line removed, every new added. */
  exact: boolean;
}

/**
 * The line diff of two versions, over lines as the server counts them (revisionLines), so its counts match
 * the list's.
 */
export function lineDiff(before: string, after: string): LineDiff {
  const old = revisionLines(before);
  const now = revisionLines(after);
  const diffed = diffArrays(old, now, { timeout: DIFF_TIMEOUT_MS });
  const changes = diffed ?? [
    { value: old, count: old.length, added: false, removed: true },
    { value: now, count: now.length, added: true, removed: false },
  ];
  const lines: DiffLine[] = [];
  let oldNumber = 1;
  let newNumber = 1;
  for (const change of changes) {
    for (const text of change.value) {
      if (change.added) lines.push({ kind: 'added', text, oldNumber: null, newNumber: newNumber++ });
      else if (change.removed) lines.push({ kind: 'removed', text, oldNumber: oldNumber++, newNumber: null });
      else lines.push({ kind: 'same', text, oldNumber: oldNumber++, newNumber: newNumber++ });
    }
  }
  const { added, removed } = countLineChanges(changes);
  return { lines, added, removed, exact: diffed !== undefined };
}

/** One side of a side-by-side row: a line, or nothing opposite the other side's added or removed lines. */
export type SideCell = { kind: DiffKind; text: string; number: number } | { kind: 'pad' };

/**
 * The unified lines as two columns: unchanged lines side by side; a run of removed lines beside the run
 * of added lines that follows it, the shorter padded.
 */
export function sideBySide(lines: readonly DiffLine[]): { left: SideCell[]; right: SideCell[] } {
  const left: SideCell[] = [];
  const right: SideCell[] = [];
  let index = 0;
  while (index < lines.length) {
    const line = lines[index]!;
    if (line.kind === 'same') {
      left.push({ kind: 'same', text: line.text, number: line.oldNumber! });
      right.push({ kind: 'same', text: line.text, number: line.newNumber! });
      index += 1;
      continue;
    }
    const removed: DiffLine[] = [];
    const added: DiffLine[] = [];
    while (index < lines.length && lines[index]!.kind === 'removed') removed.push(lines[index++]!);
    while (index < lines.length && lines[index]!.kind === 'added') added.push(lines[index++]!);
    const rows = Math.max(removed.length, added.length);
    for (let row = 0; row < rows; row += 1) {
      const gone = removed[row];
      const come = added[row];
      left.push(gone ? { kind: 'removed', text: gone.text, number: gone.oldNumber! } : { kind: 'pad' });
      right.push(come ? { kind: 'added', text: come.text, number: come.newNumber! } : { kind: 'pad' });
    }
  }
  return { left, right };
}

/* eslint-disable no-control-regex -- terminal escape sequences are control characters */
import { sgrOnly, useAnsi, type AnsiLine } from '@termpaste/ui';
import { useEffect, useState } from 'react';

/** Lines converted at a time: a 1 MiB capture is converted over many short tasks, never in one long one. */
export const ANSI_CHUNK_LINES = 400;

const SGR = /\x1b\[([0-9;]*)m/g;

/**
 * The SGR sequences that rebuild the style in effect after `text` (its escapes reduced to SGR), given
 * those in effect before it: everything from the last sequence that starts with a reset on.
 */
export function sgrStateAfter(before: string, text: string): string {
  let state = before;
  for (const match of text.matchAll(SGR)) {
    const params = match[1]!;
    const resets = params === '' || params === '0' || params.startsWith('0;') || params.startsWith(';');
    state = resets ? match[0] : state + match[0];
  }
  return state;
}

export interface AnsiProgress {
  /** The lines converted so far, in order (a line not there yet shows as plain text). */
  lines: AnsiLine[];
  done: boolean;
}

/**
 * Terminal output's lines, coloured, converted in chunks of ANSI_CHUNK_LINES lines, one task each: the
 * first at once, the others after it, each starting in the style the previous one left (as a terminal
 * carries colours over lines). `text` has its line feeds normalised.
 */
export function useAnsiLines(text: string, enabled: boolean): AnsiProgress | null {
  const ansi = useAnsi(enabled);
  const [progress, setProgress] = useState<(AnsiProgress & { text: string }) | null>(null);

  useEffect(() => {
    if (!enabled || !ansi) return;
    const raw = text.split('\n');
    if (raw.length > 1 && raw[raw.length - 1] === '') raw.pop();
    const lines: AnsiLine[] = [];
    let state = '';
    let timer: ReturnType<typeof setTimeout> | undefined;
    let live = true;
    const step = (start: number) => {
      if (!live) return;
      const end = Math.min(start + ANSI_CHUNK_LINES, raw.length);
      const chunk = sgrOnly(raw.slice(start, end).join('\n'));
      const converted = ansi.lines(state + chunk);
      for (let index = 0; index < end - start; index++) lines.push(converted[index] ?? []);
      state = sgrStateAfter(state, chunk);
      const done = end >= raw.length;
      setProgress({ text, lines, done });
      if (!done) timer = setTimeout(() => step(end), 0);
    };
    step(0);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [ansi, enabled, text]);

  return progress && progress.text === text ? progress : null;
}

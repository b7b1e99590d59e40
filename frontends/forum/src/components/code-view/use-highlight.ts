import { useEffect, useState } from 'react';
import { highlightLines, isHighlightable, type TokenLine } from './highlight';

export interface HighlightRequest {
  id: number;
  language: string;
  text: string;
}
export interface HighlightResponse {
  id: number;
  lines: TokenLine[] | null;
}

let worker: Worker | null | undefined;
let nextId = 1;
const waiting = new Map<number, (lines: TokenLine[] | null) => void>();

/**
 * The highlighting worker, started on first use; null where a page cannot start one (a remote served
 * from another origin on a dev server, a test's jsdom), and then the main thread highlights.
 */
function highlightWorker(): Worker | null {
  if (worker !== undefined) return worker;
  try {
    worker = new Worker(new URL('./highlight.worker.ts', import.meta.url));
    worker.onmessage = (event: MessageEvent<HighlightResponse>) => {
      waiting.get(event.data.id)?.(event.data.lines);
      waiting.delete(event.data.id);
    };
    worker.onerror = () => {
      // The script could not be loaded (or broke): the main thread takes over, for these and the rest.
      worker?.terminate();
      worker = null;
      for (const resolve of waiting.values()) resolve(null);
      waiting.clear();
    };
  } catch {
    worker = null;
  }
  return worker;
}

/** Highlights a text off the main thread when it can, on it (after the current frame) when not. */
export function highlight(language: string, text: string): Promise<TokenLine[] | null> {
  const thread = highlightWorker();
  if (!thread) {
    return new Promise((resolve) => setTimeout(resolve, 0)).then(() =>
      highlightLines(language, text).catch(() => null),
    );
  }
  const id = nextId++;
  return new Promise((resolve) => {
    waiting.set(id, (lines) =>
      // A worker that failed answers null: try once more here.
      lines ? resolve(lines) : resolve(highlightLines(language, text).catch(() => null)),
    );
    thread.postMessage({ id, language, text } satisfies HighlightRequest);
  });
}

/** The text's highlighted lines once they are there; null before (plain lines show), or for no grammar. */
export function useHighlight(text: string, language: string | null): TokenLine[] | null {
  const [result, setResult] = useState<{ text: string; language: string; lines: TokenLine[] } | null>(null);
  const wanted = isHighlightable(language) ? language : null;
  useEffect(() => {
    if (!wanted) return;
    let live = true;
    void highlight(wanted, text).then((lines) => {
      if (live && lines) setResult({ text, language: wanted, lines });
    });
    return () => {
      live = false;
    };
  }, [text, wanted]);
  return result && result.text === text && result.language === wanted ? result.lines : null;
}

import { useEffect, useState } from 'react';
import { isHighlightable } from './language-names';
import { decodeLine, type EncodedLines } from './tokens';

export interface HighlightRequest {
  id: number;
  language: string;
  text: string;
}
export interface HighlightResponse {
  id: number;
  lines: EncodedLines | null;
}

let worker: Worker | null | undefined;
let nextId = 1;
const waiting = new Map<number, (lines: EncodedLines | null) => void>();

/** Where the remote's files are served from (rspack's public path: the folder of its remoteEntry.js). */
declare const __webpack_public_path__: string;

/**
 * The highlighting worker, started on first use and built on its own (Module Federation's runtime cannot
 * start in a worker). Null where a page cannot start it (another origin, a dev server, jsdom): then the
 * main thread highlights.
 */
function highlightWorker(): Worker | null {
  if (worker !== undefined) return worker;
  try {
    worker = new Worker(new URL('static/worker/highlight-worker.js', __webpack_public_path__));
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

/** Highlights on the main thread (after the grammars' chunk is fetched, so never within the render). */
function highlightHere(language: string, text: string): Promise<EncodedLines | null> {
  return import('./highlight-fallback')
    .then(({ highlightEncoded }) => highlightEncoded(language, text))
    .catch(() => null);
}

/** Highlights a text off the main thread when it can, on it when not. */
export function highlight(language: string, text: string): Promise<EncodedLines | null> {
  const thread = highlightWorker();
  if (!thread) return highlightHere(language, text);
  const id = nextId++;
  return new Promise((resolve) => {
    // A worker that failed answers null: try once more here.
    waiting.set(id, (lines) => (lines ? resolve(lines) : resolve(highlightHere(language, text))));
    thread.postMessage({ id, language, text } satisfies HighlightRequest);
  });
}

/** A text's highlighted lines, each decoded when it is rendered. */
export interface HighlightedLines {
  line(index: number, text: string): ReturnType<typeof decodeLine>;
}

/**
 * The text's highlighted lines once they are there; null before (plain lines show), or for no grammar.
 * `text` is the code view's, line feeds normalised, so each line's tokens cut its text exactly.
 */
export function useHighlight(text: string, language: string | null): HighlightedLines | null {
  const [result, setResult] = useState<{ text: string; language: string; lines: EncodedLines } | null>(null);
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
  if (!result || result.text !== text || result.language !== wanted) return null;
  const encoded = result.lines;
  return { line: (index, lineText) => decodeLine(encoded, index, lineText) };
}

import { all, createLowlight } from 'lowlight';
import { encodeLines, treeToLines, type EncodedLines } from './tokens';

/**
 * The main thread's highlighter, for a page that cannot start the worker (a remote on another origin, a
 * dev server, a test): every grammar in one chunk, fetched only then, so the remote's own build lists
 * one chunk for it, not one per grammar.
 */
const lowlight = createLowlight(all);

export function highlightEncoded(language: string, text: string): EncodedLines | null {
  return lowlight.registered(language) ? encodeLines(treeToLines(lowlight.highlight(language, text))) : null;
}

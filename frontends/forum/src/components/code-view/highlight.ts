import type { ElementContent, Root, RootContent } from 'hast';
import { createLowlight } from 'lowlight';
import { GRAMMAR_LOADERS, GRAMMAR_REQUIRES } from './grammars';

/** A run of highlighted text: highlight.js's classes (`hljs-keyword`…) of every scope it is in. */
export interface Token {
  text: string;
  className?: string;
}
/** One line of a paste, highlighted (no line feed in it). */
export type TokenLine = Token[];

const lowlight = createLowlight();
const registering = new Map<string, Promise<void>>();

/** Registers a grammar and those it embeds, each fetched once (a failed fetch is tried again later). */
function register(name: string): Promise<void> {
  let done = registering.get(name);
  if (!done) {
    done = Promise.all([
      GRAMMAR_LOADERS[name]!().then((module) => lowlight.register(name, module.default)),
      ...(GRAMMAR_REQUIRES[name] ?? []).map(register),
    ]).then(() => undefined);
    done.catch(() => registering.delete(name));
    registering.set(name, done);
  }
  return done;
}

/** Whether highlight.js has a grammar of that (canonical) name. */
export function isHighlightable(language: string | null): language is string {
  return language !== null && Object.hasOwn(GRAMMAR_LOADERS, language);
}

/** A highlighted tree as lines of tokens: a scope that spans a line feed goes on on the next line. */
export function treeToLines(tree: Root): TokenLine[] {
  const lines: TokenLine[] = [[]];
  const walk = (nodes: (RootContent | ElementContent)[], classes: string) => {
    for (const node of nodes) {
      if (node.type === 'text') {
        node.value.split('\n').forEach((piece, index) => {
          if (index > 0) lines.push([]);
          if (piece)
            lines[lines.length - 1]!.push(classes ? { text: piece, className: classes } : { text: piece });
        });
      } else if (node.type === 'element') {
        const own = Array.isArray(node.properties.className) ? node.properties.className.join(' ') : '';
        walk(node.children, own ? (classes ? `${classes} ${own}` : own) : classes);
      }
    }
  };
  walk(tree.children, '');
  return lines;
}

/** The text highlighted as `language`, line by line; null when highlight.js has no such grammar. */
export async function highlightLines(language: string, text: string): Promise<TokenLine[] | null> {
  if (!isHighlightable(language)) return null;
  await register(language);
  return treeToLines(lowlight.highlight(language, text));
}

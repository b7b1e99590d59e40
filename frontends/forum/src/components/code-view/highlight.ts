// The worker's highlighter (highlight.worker.ts): lowlight's core and each grammar fetched on first use.
import { createLowlight } from 'lowlight';
import { GRAMMAR_LOADERS, GRAMMAR_REQUIRES } from './grammars';
import { treeToLines, type TokenLine } from './tokens';

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

/** The text highlighted as `language`, line by line; null when highlight.js has no such grammar. */
export async function highlightLines(language: string, text: string): Promise<TokenLine[] | null> {
  if (!Object.hasOwn(GRAMMAR_LOADERS, language)) return null;
  await register(language);
  return treeToLines(lowlight.highlight(language, text));
}

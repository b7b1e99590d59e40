// The worker's highlighter (highlight.worker.ts): lowlight's core and each grammar fetched on first use.
import { createLowlight } from 'lowlight';
import { GRAMMAR_LOADERS, GRAMMAR_REQUIRES } from './grammars';
import { treeToLines, type TokenLine } from './tokens';

const lowlight = createLowlight();
const registering = new Map<string, Promise<void>>();

/** The grammar and every grammar it embeds, however deep: some embed each other (javascript, xml). */
function withEmbedded(name: string, into = new Set<string>()): Set<string> {
  if (into.has(name) || !Object.hasOwn(GRAMMAR_LOADERS, name)) return into;
  into.add(name);
  for (const embedded of GRAMMAR_REQUIRES[name] ?? []) withEmbedded(embedded, into);
  return into;
}

/** Registers one grammar, fetched once (a failed fetch is tried again later). */
function load(name: string): Promise<void> {
  let done = registering.get(name);
  if (!done) {
    done = GRAMMAR_LOADERS[name]!().then((module) => lowlight.register(name, module.default));
    done.catch(() => registering.delete(name));
    registering.set(name, done);
  }
  return done;
}

/**
 * Registers a grammar and those it embeds, all fetched at once. (Following the embeds one by one recursed
 * forever on a cycle, so every JavaScript, TypeScript or HTML paste fell back to the main thread.)
 */
async function register(name: string): Promise<void> {
  await Promise.all([...withEmbedded(name)].map(load));
}

/** The text highlighted as `language`, line by line; null when highlight.js has no such grammar. */
export async function highlightLines(language: string, text: string): Promise<TokenLine[] | null> {
  if (!Object.hasOwn(GRAMMAR_LOADERS, language)) return null;
  await register(language);
  return treeToLines(lowlight.highlight(language, text));
}

import type { Element, ElementContent, Root, RootContent } from 'hast';
import type { LanguageFn } from 'highlight.js';
import type { createLowlight } from 'lowlight';

type Lowlight = ReturnType<typeof createLowlight>;

interface Grammar {
  aliases: readonly string[];
  /** Names of GRAMMARS. */
  requires?: readonly string[];
  load: () => Promise<{ default: LanguageFn }>;
}

/**
 * The grammars a fenced code block can name (lowlight's `common` set), each fetched the first time a
 * paste names it. `requires`: grammars it embeds (HTML's <script>, a shell session's commands), loaded
 * along. code-highlight.spec.ts checks the aliases and requires against highlight.js.
 */
const GRAMMAR_TABLE = {
  arduino: { aliases: ['ino'], load: () => import('highlight.js/lib/languages/arduino') },
  bash: { aliases: ['sh', 'zsh'], load: () => import('highlight.js/lib/languages/bash') },
  c: { aliases: ['h'], load: () => import('highlight.js/lib/languages/c') },
  cpp: {
    aliases: ['cc', 'c++', 'h++', 'hpp', 'hh', 'hxx', 'cxx'],
    load: () => import('highlight.js/lib/languages/cpp'),
  },
  csharp: { aliases: ['cs', 'c#'], load: () => import('highlight.js/lib/languages/csharp') },
  css: { aliases: [], load: () => import('highlight.js/lib/languages/css') },
  diff: { aliases: ['patch'], load: () => import('highlight.js/lib/languages/diff') },
  go: { aliases: ['golang'], load: () => import('highlight.js/lib/languages/go') },
  graphql: { aliases: ['gql'], load: () => import('highlight.js/lib/languages/graphql') },
  ini: { aliases: ['toml'], load: () => import('highlight.js/lib/languages/ini') },
  java: { aliases: ['jsp'], load: () => import('highlight.js/lib/languages/java') },
  javascript: {
    aliases: ['js', 'jsx', 'mjs', 'cjs'],
    requires: ['xml', 'css', 'graphql'],
    load: () => import('highlight.js/lib/languages/javascript'),
  },
  json: { aliases: ['jsonc', 'json5'], load: () => import('highlight.js/lib/languages/json') },
  kotlin: { aliases: ['kt', 'kts'], load: () => import('highlight.js/lib/languages/kotlin') },
  less: { aliases: [], load: () => import('highlight.js/lib/languages/less') },
  lua: { aliases: ['pluto'], load: () => import('highlight.js/lib/languages/lua') },
  makefile: { aliases: ['mk', 'mak', 'make'], load: () => import('highlight.js/lib/languages/makefile') },
  markdown: {
    aliases: ['md', 'mkdown', 'mkd'],
    requires: ['xml'],
    load: () => import('highlight.js/lib/languages/markdown'),
  },
  objectivec: {
    aliases: ['mm', 'objc', 'obj-c', 'obj-c++', 'objective-c++'],
    load: () => import('highlight.js/lib/languages/objectivec'),
  },
  perl: { aliases: ['pl', 'pm'], load: () => import('highlight.js/lib/languages/perl') },
  php: { aliases: [], load: () => import('highlight.js/lib/languages/php') },
  'php-template': {
    aliases: [],
    requires: ['xml', 'php'],
    load: () => import('highlight.js/lib/languages/php-template'),
  },
  plaintext: { aliases: ['text', 'txt'], load: () => import('highlight.js/lib/languages/plaintext') },
  python: { aliases: ['py', 'gyp', 'ipython'], load: () => import('highlight.js/lib/languages/python') },
  'python-repl': {
    aliases: ['pycon'],
    requires: ['python'],
    load: () => import('highlight.js/lib/languages/python-repl'),
  },
  r: { aliases: [], load: () => import('highlight.js/lib/languages/r') },
  ruby: {
    aliases: ['rb', 'gemspec', 'podspec', 'thor', 'irb'],
    load: () => import('highlight.js/lib/languages/ruby'),
  },
  rust: { aliases: ['rs'], load: () => import('highlight.js/lib/languages/rust') },
  scss: { aliases: [], load: () => import('highlight.js/lib/languages/scss') },
  shell: {
    aliases: ['console', 'shellsession'],
    requires: ['bash'],
    load: () => import('highlight.js/lib/languages/shell'),
  },
  sql: { aliases: [], load: () => import('highlight.js/lib/languages/sql') },
  swift: { aliases: [], load: () => import('highlight.js/lib/languages/swift') },
  typescript: {
    aliases: ['ts', 'tsx', 'mts', 'cts'],
    requires: ['xml', 'css', 'graphql'],
    load: () => import('highlight.js/lib/languages/typescript'),
  },
  vbnet: { aliases: ['vb'], load: () => import('highlight.js/lib/languages/vbnet') },
  wasm: { aliases: [], load: () => import('highlight.js/lib/languages/wasm') },
  xml: {
    aliases: ['html', 'xhtml', 'rss', 'atom', 'xjb', 'xsd', 'xsl', 'plist', 'wsf', 'svg'],
    requires: ['css', 'javascript'],
    load: () => import('highlight.js/lib/languages/xml'),
  },
  yaml: { aliases: ['yml'], requires: ['ruby'], load: () => import('highlight.js/lib/languages/yaml') },
} satisfies Record<string, Grammar>;

export type GrammarName = keyof typeof GRAMMAR_TABLE;
export const GRAMMARS: Readonly<Record<GrammarName, Grammar>> = GRAMMAR_TABLE;

const GRAMMAR_BY_NAME = new Map<string, GrammarName>(
  (Object.keys(GRAMMARS) as GrammarName[]).flatMap((name) => [
    [name, name] as const,
    ...GRAMMARS[name].aliases.map((alias) => [alias, name] as const),
  ]),
);

/** The grammar a fence's language names (case-insensitive, as highlight.js reads it), if we have it. */
export function grammarOf(language: string): GrammarName | undefined {
  return GRAMMAR_BY_NAME.get(language.toLowerCase());
}

/** A grammar and every grammar it embeds, transitively. */
export function withRequired(names: Iterable<GrammarName>): Set<GrammarName> {
  const all = new Set<GrammarName>();
  const add = (name: GrammarName) => {
    if (all.has(name)) return;
    all.add(name);
    (GRAMMARS[name].requires ?? []).forEach((required) => add(required as GrammarName));
  };
  for (const name of names) add(name);
  return all;
}

let lowlight: Promise<Lowlight> | null = null;
const registered = new Map<GrammarName, Promise<void>>();
/** The engine once loaded, and the grammars registered in it: what a paste can use without waiting. */
let engineLoaded: Lowlight | null = null;
const grammarsLoaded = new Set<GrammarName>();

/** Forgets a failed download, so the next paste that needs it tries again. */
function retryable<T>(promise: Promise<T>, forget: () => void): Promise<T> {
  promise.catch(forget);
  return promise;
}

/** highlight.js's engine with the given grammars (and those they embed) registered. */
export async function loadGrammars(names: Iterable<GrammarName>): Promise<Lowlight> {
  const engine = (lowlight ??= retryable(
    import('lowlight').then(({ createLowlight }) => (engineLoaded = createLowlight())),
    () => (lowlight = null),
  ));
  const instance = await engine;
  await Promise.all(
    [...withRequired(names)].map((name) => {
      let done = registered.get(name);
      if (!done) {
        done = retryable(
          GRAMMARS[name].load().then((module) => {
            instance.register(name, module.default);
            grammarsLoaded.add(name);
          }),
          () => registered.delete(name),
        );
        registered.set(name, done);
      }
      return done;
    }),
  );
  return instance;
}

/** The language a code element names (`language-x` or `lang-x`), false for `no-highlight`. */
function languageOf(code: Element): string | false | undefined {
  const classes = code.properties.className;
  if (!Array.isArray(classes)) return undefined;
  let name: string | undefined;
  for (const value of classes.map(String)) {
    if (value === 'no-highlight' || value === 'nohighlight') return false;
    if (!name && value.startsWith('lang-')) name = value.slice(5);
    if (!name && value.startsWith('language-')) name = value.slice(9);
  }
  return name;
}

/** The text of a hast subtree (a code block's source). */
export function textOf(node: ElementContent | RootContent): string {
  if (node.type === 'text') return node.value;
  return 'children' in node ? node.children.map(textOf).join('') : '';
}

/** Every `pre > code` element of a tree. */
function codeBlocks(node: Root | Element, found: Element[] = []): Element[] {
  for (const child of node.children) {
    if (child.type !== 'element') continue;
    if (child.tagName === 'code' && node.type === 'element' && node.tagName === 'pre') found.push(child);
    else codeBlocks(child, found);
  }
  return found;
}

/**
 * A rehype plugin: highlights each fenced block that names a language, as rehype-highlight does (the
 * `hljs` class, highlight.js's spans), fetching the grammars the page needs first. A block in a language
 * we have no grammar for, or whose grammar could not be fetched, stays plain text.
 */
export function rehypeHighlightCode() {
  // Synchronous when the grammars are there already (most pages after the first), so the rendering is.
  return function highlight(tree: Root): Promise<void> | undefined {
    const blocks = codeBlocks(tree).flatMap((code) => {
      const language = languageOf(code);
      return language ? [{ code, language }] : [];
    });
    if (blocks.length === 0) return undefined;

    const names = withRequired(blocks.flatMap(({ language }) => grammarOf(language) ?? []));
    if (names.size === 0 || (engineLoaded && [...names].every((name) => grammarsLoaded.has(name)))) {
      highlightBlocks(blocks, engineLoaded);
      return undefined;
    }
    return loadGrammars(names)
      .catch(() => null)
      .then((engine) => highlightBlocks(blocks, engine));
  };
}

function highlightBlocks(blocks: { code: Element; language: string }[], engine: Lowlight | null): void {
  for (const { code, language } of blocks) {
    const classes = Array.isArray(code.properties.className) ? code.properties.className : [];
    if (!classes.includes('hljs')) classes.unshift('hljs');
    code.properties.className = classes;
    if (!engine?.registered(language)) continue;
    const result = engine.highlight(language, textOf(code));
    if (result.children.length > 0) code.children = result.children as ElementContent[];
  }
}

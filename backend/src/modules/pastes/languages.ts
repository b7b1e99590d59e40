import { createRequire } from 'node:module';
import path from 'node:path';
import { BadRequestException } from '@nestjs/common';
import { ASCIICAST, PASTE_MESSAGES, looksLikeAsciicast, parseAsciicast } from '@termpaste/contracts';

/** highlight.js's name of Markdown: a paste in it is stored without a language (NULL), the default. */
const MARKDOWN = 'markdown';
/**
 * Terminal output: no grammar; the page colours its ANSI SGR sequences. Named, an `.ansi` file, or guessed
 * from SGR.
 */
export const ANSI = 'ansi';
/** One ANSI SGR sequence (colours, bold, underline, reset): `ESC [ params m`. */
// eslint-disable-next-line no-control-regex -- the escape character is what it looks for
const SGR = /\x1b\[[0-9;]*m/;

/** What the paste page can highlight: every name and alias, lower-cased, to its canonical name. */
interface Languages {
  canonical: ReadonlyMap<string, string>;
}

let loaded: Languages | undefined;

/**
 * highlight.js's languages, as the paste page highlights: read on first need, not at start-up (about 190
 * grammars).
 */
function languages(): Languages {
  if (loaded) return loaded;
  // CommonJS: its ESM entry only wraps this one.
  const hljs = createRequire(import.meta.url)('highlight.js') as typeof import('highlight.js').default;
  // A terminal recording: `.cast` is asciinema's extension.
  const canonical = new Map<string, string>([
    [ANSI, ANSI],
    [ASCIICAST, ASCIICAST],
    ['cast', ASCIICAST],
  ]);
  for (const name of hljs.listLanguages()) canonical.set(name.toLowerCase(), name);
  for (const name of hljs.listLanguages()) {
    for (const alias of hljs.getLanguage(name)?.aliases ?? []) {
      if (!canonical.has(alias.toLowerCase())) canonical.set(alias.toLowerCase(), name);
    }
  }
  loaded = { canonical };
  return loaded;
}

/** The canonical name of a highlight.js language name or alias (any case), or undefined for none. */
export function canonicalLanguage(name: string): string | undefined {
  return languages().canonical.get(name.trim().toLowerCase());
}

/**
 * The language a paste is stored with: the canonical name of `given` (a highlight.js name or alias, in
 * any case), or null for Markdown (the default: absent, null, blank or any of Markdown's names).
 * An unknown name is a 400 (PASTE_MESSAGES.unknownLanguage).
 */
export function pasteLanguage(given: string | null | undefined): string | null {
  if (given === undefined || given === null || given.trim() === '') return null;
  const name = canonicalLanguage(given);
  if (name === undefined) throw new BadRequestException(PASTE_MESSAGES.unknownLanguage(given.trim()));
  return name === MARKDOWN ? null : name;
}

/**
 * The language an uploaded file's name suggests, by its extension (`build.py`: python, `crash.txt`:
 * plaintext) or, without one, its whole name (`Makefile`, `Dockerfile`); null when it suggests none, or
 * Markdown. Never an error: a guess that fails is no language.
 */
export function languageOfFileName(fileName: string | undefined): string | null {
  if (!fileName) return null;
  const base = path.posix.basename(fileName.replaceAll('\\', '/'));
  const extension = path.posix.extname(base).slice(1);
  const name = canonicalLanguage(extension || base);
  return name === undefined || name === MARKDOWN ? null : name;
}

/** Whether the content has at least one ANSI SGR sequence (terminal output with colours). */
export function hasSgr(content: string): boolean {
  return SGR.test(content);
}

/**
 * The language of a paste none was named for: a recording when it is one, terminal output when it has SGR
 * sequences, else Markdown.
 */
export function guessLanguage(content: string): string | null {
  if (looksLikeAsciicast(content) && !('error' in parseAsciicast(content))) return ASCIICAST;
  return hasSgr(content) ? ANSI : null;
}

/**
 * 400 (ASCIICAST_MESSAGES) when the paste is to be stored as a recording (`language` asciicast) and its
 * content is not a well-formed asciicast v2 recording.
 */
export function checkRecording(language: string | null | undefined, content: string): void {
  if (language !== ASCIICAST) return;
  const parsed = parseAsciicast(content);
  if ('error' in parsed) throw new BadRequestException(parsed.error);
}

/**
 * The language a paste of the web form or the JSON API is stored with: `given` as pasteLanguage reads
 * it, or, when none was given (absent or blank; null names Markdown), the guess from its content.
 */
export function chosenOrGuessedLanguage(given: string | null | undefined, content: string): string | null {
  return given === undefined || (given !== null && given.trim() === '')
    ? guessLanguage(content)
    : pasteLanguage(given);
}

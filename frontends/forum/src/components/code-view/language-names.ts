import { HIGHLIGHT_LANGUAGES, type LanguageInfo } from './languages';

/** Terminal output: not a highlight.js grammar, the code view colours its ANSI SGR sequences. */
export const ANSI_LANGUAGE: LanguageInfo = { name: 'ansi', title: 'ANSI (terminal output)', aliases: [] };
/** The default: the paste renders as Markdown, not in the code view. */
export const MARKDOWN_LANGUAGE = 'markdown';

/** What the picker offers: Markdown first (the default), terminal output, then highlight.js's by title. */
export const PICKABLE_LANGUAGES: readonly LanguageInfo[] = [
  HIGHLIGHT_LANGUAGES.find((language) => language.name === MARKDOWN_LANGUAGE)!,
  ANSI_LANGUAGE,
  ...HIGHLIGHT_LANGUAGES.filter((language) => language.name !== MARKDOWN_LANGUAGE).sort((a, b) =>
    a.title.localeCompare(b.title, 'en', { sensitivity: 'base' }),
  ),
];

const BY_NAME = new Map(PICKABLE_LANGUAGES.map((language) => [language.name, language]));
const GRAMMAR_NAMES = new Set(HIGHLIGHT_LANGUAGES.map((language) => language.name));

/** Whether highlight.js has a grammar of that (canonical) name. */
export function isHighlightable(language: string | null): language is string {
  return language !== null && GRAMMAR_NAMES.has(language);
}

/** A language's title (`Python`, `ANSI (terminal output)`); its name when unknown, Plain text for none. */
export function languageTitle(name: string | null): string {
  if (name === null) return 'Plain text';
  return BY_NAME.get(name)?.title ?? name;
}

/** The languages whose name, alias or title contains the query (any case), best matches first. */
export function searchLanguages(query: string): readonly LanguageInfo[] {
  const q = query.trim().toLowerCase();
  if (!q) return PICKABLE_LANGUAGES;
  const rank = (language: LanguageInfo) => {
    const names = [language.name, ...language.aliases].map((name) => name.toLowerCase());
    if (names.includes(q) || language.title.toLowerCase() === q) return 0;
    if (names.some((name) => name.startsWith(q)) || language.title.toLowerCase().startsWith(q)) return 1;
    if (names.some((name) => name.includes(q)) || language.title.toLowerCase().includes(q)) return 2;
    return 3;
  };
  return PICKABLE_LANGUAGES.map((language) => ({ language, rank: rank(language) }))
    .filter(({ rank }) => rank < 3)
    .sort((a, b) => a.rank - b.rank)
    .map(({ language }) => language);
}

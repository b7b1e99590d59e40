export { CodeView, VIRTUALIZE_FROM, type CodeViewProps } from './code-view';
export {
  ANSI_LANGUAGE,
  languageTitle,
  MARKDOWN_LANGUAGE,
  PICKABLE_LANGUAGES,
  searchLanguages,
} from './language-names';
export { lineHash, parseLineHash, referencedLines, type LineRange } from './line-range';

/** Whether a paste's language shows it in the code view (anything but none and Markdown). */
export function isCodeLanguage(language: string | null | undefined): language is string {
  return typeof language === 'string' && language !== '' && language !== 'markdown';
}

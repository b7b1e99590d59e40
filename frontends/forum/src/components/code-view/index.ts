export { CodeView, VIRTUALIZE_FROM, type CodeViewProps } from './code-view';
export {
  ANSI_LANGUAGE,
  languageTitle,
  MARKDOWN_LANGUAGE,
  PICKABLE_LANGUAGES,
  searchLanguages,
} from './language-names';
export { lineHash, parseLineHash, referencedLines, type LineRange } from './line-range';

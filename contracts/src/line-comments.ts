import { z } from 'zod';
import { ID_MAX, storableText } from './text.js';

/*
 * Comments on lines: a top-level reply may point at a range of lines of one version of its paste and
 * suggest a replacement for them, which the paste's author may apply as a new version.
 */

/** A line comment covers at most this many lines. */
export const LINE_COMMENT_MAX_LINES = 200;
/** A suggested replacement: at most this many characters. */
export const SUGGESTION_MAX = 20_000;
/** The largest line number an anchor may name (a paste of 1 MiB has fewer lines). */
const LINE_NUMBER_MAX = 10_000_000;

export const LINE_COMMENT_MESSAGES = {
  lineNumber: 'fromLine and toLine must be whole numbers from 1',
  version: 'version must be a version number of the paste (from 1)',
  backwards: 'fromLine must not be after toLine',
  tooManyLines: `A line comment covers at most ${LINE_COMMENT_MAX_LINES} lines`,
  suggestionText: 'suggestion must be text',
  suggestionTooLong: `A suggestion must be at most ${SUGGESTION_MAX} characters`,
  /** 400: a suggestion without the lines it replaces. */
  suggestionNeedsAnchor: 'A suggestion needs the lines it replaces (anchor)',
  /** 400: line comments start threads; answers to one are ordinary replies under it. */
  anchorOnAnswer: 'A line comment starts a thread: it cannot answer another reply',
  /** 400: the lines are past the end of that version. */
  linesOutside: (lines: number, version: number) =>
    `Version ${version} of the paste has ${lines} line${lines === 1 ? '' : 's'}: the lines must be within it`,
  /** 400: a version the paste never had, or one pruned or removed. */
  versionUnknown: (version: number) => `The paste has no version ${version} to comment on`,
  /** 400: a suggestion that changes nothing. */
  suggestionSame: 'The suggestion is the same as the lines it replaces',
  /** 403: anyone but the paste's author. */
  notYourPaste: "Only the paste's author can apply a suggestion",
  /** 404: the reply is not a live comment of this paste. */
  commentNotFound: 'Comment not found on this paste',
  /** 422: a reply without a suggestion. */
  noSuggestion: 'This comment carries no suggestion',
  /** 409: applied before. */
  alreadyApplied: (version: number) => `This suggestion was already applied (version ${version})`,
  /** 409: a later version changed the lines. */
  linesChanged: (version: number) =>
    `The lines changed since this suggestion was made on version ${version}: it no longer applies`,
  /** 422: applying it would leave the paste blank. */
  wouldEmpty: 'Applying this suggestion would leave the paste empty',
} as const;

/** What the pages say of line comments. */
export const LINE_COMMENT_TEXTS = {
  olderVersion: 'on an older version',
  lines: (from: number, to: number) => (from === to ? `line ${from}` : `lines ${from}\u2013${to}`),
  applied: (version: number) => `applied in version ${version}`,
  suggestedBy: (username: string) => `suggested by ${username}`,
} as const;

const lineNumber = z
  .number(LINE_COMMENT_MESSAGES.lineNumber)
  .int(LINE_COMMENT_MESSAGES.lineNumber)
  .min(1, LINE_COMMENT_MESSAGES.lineNumber)
  .max(LINE_NUMBER_MAX, LINE_COMMENT_MESSAGES.lineNumber);

/** The lines a comment is on: `fromLine`..`toLine` (1-based, inclusive) of the paste's version `version`. */
export const lineAnchorSchema = z
  .object({
    fromLine: lineNumber,
    toLine: lineNumber,
    version: z
      .number(LINE_COMMENT_MESSAGES.version)
      .int(LINE_COMMENT_MESSAGES.version)
      .min(1, LINE_COMMENT_MESSAGES.version)
      .max(ID_MAX, LINE_COMMENT_MESSAGES.version),
  })
  .refine((anchor) => anchor.fromLine <= anchor.toLine, {
    message: LINE_COMMENT_MESSAGES.backwards,
    path: ['toLine'],
  })
  .refine((anchor) => anchor.toLine - anchor.fromLine < LINE_COMMENT_MAX_LINES, {
    message: LINE_COMMENT_MESSAGES.tooManyLines,
    path: ['toLine'],
  });
export type LineAnchor = z.infer<typeof lineAnchorSchema>;

/** The replacement text for the anchored lines ('' removes them); kept as written. */
export const suggestionSchema = z.preprocess(
  storableText,
  z.string(LINE_COMMENT_MESSAGES.suggestionText).max(SUGGESTION_MAX, LINE_COMMENT_MESSAGES.suggestionTooLong),
);

/**
 * A line comment's own rules beyond its fields' (the one home both ends ask): null when `body` may be
 * posted, else the server's 400 message.
 */
export function lineCommentRefusal(body: {
  parentId?: number | null;
  anchor?: LineAnchor | null;
  suggestion?: string | null;
}): string | null {
  const anchored = body.anchor !== undefined && body.anchor !== null;
  if (body.suggestion !== undefined && body.suggestion !== null && !anchored) {
    return LINE_COMMENT_MESSAGES.suggestionNeedsAnchor;
  }
  if (anchored && body.parentId !== undefined && body.parentId !== null) {
    return LINE_COMMENT_MESSAGES.anchorOnAnswer;
  }
  return null;
}

/**
 * A paste's lines as the code view numbers them: CRLF read as LF, a final line feed ending the last
 * line rather than starting another.
 */
export function pasteLines(text: string): string[] {
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** Lines `from`..`to` (1-based, inclusive) of `text`, joined by line feeds. */
export function anchoredText(text: string, from: number, to: number): string {
  return pasteLines(text)
    .slice(from - 1, to)
    .join('\n');
}

/** A suggestion's lines ('' is none: the lines are removed). */
export function suggestionLines(suggestion: string): string[] {
  return suggestion === '' ? [] : pasteLines(suggestion);
}

/**
 * `text` with lines `from`..`to` replaced by `suggestion`'s, keeping the text's line endings (CRLF
 * when it has any) and its final line feed.
 */
export function applySuggestion(text: string, from: number, to: number, suggestion: string): string {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const lines = pasteLines(text);
  const next = [...lines.slice(0, from - 1), ...suggestionLines(suggestion), ...lines.slice(to)];
  const ending = /\r?\n$/.test(text) && next.length > 0 ? eol : '';
  return next.join(eol) + ending;
}

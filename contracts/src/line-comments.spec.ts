import {
  applySuggestion,
  anchoredText,
  LINE_COMMENT_MAX_LINES,
  LINE_COMMENT_MESSAGES,
  lineAnchorSchema,
  lineCommentRefusal,
  pasteLines,
  suggestionLines,
} from './line-comments.js';

describe('line comments', () => {
  it('numbers lines as the code view does', () => {
    expect(pasteLines('a\nb\n')).toEqual(['a', 'b']);
    expect(pasteLines('a\r\nb')).toEqual(['a', 'b']);
    expect(pasteLines('a\n\n')).toEqual(['a', '']);
    expect(anchoredText('1\n2\n3\n4\n', 2, 3)).toBe('2\n3');
    expect(suggestionLines('')).toEqual([]);
    expect(suggestionLines('x\n')).toEqual(['x']);
  });

  it('replaces the lines, keeping the line endings and the final line feed', () => {
    expect(applySuggestion('1\n2\n3\n4\n', 2, 3, 'two')).toBe('1\ntwo\n4\n');
    expect(applySuggestion('1\r\n2\r\n3', 3, 3, 'x\ny')).toBe('1\r\n2\r\nx\r\ny');
    expect(applySuggestion('1\n2\n3\n', 1, 2, '')).toBe('3\n');
    expect(applySuggestion('1\n', 1, 1, '')).toBe('');
  });

  it('bounds the anchor', () => {
    const issue = (anchor: object) => lineAnchorSchema.safeParse(anchor).error?.issues[0]?.message;
    expect(issue({ fromLine: 1, toLine: 1, version: 1 })).toBeUndefined();
    expect(issue({ fromLine: 0, toLine: 1, version: 1 })).toBe(LINE_COMMENT_MESSAGES.lineNumber);
    expect(issue({ fromLine: 2, toLine: 1, version: 1 })).toBe(LINE_COMMENT_MESSAGES.backwards);
    expect(issue({ fromLine: 1, toLine: LINE_COMMENT_MAX_LINES + 1, version: 1 })).toBe(
      LINE_COMMENT_MESSAGES.tooManyLines,
    );
    expect(issue({ fromLine: 1, toLine: LINE_COMMENT_MAX_LINES, version: 1 })).toBeUndefined();
    expect(issue({ fromLine: 1, toLine: 1, version: 0 })).toBe(LINE_COMMENT_MESSAGES.version);
  });

  it('takes a suggestion only with lines, and lines only on a top-level reply', () => {
    const anchor = { fromLine: 1, toLine: 1, version: 1 };
    expect(lineCommentRefusal({ anchor, suggestion: 'x' })).toBeNull();
    expect(lineCommentRefusal({ suggestion: 'x' })).toBe(LINE_COMMENT_MESSAGES.suggestionNeedsAnchor);
    expect(lineCommentRefusal({ anchor, parentId: 4 })).toBe(LINE_COMMENT_MESSAGES.anchorOnAnswer);
    expect(lineCommentRefusal({ parentId: 4 })).toBeNull();
  });
});

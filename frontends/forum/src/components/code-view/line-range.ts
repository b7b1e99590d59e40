/** A range of lines, 1-based and inclusive: `#L12` is { start: 12, end: 12 }. */
export interface LineRange {
  start: number;
  end: number;
}

const HASH = /^#L(\d{1,7})(?:-L?(\d{1,7}))?$/;

/** The range a `#L12` or `#L12-L20` hash names, within a text of `lineCount` lines; null for any other. */
export function parseLineHash(hash: string, lineCount: number): LineRange | null {
  const match = HASH.exec(hash);
  if (!match) return null;
  const a = Number(match[1]);
  const b = match[2] === undefined ? a : Number(match[2]);
  const start = Math.min(a, b);
  const end = Math.min(Math.max(a, b), lineCount);
  if (start < 1 || start > lineCount) return null;
  return { start, end };
}

/** `#L12` for one line, `#L12-L20` for more. */
export function lineHash({ start, end }: LineRange): string {
  return start === end ? `#L${start}` : `#L${start}-L${end}`;
}

/**
 * The lines of its paste a reply's text points at: `#L12-L20` alone, or a link to this paste with that
 * hash (`/thread/7#L12`, `https://host/thread/7#L12-L20`). The first such reference, if any.
 */
export function referencedLines(text: string, threadId: number | string): LineRange | null {
  const pattern = new RegExp(
    String.raw`(?:^|[\s(\[<])(?:(?:https?://[^\s/#]+)?/thread/(\d+))?#L(\d{1,7})(?:-L?(\d{1,7}))?(?![\w-])`,
    'g',
  );
  for (const match of text.matchAll(pattern)) {
    if (match[1] !== undefined && match[1] !== String(threadId)) continue;
    const a = Number(match[2]);
    const b = match[3] === undefined ? a : Number(match[3]);
    if (a < 1 || b < 1) continue;
    return { start: Math.min(a, b), end: Math.max(a, b) };
  }
  return null;
}

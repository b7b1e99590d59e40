/**
 * `@username` mentions in Markdown. A username is `[A-Za-z0-9_-]{3,32}` (the users table's format); a
 * mention is not preceded by a word character, `.`, `@` or `-` (so `bob@example.com` mentions nobody) and
 * not followed by another username character or `@` (`@example.com` style fragments stay whole). Code is
 * not read: fenced code blocks and inline code spans are skipped.
 */
const MENTION = /(?<![\w.@-])@([A-Za-z0-9_-]{3,32})(?![A-Za-z0-9_@-])/g;

const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})/;

/** The text with the lines of fenced code blocks (fences included) emptied. An unclosed fence runs to the end. */
function withoutFencedBlocks(text: string): string {
  const lines = text.split(/\r\n|\r|\n/);
  let fence: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (fence === undefined) {
      const open = FENCE_OPEN.exec(line);
      // A backtick fence's info string cannot hold a backtick (CommonMark): such a line is inline code.
      if (open && !(open[1]![0] === '`' && line.slice(open[0].length).includes('`'))) {
        fence = open[1]!;
        lines[i] = '';
      }
      continue;
    }
    const close = /^ {0,3}(`{3,}|~{3,})[ \t]*$/.exec(line);
    if (close && close[1]![0] === fence[0] && close[1]!.length >= fence.length) fence = undefined;
    lines[i] = '';
  }
  return lines.join('\n');
}

/**
 * The text with inline code spans blanked: a run of n backticks opens a span closed by the next run of
 * exactly n backticks; a run never closed is plain text.
 */
function withoutCodeSpans(text: string): string {
  const runs = [...text.matchAll(/`+/g)].map((m) => ({ start: m.index, length: m[0].length }));
  let out = '';
  let copiedTo = 0;
  for (let i = 0; i < runs.length; i++) {
    const open = runs[i]!;
    if (open.start < copiedTo) continue;
    let closeIndex = i + 1;
    while (closeIndex < runs.length && runs[closeIndex]!.length !== open.length) closeIndex++;
    if (closeIndex === runs.length) continue;
    const close = runs[closeIndex]!;
    out += `${text.slice(copiedTo, open.start)} `;
    copiedTo = close.start + close.length;
    i = closeIndex;
  }
  return out + text.slice(copiedTo);
}

/**
 * The distinct usernames mentioned in `markdown`, in order of first mention, lower-cased (usernames are
 * unique without regard to case); at most `limit` of them.
 */
export function mentionedUsernames(markdown: string, limit = Number.POSITIVE_INFINITY): string[] {
  const names = new Set<string>();
  for (const match of withoutCodeSpans(withoutFencedBlocks(markdown)).matchAll(MENTION)) {
    if (names.size >= limit) break;
    names.add(match[1]!.toLowerCase());
  }
  return [...names];
}

/** Whether `markdown` @mentions anyone at all (a post that does not has no mention to notify). */
export function mentionsAnyone(markdown: string): boolean {
  return markdown.includes('@') && mentionedUsernames(markdown, 1).length > 0;
}

import type { PasteDetail, ReplyView } from '@termpaste/contracts';

/*
 * `termpaste get ID --comments`: the paste's replies under its text, each line comment with the lines it
 * is on (and its suggested change as a diff), like a code review in the terminal.
 */

/** A paste's lines as the site numbers them (CRLF read as LF; a final line feed ends the last line). */
export function lines(text: string): string[] {
  const split = text.replace(/\r\n/g, '\n').split('\n');
  if (split.length > 1 && split[split.length - 1] === '') split.pop();
  return split;
}

/** `line 3` or `lines 3-5`. */
export function lineRange(from: number, to: number): string {
  return from === to ? `line ${from}` : `lines ${from}-${to}`;
}

/**
 * The replies of `paste`, oldest first, as text. `versions`: the text of each older version a line
 * comment is on (null when it is no longer kept), by number; the paste's own text stands for the rest.
 */
export function formatComments(
  paste: Pick<PasteDetail, 'content' | 'replies'>,
  versions: ReadonlyMap<number, readonly string[] | null> = new Map(),
): string {
  const shown = paste.replies.filter((reply) => !reply.deleted);
  if (shown.length === 0) return 'No comments.\n';
  const current = lines(paste.content ?? '');
  const blocks = shown.map((reply) => formatReply(reply, current, versions));
  return `${shown.length} comment${shown.length === 1 ? '' : 's'}\n\n${blocks.join('\n')}`;
}

function formatReply(
  reply: ReplyView,
  current: readonly string[],
  versions: ReadonlyMap<number, readonly string[] | null>,
): string {
  const who = reply.author?.username ?? 'Anonymous';
  const when = reply.createdAt.slice(0, 16).replace('T', ' ');
  const answer = reply.parentId === null ? '' : ` (answering #${reply.parentId})`;
  const out: string[] = [];
  const anchor = reply.anchor;
  if (!anchor) {
    out.push(`#${reply.id} ${who} ${when}${answer}`);
  } else {
    const older = reply.outdated ? ` (on an older version: v${anchor.version})` : '';
    out.push(`#${reply.id} ${who} on ${lineRange(anchor.fromLine, anchor.toLine)} ${when}${older}`);
    const source = reply.outdated ? versions.get(anchor.version) : current;
    if (source === null || source === undefined) {
      out.push(`  (version ${anchor.version} is no longer kept)`);
    } else {
      const width = String(anchor.toLine).length;
      for (let n = anchor.fromLine; n <= anchor.toLine; n++) {
        out.push(`  ${String(n).padStart(width)} | ${source[n - 1] ?? ''}`);
      }
    }
  }
  const text = reply.hidden ? '[hidden pending review]' : reply.content;
  for (const line of text.split('\n')) out.push(`  ${line}`);
  if (anchor && reply.suggestion !== undefined) {
    const applied = reply.suggestionApplied ? ` (applied in version ${reply.suggestionApplied})` : '';
    out.push(`  suggested change${applied}:`);
    const source = reply.outdated ? versions.get(anchor.version) : current;
    for (const line of (source ?? []).slice(anchor.fromLine - 1, anchor.toLine)) out.push(`  - ${line}`);
    for (const line of reply.suggestion === '' ? [] : lines(reply.suggestion)) out.push(`  + ${line}`);
  }
  return `${out.join('\n')}\n`;
}

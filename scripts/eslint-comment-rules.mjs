// Comments say why in a line or two: the history of a line lives in git and the docs, so a comment
// never cites an issue or a spec section, and a longer explanation belongs in docs/.

// Upstream references (owner/repo#123) and character references (&#64;) are not our issues.
const ISSUE = /\bissues?\s*#?\d+|(?<![\w/&.-])#\d+\b(?![\w;])/i;
const SECTION = /§\s*[\d.]*|\bSPEC\b|\b[Ss]ections? \d+/;

/** What a comment cites instead of saying why, or null. Code spans (`#12` in quoted output) never cite. */
export function citation(comment) {
  const text = comment.replace(/`[^`\n]*`/g, '');
  return text.match(ISSUE)?.[0] ?? text.match(SECTION)?.[0] ?? null;
}

export const MAX_BLOCK_LINES = 5;

/**
 * Comments on their own lines, grouped when consecutive: `[{ first, last, lines }]`. A comment after code
 * on its line belongs to that code, not to a block. `lines`: the file's lines.
 */
export function commentBlocks(comments, lines) {
  const blocks = [];
  for (const comment of comments) {
    if (lines[comment.loc.start.line - 1].slice(0, comment.loc.start.column).trim() !== '') continue;
    const block = blocks.at(-1);
    if (block && comment.loc.start.line <= block.last.loc.end.line + 1) block.last = comment;
    else blocks.push({ first: comment, last: comment });
  }
  return blocks.map((b) => ({ ...b, lines: b.last.loc.end.line - b.first.loc.start.line + 1 }));
}

const noCitations = {
  meta: {
    type: 'suggestion',
    schema: [],
    messages: { cites: 'A comment says why, not which issue or spec section ("{{what}}").' },
  },
  create(context) {
    return {
      Program() {
        for (const comment of context.sourceCode.getAllComments()) {
          const what = citation(comment.value);
          if (what) context.report({ loc: comment.loc, messageId: 'cites', data: { what } });
        }
      },
    };
  },
};

const shortBlocks = {
  meta: {
    type: 'suggestion',
    schema: [],
    messages: {
      long: 'A comment block of {{lines}} lines: move it to the docs or cut it to {{max}} lines at most.',
    },
  },
  create(context) {
    return {
      Program() {
        for (const block of commentBlocks(context.sourceCode.getAllComments(), context.sourceCode.lines)) {
          if (block.lines > MAX_BLOCK_LINES) {
            const loc = { start: block.first.loc.start, end: block.last.loc.end };
            context.report({ loc, messageId: 'long', data: { lines: block.lines, max: MAX_BLOCK_LINES } });
          }
        }
      },
    };
  },
};

export default { rules: { 'no-citations': noCitations, 'short-blocks': shortBlocks } };

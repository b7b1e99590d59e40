import type { ElementContent, Root, RootContent } from 'hast';

/** A run of highlighted text: highlight.js's classes (`hljs-keyword`…) of every scope it is in. */
export interface Token {
  text: string;
  className?: string;
}
/** One line of a paste, highlighted (no line feed in it). */
export type TokenLine = Token[];

/** A highlighted tree as lines of tokens: a scope that spans a line feed goes on on the next line. */
export function treeToLines(tree: Root): TokenLine[] {
  const lines: TokenLine[] = [[]];
  const walk = (nodes: (RootContent | ElementContent)[], classes: string) => {
    for (const node of nodes) {
      if (node.type === 'text') {
        node.value.split('\n').forEach((piece, index) => {
          if (index > 0) lines.push([]);
          if (piece)
            lines[lines.length - 1]!.push(classes ? { text: piece, className: classes } : { text: piece });
        });
      } else if (node.type === 'element') {
        const own = Array.isArray(node.properties.className) ? node.properties.className.join(' ') : '';
        walk(node.children, own ? (classes ? `${classes} ${own}` : own) : classes);
      }
    }
  };
  walk(tree.children, '');
  return lines;
}

/**
 * Highlighted lines as a few typed arrays (what the worker sends: transferred, not copied, and nothing
 * for the page to rebuild until a line is on screen): each token's length and class, by line. The text
 * itself is the page's already.
 */
export interface EncodedLines {
  classes: string[];
  /** Line i's tokens are tokens[lineStarts[i]] up to tokens[lineStarts[i + 1]]. */
  lineStarts: Uint32Array;
  lengths: Uint32Array;
  /** An index in `classes`, plus one (0: no class). */
  classIds: Uint16Array;
}

export function encodeLines(lines: TokenLine[]): EncodedLines {
  const classes: string[] = [];
  const classIndex = new Map<string, number>();
  const count = lines.reduce((sum, line) => sum + line.length, 0);
  const lineStarts = new Uint32Array(lines.length + 1);
  const lengths = new Uint32Array(count);
  const classIds = new Uint16Array(count);
  let token = 0;
  lines.forEach((line, index) => {
    lineStarts[index] = token;
    for (const { text, className } of line) {
      lengths[token] = text.length;
      if (className) {
        let id = classIndex.get(className);
        if (id === undefined) {
          id = classes.push(className);
          classIndex.set(className, id);
        }
        classIds[token] = id;
      }
      token++;
    }
  });
  lineStarts[lines.length] = token;
  return { classes, lineStarts, lengths, classIds };
}

/** Line `index` of encoded lines, its tokens cut from the line's text; null if they do not fit it. */
export function decodeLine(encoded: EncodedLines, index: number, text: string): TokenLine | null {
  if (index + 1 >= encoded.lineStarts.length) return null;
  const line: TokenLine = [];
  let offset = 0;
  for (let token = encoded.lineStarts[index]!; token < encoded.lineStarts[index + 1]!; token++) {
    const length = encoded.lengths[token]!;
    const id = encoded.classIds[token]!;
    const piece = text.slice(offset, offset + length);
    line.push(id ? { text: piece, className: encoded.classes[id - 1]! } : { text: piece });
    offset += length;
  }
  return offset === text.length ? line : null;
}

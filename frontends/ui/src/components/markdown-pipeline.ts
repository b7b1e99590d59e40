// The Markdown pipeline without React: what markdown-renderer.tsx gives react-markdown, and what the
// Markdown worker (markdown.worker.ts) runs off the main thread to the same tree.
import type { Nodes, Root } from 'hast';
import { urlAttributes } from 'html-url-attributes';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import remarkRehype from 'remark-rehype';
import { unified } from 'unified';
import { visit } from 'unist-util-visit';
import { rehypeHighlightCode } from '../lib/code-highlight.js';

export const remarkPlugins = [remarkGfm];
export const rehypePlugins = [rehypeHighlightCode];

/**
 * As react-markdown builds its processor: raw HTML kept as `raw` nodes, turned into text by finishTree.
 * `parsed` is called between the parse (which some inputs make slow) and the highlighting.
 */
function processor(parsed: () => void) {
  return unified()
    .use(remarkParse)
    .use(remarkPlugins)
    .use(remarkRehype, { allowDangerousHtml: true })
    .use(() => () => void parsed())
    .use(rehypePlugins);
}

const SAFE_PROTOCOL = /^(https?|ircs?|mailto|xmpp)$/i;

/**
 * react-markdown's URL rule (its `defaultUrlTransform`, which markdown-pipeline.spec.ts compares this
 * with), copied so the worker does not load react-markdown, and React with it: a relative address or
 * one of the protocols above is kept, anything else blanked.
 */
export function urlTransform(value: string): string {
  const colon = value.indexOf(':');
  const questionMark = value.indexOf('?');
  const numberSign = value.indexOf('#');
  const slash = value.indexOf('/');
  if (
    colon === -1 ||
    (slash !== -1 && colon > slash) ||
    (questionMark !== -1 && colon > questionMark) ||
    (numberSign !== -1 && colon > numberSign) ||
    SAFE_PROTOCOL.test(value.slice(0, colon))
  ) {
    return value;
  }
  return '';
}

/**
 * What react-markdown does to the tree before it makes React elements of it, with our options (no
 * allowed or disallowed elements, no skipHtml, its default URL rule): raw HTML becomes its text, and
 * each URL attribute goes through the URL rule (javascript:, data:, … blanked).
 */
export function finishTree(tree: Root): Root {
  visit(tree as Nodes, (node, index, parent) => {
    if (node.type === 'raw' && parent && typeof index === 'number') {
      parent.children[index] = { type: 'text', value: node.value };
      return index;
    }
    if (node.type === 'element') {
      for (const key of Object.keys(urlAttributes)) {
        if (!Object.hasOwn(node.properties, key)) continue;
        const test = urlAttributes[key];
        if (test === null || test?.includes(node.tagName)) {
          node.properties[key] = urlTransform(String(node.properties[key] || ''));
        }
      }
    }
    return undefined;
  });
  return tree;
}

/** Drops the source positions (nothing renders them), so a large tree crosses to the page lighter. */
function withoutPositions(tree: Root): Root {
  visit(tree as Nodes, (node) => {
    delete node.position;
  });
  return tree;
}

/**
 * A member's Markdown as the tree react-markdown would render (finishTree applied), its code highlighted
 * (the grammars it names fetched first). `parsed`: told when only the highlighting is left.
 */
export async function markdownTree(markdown: string, parsed: () => void = () => {}): Promise<Root> {
  const pipeline = processor(parsed);
  const tree = await pipeline.run(pipeline.parse(markdown));
  return withoutPositions(finishTree(tree));
}

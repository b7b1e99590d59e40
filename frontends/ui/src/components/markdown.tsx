import type { Element, ElementContent } from 'hast';
import { memo, type ComponentProps } from 'react';
import ReactMarkdown, { type Components } from 'react-markdown';
import rehypeHighlight from 'rehype-highlight';
import remarkGfm from 'remark-gfm';
import { cx } from '../lib/cx.js';
import { CopyButton } from './copy-button.js';

/** The text of a hast subtree (a code block's source, for its copy button). */
function textOf(node: Element | ElementContent): string {
  if (node.type === 'text') return node.value;
  if ('children' in node) return node.children.map(textOf).join('');
  return '';
}

function CodeBlock({ node, children, className, ...props }: ComponentProps<'pre'> & { node?: Element }) {
  const source = node ? textOf(node).replace(/\n$/, '') : '';
  return (
    <div className="tp-code-block">
      <CopyButton text={source} className="tp-code-block__copy" aria-label="Copy code" />
      <pre {...props} className={className}>
        {children}
      </pre>
    </div>
  );
}

function MarkdownLink({ node: _node, href, children, ...props }: ComponentProps<'a'> & { node?: Element }) {
  // A link the URL rule blanked (javascript:, data:, …) is no link at all.
  if (!href) return <span className="tp-markdown__dead-link">{children}</span>;
  // Another site opens in a new tab; mailto and xmpp hand over to an app, in place.
  const external = /^(https?|ircs?):|^\/\//i.test(href);
  return (
    <a
      {...props}
      href={href}
      {...(external ? { target: '_blank', rel: 'noopener noreferrer nofollow ugc' } : {})}
    >
      {children}
    </a>
  );
}

const components: Components = { pre: CodeBlock, a: MarkdownLink };

export interface MarkdownProps {
  children: string;
  className?: string;
}

/**
 * Member-written Markdown (SPEC §5): GitHub-flavoured, fenced code highlighted with a copy button.
 * Links other than http(s), irc(s), mailto, xmpp or relative are blanked (react-markdown's default URL
 * rule is exactly that list) and raw HTML is shown as text: no rehype-raw, ever.
 */
export const Markdown = memo(function Markdown({ children, className }: MarkdownProps) {
  return (
    <div className={cx('tp-markdown', className)}>
      <ReactMarkdown remarkPlugins={[remarkGfm]} rehypePlugins={[rehypeHighlight]} components={components}>
        {children}
      </ReactMarkdown>
    </div>
  );
});

// Loaded on demand (markdown.tsx): the Markdown parser and its plugins are the weight of this file.
import { API, MARKDOWN_TEXTS } from '@termpaste/contracts';
import type { Element, Root } from 'hast';
import { toJsxRuntime, type Components as JsxComponents } from 'hast-util-to-jsx-runtime';
import { useEffect, useMemo, useState, type ComponentProps, type ReactNode } from 'react';
import { Fragment, jsx, jsxs } from 'react/jsx-runtime';
import { MarkdownHooks, type Components } from 'react-markdown';
import { textOf } from '../lib/code-highlight.js';
import { CopyButton } from './copy-button.js';
import { rehypePlugins, remarkPlugins } from './markdown-pipeline.js';
import {
  markdownWorkerAvailable,
  parseInWorker,
  type MarkdownOutcome,
  type PlainReason,
} from './markdown-worker-client.js';
import { Notice } from './notice.js';

export { warmMarkdownWorker } from './markdown-worker-client.js';

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

/** Where our own origin serves uploaded files (the local storage's `/api/uploads/<key>`). */
const UPLOADS_PATH = `${API.uploads}/`;

/**
 * What an image address (relative ones included) is: an uploaded file of our own origin (its address
 * resolved, dot segments and all, as the browser would), another address of our own origin (an API
 * route: `/api/logout` would sign the reader out), another site's, or no address at all.
 */
function imageSource(src: string): { kind: 'upload'; url: string } | { kind: 'own' | 'other' | 'invalid' } {
  let url: URL;
  try {
    url = new URL(src, window.location.href);
  } catch {
    return { kind: 'invalid' };
  }
  if (url.origin !== window.location.origin) return { kind: 'other' };
  return url.pathname.startsWith(UPLOADS_PATH) ? { kind: 'upload', url: url.href } : { kind: 'own' };
}

/**
 * Only our own uploads (`/api/uploads/`) load. Another address of ours never loads (an image is a GET
 * with the reader's cookies: `![](/api/logout)` must do nothing) and shows struck out; another site's
 * becomes a link, loaded on demand (the CSP blocks it, and loading it would tell that site who reads).
 */
function MarkdownImage({
  node: _node,
  src,
  alt,
  title,
  ...props
}: ComponentProps<'img'> & { node?: Element }) {
  if (typeof src !== 'string' || !src)
    return alt ? <span className="tp-markdown__dead-link">{alt}</span> : null;
  const source = imageSource(src);
  if (source.kind === 'upload') {
    return <img {...props} src={source.url} alt={alt ?? ''} title={title} loading="lazy" />;
  }
  if (source.kind !== 'other') {
    return (
      <span className="tp-markdown__image-link tp-markdown__dead-link" title={title}>
        [image: {alt || src}]
      </span>
    );
  }
  let host = src;
  try {
    host = new URL(src).host;
  } catch {
    // Shown as written.
  }
  return (
    <a
      className="tp-markdown__image-link"
      href={src}
      title={title ?? src}
      target="_blank"
      rel="noopener noreferrer nofollow ugc"
    >
      [image: {alt || host}]
    </a>
  );
}

/**
 * A member's headings sit under the screen's own (a paste's title is the screen's one h1): `#` is an h2,
 * `##` an h3, … `#####` and `######` h6. `data-level` keeps the level as written, for the look
 * (`# ` before a `#` heading).
 */
function nestedHeading(written: 1 | 2 | 3 | 4 | 5 | 6) {
  const Tag = `h${Math.min(written + 1, 6)}` as 'h2' | 'h3' | 'h4' | 'h5' | 'h6';
  return function MarkdownHeading({ node: _node, ...props }: ComponentProps<'h2'> & { node?: Element }) {
    return <Tag {...props} data-level={written} />;
  };
}

/** How each element is drawn, on either path (exported for the test that compares the two). */
export const components: Components = {
  pre: CodeBlock,
  a: MarkdownLink,
  img: MarkdownImage,
  h1: nestedHeading(1),
  h2: nestedHeading(2),
  h3: nestedHeading(3),
  h4: nestedHeading(4),
  h5: nestedHeading(5),
  h6: nestedHeading(6),
};

/**
 * The longest text parsed on the main thread, at once (as short replies, messages and bios are): the
 * slowest input we know of at this length (1,000 nested `>` or `- >` repeated) parses in about 50 ms
 * there, while parse time grows with the square or worse of the length. Longer texts go to the worker.
 */
export const MAIN_THREAD_MAX_CHARS = 1_000;

const plainNotes: Record<PlainReason, string> = {
  slow: MARKDOWN_TEXTS.plainSlow,
  unavailable: MARKDOWN_TEXTS.plainUnavailable,
  failed: MARKDOWN_TEXTS.plainFailed,
};

/** A text shown as written, under a note saying why it is not formatted. */
function PlainMarkdown({ text, reason }: { text: string; reason: PlainReason }) {
  return (
    <>
      <Notice tone="note" className="tp-markdown__plain-note">
        {plainNotes[reason]}
      </Notice>
      <div className="tp-markdown__plain" data-plain={reason}>
        {text}
      </div>
    </>
  );
}

/** The worker's tree as React elements, exactly as react-markdown makes them of its own. */
function treeToElements(tree: Root): ReactNode {
  return toJsxRuntime(tree, {
    Fragment,
    components: components as JsxComponents,
    ignoreInvalidStyle: true,
    jsx,
    jsxs,
    passKeys: true,
    passNode: true,
  });
}

/** A text parsed in the worker (MarkdownRenderer); the previous one stays on screen meanwhile. */
function OffThreadMarkdown({ text, fallback }: { text: string; fallback: ReactNode }) {
  const [done, setDone] = useState<{ text: string; outcome: MarkdownOutcome } | null>(null);
  const available = markdownWorkerAvailable();
  useEffect(() => {
    if (!available) return;
    const job = parseInWorker(text);
    let live = true;
    void job.result.then((outcome) => {
      if (live) setDone({ text, outcome });
    });
    return () => {
      live = false;
      job.cancel();
    };
  }, [text, available]);
  const rendered = useMemo(
    () => (done && 'tree' in done.outcome ? treeToElements(done.outcome.tree) : null),
    [done],
  );
  // No worker here (a test's jsdom, a remote on another origin): never a parse this long on the main thread.
  if (!available) return <PlainMarkdown text={text} reason="unavailable" />;
  if (!done) return fallback;
  if ('plain' in done.outcome) return <PlainMarkdown text={done.text} reason={done.outcome.plain} />;
  return rendered;
}

/**
 * Member-written Markdown: GitHub-flavoured, code highlighted, raw HTML shown as text (no rehype-raw,
 * ever), unsafe link protocols blanked. A text over MAIN_THREAD_MAX_CHARS is parsed in a worker with a
 * time budget, so no text blocks the page. What it renders and why: docs/frontend.md.
 */
export default function MarkdownRenderer({ children, fallback }: { children: string; fallback: ReactNode }) {
  if (children.length > MAIN_THREAD_MAX_CHARS)
    return <OffThreadMarkdown text={children} fallback={fallback} />;
  return (
    <MarkdownHooks
      remarkPlugins={remarkPlugins}
      rehypePlugins={rehypePlugins}
      components={components}
      fallback={fallback}
    >
      {children}
    </MarkdownHooks>
  );
}

import { Component, lazy, memo, Suspense, type ReactNode } from 'react';
import { cx } from '../lib/cx.js';

// The parser, its plugins and the highlighter are fetched with the first Markdown a page shows, never
// with the pages that show none (home, lists).
const loadRenderer = () => import('./markdown-renderer.js');
const MarkdownRenderer = lazy(loadRenderer);

/**
 * Starts fetching the Markdown renderer before any Markdown is on screen: a screen that will show some
 * (a paste) calls it when it mounts, so the renderer downloads while the screen's data does, and starts
 * the worker that parses long texts (markdown-renderer.tsx), so its code loads meanwhile too.
 */
export function preloadMarkdown(): Promise<void> {
  // A failure here is the Markdown's own to show, when it asks again.
  return loadRenderer().then(
    (renderer) => renderer.warmMarkdownWorker(),
    () => undefined,
  );
}

/**
 * The text as written, a paragraph per blank-line-separated block, until it can be drawn: about the
 * height it will have drawn, so nothing below moves when it is (a few grey lines would), and already
 * there for find-in-page.
 */
function MarkdownDraft({ text }: { text: string }) {
  const blocks = text.split(/\n[ \t]*\n/).filter((block) => block.trim() !== '');
  return (
    <div className="tp-markdown__loading" aria-busy="true">
      {blocks.map((block, n) => (
        <p key={n}>{block}</p>
      ))}
    </div>
  );
}

/** If the renderer cannot be fetched, the text is still readable: shown as it was written. */
class PlainTextOnError extends Component<{ text: string; children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override render() {
    return this.state.failed ? <p className="tp-markdown__plain">{this.props.text}</p> : this.props.children;
  }
}

export interface MarkdownProps {
  children: string;
  className?: string;
}

/**
 * Member-written Markdown, rendered by markdown-renderer.tsx once fetched; the text as written until then.
 */
export const Markdown = memo(function Markdown({ children, className }: MarkdownProps) {
  const draft = <MarkdownDraft text={children} />;
  return (
    <div className={cx('tp-markdown', className)}>
      <PlainTextOnError text={children}>
        <Suspense fallback={draft}>
          <MarkdownRenderer fallback={draft}>{children}</MarkdownRenderer>
        </Suspense>
      </PlainTextOnError>
    </div>
  );
});

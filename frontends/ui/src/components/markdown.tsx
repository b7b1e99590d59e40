import { Component, lazy, memo, Suspense, type ReactNode } from 'react';
import { cx } from '../lib/cx.js';
import { Skeleton } from './skeleton.js';

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

const MAX_SKELETON_LINES = 6;

/** Grey lines where the text will be, about as many as it has (a few at most). */
function MarkdownSkeleton({ text }: { text: string }) {
  const lines = Math.min(MAX_SKELETON_LINES, Math.max(1, text.trim().split('\n').length));
  return (
    <div className="tp-markdown__loading" aria-busy="true">
      {Array.from({ length: lines }, (_, line) => (
        <Skeleton key={line} width={line === lines - 1 && lines > 1 ? '60%' : undefined} />
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
 * Member-written Markdown, rendered by markdown-renderer.tsx once fetched; a skeleton of its lines until
 * then.
 */
export const Markdown = memo(function Markdown({ children, className }: MarkdownProps) {
  const skeleton = <MarkdownSkeleton text={children} />;
  return (
    <div className={cx('tp-markdown', className)}>
      <PlainTextOnError text={children}>
        <Suspense fallback={skeleton}>
          <MarkdownRenderer fallback={skeleton}>{children}</MarkdownRenderer>
        </Suspense>
      </PlainTextOnError>
    </div>
  );
});

import {
  API,
  EMBED_LINES_MAX,
  EMBED_PAGE,
  EMBED_TEXTS,
  embedHeight,
  embedIframe,
  OEMBED_TYPE,
  PAGES,
  type PasteDetail,
} from '@termpaste/contracts';
import { Button, isHiddenItem, toast } from '@termpaste/ui';
import { Code2 } from 'lucide-react';
import './paste-embed.css';

/** Whether other sites may embed it: public or unlisted, not burning, not hidden (the server's rule too). */
export function isEmbeddable(thread: PasteDetail): boolean {
  return thread.visibility !== 'private' && !thread.burnAfterReading && !isHiddenItem(thread);
}

/** The `<iframe>` that embeds the paste, as oEmbed answers it. */
export function embedSnippet(thread: PasteDetail, origin = window.location.origin): string {
  const lines = (thread.content ?? '').replace(/\n$/, '').split('\n').length;
  return embedIframe({
    src: new URL(EMBED_PAGE(thread.id), origin).href,
    title: thread.title,
    height: embedHeight(Math.min(lines, EMBED_LINES_MAX)),
  });
}

/**
 * EMBED: copies the HTML that shows the paste in another site, with a toast; and the oEmbed discovery
 * link (hoisted into the head by React) for sites that embed by the paste's address. Nothing for a paste
 * that cannot be embedded.
 */
export function PasteEmbed({ thread }: { thread: PasteDetail }) {
  if (!isEmbeddable(thread)) return null;
  const page = new URL(PAGES.thread(thread.id), window.location.origin).href;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(embedSnippet(thread));
      toast({ title: EMBED_TEXTS.copied });
    } catch {
      toast({ title: 'Error', description: EMBED_TEXTS.copyFailed, variant: 'destructive' });
    }
  };
  return (
    <>
      <link
        rel="alternate"
        type={OEMBED_TYPE}
        href={`${new URL(API.oembed, window.location.origin).href}?url=${encodeURIComponent(page)}&format=json`}
        title={thread.title}
      />
      <Button
        variant="ghost"
        size="sm"
        className="forum-embed"
        onClick={() => void copy()}
        title={EMBED_TEXTS.buttonTitle}
      >
        <Code2 size={14} aria-hidden="true" />
        {EMBED_TEXTS.button}
      </Button>
    </>
  );
}

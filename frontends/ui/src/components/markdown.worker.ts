// The Markdown worker: parses a member's text off the main thread, so no text, however hostile, blocks
// the page (micromark takes minutes on some inputs). Built on its own by the shell
// (frontends/shell/rsbuild.worker.config.ts); markdown-worker-client.ts starts it and ends it when it
// takes too long.
import { loadGrammars } from '../lib/code-highlight.js';
import { markdownTree } from './markdown-pipeline.js';
import type { MarkdownRequest, MarkdownResponse } from './markdown-worker-client.js';

const scope = self as unknown as {
  onmessage: ((event: MessageEvent<MarkdownRequest>) => void) | null;
  postMessage(message: MarkdownResponse): void;
};

scope.onmessage = (event) => {
  const { id, text } = event.data;
  markdownTree(text, () => scope.postMessage({ id, parsed: true })).then(
    (tree) => scope.postMessage({ id, tree }),
    // A text the parser throws on (10,000 nested `>` overflow its stack) is shown as plain text.
    () => scope.postMessage({ id, tree: null }),
  );
};

// The page starts the worker before its text arrives (preloadMarkdown): meanwhile, run the parser once
// on a little of everything, so the first text is not parsed by cold code, and fetch the highlighter.
// Only then ready: the page starts the first text's budget from here, and counts none of this in it.
markdownTree('# a\n\n*b* **c** `d` [e](/f) <g>\n\n- [x] h\n\n> i\n\n| j |\n| - |\n| k |\n\n~~l~~ www.m.n')
  .then(() => loadGrammars([]))
  .catch(() => undefined)
  .then(() => scope.postMessage('ready'));

// The code view's highlighter, off the main thread: a large paste is highlighted here while the page
// shows its plain lines and stays responsive.
import { highlightLines } from './highlight';
import type { HighlightRequest, HighlightResponse } from './use-highlight';

const scope = self as unknown as {
  onmessage: ((event: MessageEvent<HighlightRequest>) => void) | null;
  postMessage(message: HighlightResponse): void;
};

scope.onmessage = (event) => {
  const { id, language, text } = event.data;
  highlightLines(language, text).then(
    (lines) => scope.postMessage({ id, lines }),
    () => scope.postMessage({ id, lines: null }),
  );
};

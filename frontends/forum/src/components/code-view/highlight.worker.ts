// The code view's highlighter, off the main thread: a large paste is highlighted here while the page
// shows its plain lines and stays responsive.
import { highlightLines } from './highlight';
import { encodeLines } from './tokens';
import type { HighlightRequest, HighlightResponse } from './use-highlight';

const scope = self as unknown as {
  onmessage: ((event: MessageEvent<HighlightRequest>) => void) | null;
  postMessage(message: HighlightResponse, transfer: Transferable[]): void;
};

scope.onmessage = (event) => {
  const { id, language, text } = event.data;
  highlightLines(language, text).then(
    (lines) => {
      if (!lines) return scope.postMessage({ id, lines: null }, []);
      const encoded = encodeLines(lines);
      scope.postMessage({ id, lines: encoded }, [
        encoded.lineStarts.buffer,
        encoded.lengths.buffer,
        encoded.classIds.buffer,
      ]);
    },
    () => scope.postMessage({ id, lines: null }, []),
  );
};

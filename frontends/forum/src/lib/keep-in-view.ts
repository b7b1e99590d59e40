/** The member moving the page themselves: from then on the page is theirs. */
const MEMBER_MOVES = ['wheel', 'touchstart', 'keydown', 'pointerdown'] as const;

/** Once the page has kept its height this long, it has settled: the element is let go of (ms). */
export const SETTLED_MS = 10_000;

/**
 * Brings `element` to the top of the screen and keeps it there while the page settles (replies above
 * drawn in full, Markdown drawn, images loaded) until the member moves the page: scroll anchoring fails
 * when its anchor node is the one redrawn, and a permalink that had landed was left a screen away.
 */
export function keepInView(element: HTMLElement): () => void {
  element.scrollIntoView({ block: 'start' });
  if (typeof ResizeObserver !== 'function') return () => undefined;

  let settled = setTimeout(stop, SETTLED_MS);
  // Any height change in the page, above the element (it moved) or below it (the page's end held it
  // lower than the top): brought back to the top, a no-op where it already is.
  const observer = new ResizeObserver(() => {
    if (!element.isConnected) return stop();
    element.scrollIntoView({ block: 'start' });
    clearTimeout(settled);
    settled = setTimeout(stop, SETTLED_MS);
  });
  observer.observe(document.body);
  if (element.parentElement) observer.observe(element.parentElement);

  function stop() {
    clearTimeout(settled);
    observer.disconnect();
    for (const name of MEMBER_MOVES) window.removeEventListener(name, stop, true);
  }
  for (const name of MEMBER_MOVES) window.addEventListener(name, stop, { capture: true, passive: true });
  return stop;
}

import '@testing-library/jest-dom';
import { TextDecoder as NodeTextDecoder, TextEncoder as NodeTextEncoder } from 'node:util';
import { preloadTooltips } from './src/components/tooltip.js';

// Specs see tooltips as a page does once a first trigger fetched their code (tooltip-lazy.spec.tsx
// covers the moment before).
beforeAll(() => preloadTooltips());

// jsdom lacks some browser APIs Radix uses (layout observers, pointer events, capture). Test-only shims.
class ResizeObserverShim {
  observe(): void {}
  unobserve(): void {}
  disconnect(): void {}
}

if (typeof window !== 'undefined') {
  window.ResizeObserver ??= ResizeObserverShim;

  if (!window.PointerEvent) {
    class PointerEventShim extends MouseEvent {
      readonly pointerId: number;
      readonly pointerType: string;
      readonly isPrimary: boolean;
      constructor(type: string, init: PointerEventInit = {}) {
        super(type, init);
        this.pointerId = init.pointerId ?? 1;
        this.pointerType = init.pointerType ?? 'mouse';
        this.isPrimary = init.isPrimary ?? true;
      }
    }
    window.PointerEvent = PointerEventShim as unknown as typeof PointerEvent;
  }

  Element.prototype.hasPointerCapture ??= () => false;
  Element.prototype.setPointerCapture ??= () => {};
  Element.prototype.releasePointerCapture ??= () => {};
  Element.prototype.scrollIntoView ??= () => {};

  window.matchMedia ??= (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    }) as MediaQueryList;
}

// react-router needs TextEncoder, which jsdom does not expose.
globalThis.TextEncoder ??= NodeTextEncoder as typeof TextEncoder;
globalThis.TextDecoder ??= NodeTextDecoder as typeof TextDecoder;

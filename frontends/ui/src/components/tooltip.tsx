import { TOOLTIPS } from '@termpaste/contracts';
import {
  cloneElement,
  createContext,
  useContext,
  useMemo,
  useState,
  useSyncExternalStore,
  type FocusEvent,
  type MouseEvent,
  type PointerEvent,
  type ReactElement,
  type ReactNode,
} from 'react';

export type TooltipSide = 'top' | 'right' | 'bottom' | 'left';

/**
 * The tooltips under one TooltipProvider: their delay, and whether they are warm (one is open, or one
 * closed less than the skip delay ago), when the next one opens at once.
 */
export interface TooltipGroup {
  delayDuration: number;
  opened(): void;
  closed(): void;
  isWarm(): boolean;
  subscribe(listener: () => void): () => void;
}

function createTooltipGroup(delayDuration: number, skipDelayDuration: number): TooltipGroup {
  let warm = false;
  let cooling: ReturnType<typeof setTimeout> | undefined;
  const listeners = new Set<() => void>();
  const set = (next: boolean) => {
    if (next === warm) return;
    warm = next;
    listeners.forEach((listener) => listener());
  };
  return {
    delayDuration,
    opened() {
      clearTimeout(cooling);
      set(true);
    },
    closed() {
      clearTimeout(cooling);
      cooling = setTimeout(() => set(false), skipDelayDuration);
    },
    isWarm: () => warm,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

const TooltipGroupContext = createContext<TooltipGroup | null>(null);

export interface TooltipProviderProps {
  children: ReactNode;
  delayDuration?: number;
  skipDelayDuration?: number;
}

/** One per app (inside UiProvider): hover delay 700 ms, then 300 ms to move to another trigger without delay. */
export function TooltipProvider({
  delayDuration = TOOLTIPS.delayMs,
  skipDelayDuration = TOOLTIPS.skipDelayMs,
  children,
}: TooltipProviderProps) {
  const group = useMemo(
    () => createTooltipGroup(delayDuration, skipDelayDuration),
    [delayDuration, skipDelayDuration],
  );
  return <TooltipGroupContext.Provider value={group}>{children}</TooltipGroupContext.Provider>;
}

// Radix's tooltip, with the engine that places it, is most of the script a page with tooltips would load
// first, and no tooltip shows before a pointer rests on its trigger or the focus reaches it: so it is
// fetched then (by any trigger, for all of them).
type RadixTooltipModule = typeof import('./tooltip-radix.js');
let radix: RadixTooltipModule | null = null;
let loading: Promise<RadixTooltipModule> | null = null;
const loadListeners = new Set<() => void>();

/** Fetches the tooltips' code (once; again after a failure). */
export function preloadTooltips(): Promise<void> {
  loading ??= import('./tooltip-radix.js').then(
    (module) => {
      radix = module;
      loadListeners.forEach((listener) => listener());
      return module;
    },
    (error: unknown) => {
      loading = null;
      throw error;
    },
  );
  return loading.then(
    () => undefined,
    () => undefined,
  );
}

/** Tests: back to a page whose tooltips' code is not fetched yet. */
export function resetTooltipsForTests(): void {
  radix = null;
  loading = null;
  loadListeners.forEach((listener) => listener());
}

/** Whether the focus came from the keyboard (a click's focus is not given back after the redraw). */
function isFocusVisible(element: Element): boolean {
  try {
    return element.matches(':focus-visible');
  } catch {
    return true;
  }
}

function subscribeLoaded(listener: () => void) {
  loadListeners.add(listener);
  return () => loadListeners.delete(listener);
}

export interface TooltipProps {
  content: ReactNode;
  /** The trigger: one element that accepts a ref and event handlers (a button, a link). */
  children: ReactElement;
  side?: TooltipSide;
}

type TriggerProps = {
  onPointerEnter?: (event: PointerEvent<HTMLElement>) => void;
  onPointerDown?: (event: PointerEvent<HTMLElement>) => void;
  onPointerLeave?: (event: PointerEvent<HTMLElement>) => void;
  onPointerCancel?: (event: PointerEvent<HTMLElement>) => void;
  onClick?: (event: MouseEvent<HTMLElement>) => void;
  onFocus?: (event: FocusEvent<HTMLElement>) => void;
  onBlur?: (event: FocusEvent<HTMLElement>) => void;
};

export function Tooltip({ content, children, side = 'top' }: TooltipProps) {
  const group = useContext(TooltipGroupContext);
  if (!group) throw new Error('Tooltip must be used inside <TooltipProvider> (UiProvider includes it)');
  const module = useSyncExternalStore(
    subscribeLoaded,
    () => radix,
    () => null,
  );
  // Radix draws the trigger anew inside its own: not in the middle of a press (the click would be lost),
  // and with the focus given back if the keyboard had brought it there.
  const [focused, setFocused] = useState(false);
  const [pressed, setPressed] = useState(false);

  if (module && !pressed) {
    const RadixTooltip = module.default;
    return (
      <RadixTooltip content={content} side={side} group={group} refocus={focused}>
        {children}
      </RadixTooltip>
    );
  }
  const own = children.props as TriggerProps;
  return cloneElement(children as ReactElement<TriggerProps>, {
    onPointerEnter: (event) => {
      own.onPointerEnter?.(event);
      void preloadTooltips();
    },
    onPointerDown: (event) => {
      own.onPointerDown?.(event);
      setPressed(true);
    },
    onPointerLeave: (event) => {
      own.onPointerLeave?.(event);
      setPressed(false);
    },
    onPointerCancel: (event) => {
      own.onPointerCancel?.(event);
      setPressed(false);
    },
    onClick: (event) => {
      own.onClick?.(event);
      setPressed(false);
    },
    onFocus: (event) => {
      own.onFocus?.(event);
      setFocused(isFocusVisible(event.currentTarget));
      void preloadTooltips();
    },
    onBlur: (event) => {
      own.onBlur?.(event);
      setFocused(false);
    },
  });
}

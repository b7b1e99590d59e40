import { PAGES } from '@termpaste/contracts';
import {
  createContext,
  lazy,
  Suspense,
  useContext,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
  type RefObject,
} from 'react';
import { scrollBehavior } from '../lib/motion.js';
import {
  hasCommandModifier,
  isInsideWidget,
  isTypingTarget,
  ShortcutReader,
  type ShortcutCommand,
} from './shortcuts.js';

// Fetched the first time `?` is pressed (or the user menu asks for it): most visits never open it.
const KeyboardHelp = lazy(() => import('./keyboard-help.js'));

/** Spread on each item of a registered list (a paste's row, a reply): j and k move between them. */
export const KEYBOARD_ITEM = { 'data-keyboard-item': '' } as const;
/** Spread on the link inside an item that `o` and Enter follow. */
export const KEYBOARD_OPEN = { 'data-keyboard-open': '' } as const;

/** What a screen may do on a shortcut: `r` (reply), `/` (focus its search box). */
export type KeyboardAction = 'reply' | 'search';
/** Gets the selected item of the lists on screen, or null. */
export type KeyboardActionHandler = (selected: HTMLElement | null) => void;

interface ListEntry {
  ref: RefObject<HTMLElement | null>;
  /** What an item is, for the announcement: 'paste', 'reply'. */
  noun: string;
}

interface Registry {
  addList(entry: ListEntry): () => void;
  addAction(name: KeyboardAction, handler: RefObject<KeyboardActionHandler>): () => void;
  openHelp(returnTo?: HTMLElement | null): void;
}

const KeyboardContext = createContext<Registry | null>(null);

const SELECTED = 'data-keyboard-selected';

/** The items of every list on screen, in document order (home's pinned table, then the recent one). */
function itemsOf(lists: ListEntry[]): { item: HTMLElement; noun: string }[] {
  const found = new Map<HTMLElement, string>();
  for (const { ref, noun } of lists) {
    const container = ref.current;
    if (!container?.isConnected) continue;
    for (const item of container.querySelectorAll<HTMLElement>('[data-keyboard-item]')) found.set(item, noun);
  }
  return [...found]
    .sort(([a], [b]) => (a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1))
    .map(([item, noun]) => ({ item, noun }));
}

function unmark(item: HTMLElement | null) {
  item?.removeAttribute(SELECTED);
  item?.removeAttribute('aria-current');
}

const capitalized = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

export interface KeyboardShortcutsProps {
  children: ReactNode;
  /** The router's navigate (ui imports no router): g h, g n, g m and c go through it. */
  navigate: (path: string) => void;
  /** Off for visitors: their pages have no lists, no search box, and the paths need a member. */
  enabled?: boolean;
}

/**
 * The app's keyboard shortcuts (SHORTCUTS), mounted once by the shell: one document keydown listener,
 * silent while typing, with Ctrl/Cmd/Alt or behind a dialog. j/k select the items lists register
 * (useKeyboardList): marked, focused, scrolled to and announced. `?` opens the help dialog.
 */
export function KeyboardShortcuts({ children, navigate, enabled = true }: KeyboardShortcutsProps) {
  const lists = useRef<ListEntry[]>([]);
  const actions = useRef(new Map<KeyboardAction, RefObject<KeyboardActionHandler>[]>());
  const selected = useRef<HTMLElement | null>(null);
  const navigateRef = useRef(navigate);
  const returnFocus = useRef<HTMLElement | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const [help, setHelp] = useState<'never' | 'open' | 'closed'>('never');

  useLayoutEffect(() => {
    navigateRef.current = navigate;
  });

  const registry = useMemo<Registry>(
    () => ({
      addList(entry) {
        lists.current = [...lists.current, entry];
        return () => {
          lists.current = lists.current.filter((e) => e !== entry);
          // The list's items left with it (its ref is already cleared by now).
          if (selected.current && !selected.current.isConnected) selected.current = null;
        };
      },
      addAction(name, handler) {
        actions.current.set(name, [...(actions.current.get(name) ?? []), handler]);
        return () =>
          actions.current.set(
            name,
            (actions.current.get(name) ?? []).filter((h) => h !== handler),
          );
      },
      openHelp(returnTo) {
        // The dialog opens without a trigger: the focus goes back by hand to where it was, or to where
        // the caller says (a menu's item is gone by then: its menu's button).
        const active = document.activeElement;
        returnFocus.current =
          returnTo ?? (active instanceof HTMLElement && active !== document.body ? active : null);
        setHelp('open');
      },
    }),
    [],
  );

  useEffect(() => {
    if (!enabled) return;
    const reader = new ShortcutReader();

    /** The selected item, if it is still one of the items on screen. */
    const selectedItem = () => {
      const item = selected.current;
      return item && itemsOf(lists.current).some((i) => i.item === item) ? item : null;
    };

    const move = (delta: 1 | -1): boolean => {
      const items = itemsOf(lists.current);
      if (items.length === 0) return false;
      // From the item holding the focus (reached with Tab, say), else from the selected one.
      const active = document.activeElement;
      let from = items.findIndex(({ item }) => item.contains(active));
      if (from < 0) from = items.findIndex(({ item }) => item === selected.current);
      const to = from < 0 ? 0 : Math.min(items.length - 1, Math.max(0, from + delta));
      const { item, noun } = items[to]!;
      if (selected.current !== item) unmark(selected.current);
      selected.current = item;
      item.setAttribute(SELECTED, '');
      item.setAttribute('aria-current', 'true');
      if (!item.hasAttribute('tabindex')) item.tabIndex = -1;
      item.focus({ preventScroll: true });
      item.scrollIntoView({ block: 'nearest', behavior: scrollBehavior() });
      const edge = from === to ? (delta > 0 ? ', the last' : ', the first') : '';
      setAnnouncement(`${capitalized(noun)} ${to + 1} of ${items.length}${edge}`);
      return true;
    };

    const open = (): boolean => {
      const link = selectedItem()?.querySelector<HTMLElement>('[data-keyboard-open]');
      link?.click();
      return Boolean(link);
    };

    const act = (name: KeyboardAction): boolean => {
      const handler = actions.current.get(name)?.at(-1);
      handler?.current(selectedItem());
      return Boolean(handler);
    };

    const go = (path: string) => {
      navigateRef.current(path);
      return true;
    };

    const run: Record<ShortcutCommand, () => boolean> = {
      next: () => move(1),
      previous: () => move(-1),
      open,
      reply: () => act('reply'),
      search: () => act('search'),
      newPaste: () => go(PAGES.newThread),
      goHome: () => go(PAGES.home),
      goNotifications: () => go(PAGES.notifications),
      goMessages: () => go(PAGES.messages),
      help: () => {
        registry.openHelp();
        return true;
      },
    };

    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.isComposing) return;
      if (hasCommandModifier(event) || isTypingTarget(event.target) || isInsideWidget(event.target)) {
        reader.reset();
        return;
      }
      if (event.key === 'Escape') {
        // Not prevented: a popover listening for Escape still closes.
        reader.reset();
        unmark(selected.current);
        selected.current = null;
        return;
      }
      if (event.key === 'Enter') {
        // Enter opens the selected item only while it has the focus; elsewhere Enter is the browser's.
        reader.reset();
        if (selected.current && document.activeElement === selected.current && open()) event.preventDefault();
        return;
      }
      const command = reader.read(event.key);
      if (command === null || command === 'pending') return;
      // Prevented when it did something: `/` and `r` move the focus into a field the key must not reach.
      if (run[command]()) event.preventDefault();
    };

    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      unmark(selected.current);
      selected.current = null;
    };
  }, [enabled, registry]);

  return (
    <KeyboardContext.Provider value={registry}>
      {children}
      {enabled && (
        <div className="tp-sr-only" role="status" aria-live="polite" aria-atomic="true">
          {announcement}
        </div>
      )}
      {help !== 'never' && (
        <Suspense fallback={null}>
          <KeyboardHelp
            open={help === 'open'}
            onOpenChange={(open) => setHelp(open ? 'open' : 'closed')}
            returnFocusRef={returnFocus}
          />
        </Suspense>
      )}
    </KeyboardContext.Provider>
  );
}

/**
 * Registers a list for j and k while it is mounted: attach the ref to its container and spread
 * KEYBOARD_ITEM on each item (KEYBOARD_OPEN on the link `o` follows). Several lists on one screen make
 * one, in document order. Does nothing outside KeyboardShortcuts (a remote running on its own).
 */
export function useKeyboardList<T extends HTMLElement>(noun: string): RefObject<T | null> {
  const registry = useContext(KeyboardContext);
  const ref = useRef<T | null>(null);
  useEffect(() => registry?.addList({ ref, noun }), [registry, noun]);
  return ref;
}

/** What the current screen does on `r` or `/`; the latest mounted screen's handler wins. */
export function useKeyboardAction(name: KeyboardAction, handler: KeyboardActionHandler): void {
  const registry = useContext(KeyboardContext);
  const ref = useRef(handler);
  useLayoutEffect(() => {
    ref.current = handler;
  });
  useEffect(() => registry?.addAction(name, ref), [registry, name]);
}

/**
 * Opens the `?` help dialog (for a menu item), the focus coming back to `returnTo` when it closes (else
 * to what had it); null outside KeyboardShortcuts.
 */
export function useKeyboardHelp(): ((returnTo?: HTMLElement | null) => void) | null {
  return useContext(KeyboardContext)?.openHelp ?? null;
}

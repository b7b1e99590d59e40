/** What a shortcut does; the provider (keyboard.tsx) carries each one out. */
export type ShortcutCommand =
  | 'next'
  | 'previous'
  | 'open'
  | 'reply'
  | 'newPaste'
  | 'search'
  | 'goHome'
  | 'goNotifications'
  | 'goMessages'
  | 'help';

export interface Shortcut {
  /** Null for a key the provider does not read itself (Escape: each dialog closes on it). */
  command: ShortcutCommand | null;
  /** Alternatives, each a sequence of `KeyboardEvent.key` values: [['o'], ['Enter']], [['g', 'h']]. */
  keys: readonly (readonly string[])[];
  description: string;
  group: 'Lists' | 'Anywhere';
}

/** Every shortcut, in the order the `?` help dialog lists them. */
export const SHORTCUTS: readonly Shortcut[] = [
  {
    command: 'next',
    keys: [['j']],
    description: 'Next paste (in a list) or reply (on a paste)',
    group: 'Lists',
  },
  { command: 'previous', keys: [['k']], description: 'Previous paste or reply', group: 'Lists' },
  { command: 'open', keys: [['o'], ['Enter']], description: 'Open the selected paste', group: 'Lists' },
  {
    command: 'reply',
    keys: [['r']],
    description: 'Reply: to the selected reply, else to the paste',
    group: 'Lists',
  },
  { command: 'newPaste', keys: [['c']], description: 'New paste', group: 'Anywhere' },
  { command: 'search', keys: [['/']], description: 'Search', group: 'Anywhere' },
  { command: 'goHome', keys: [['g', 'h']], description: 'Go home', group: 'Anywhere' },
  { command: 'goNotifications', keys: [['g', 'n']], description: 'Go to notifications', group: 'Anywhere' },
  { command: 'goMessages', keys: [['g', 'm']], description: 'Go to messages', group: 'Anywhere' },
  { command: 'help', keys: [['?']], description: 'Show this help', group: 'Anywhere' },
  {
    command: null,
    keys: [['Escape']],
    description: 'Close a dialog or menu; clear the selection',
    group: 'Anywhere',
  },
];

/** How long after `g` its second key is awaited (GitHub and Gmail wait about as long). */
export const SEQUENCE_TIMEOUT_MS = 1500;

/** Each key sequence ('g h') to its command. */
const BY_SEQUENCE = new Map<string, ShortcutCommand>();
for (const shortcut of SHORTCUTS) {
  for (const sequence of shortcut.keys)
    if (shortcut.command) BY_SEQUENCE.set(sequence.join(' '), shortcut.command);
}
/** The keys that start a sequence ('g'). */
const PREFIXES = new Set(
  SHORTCUTS.flatMap((s) => s.keys.filter((seq) => seq.length > 1).map((seq) => seq[0]!)),
);

/** Keys that are only held with another: they neither trigger nor break a sequence. */
const MODIFIER_KEYS = new Set(['Shift', 'Control', 'Alt', 'AltGraph', 'Meta', 'CapsLock', 'Fn', 'OS']);

/**
 * Reads keys one at a time and says which command they make: a single key's at once, a sequence's
 * ('g' then 'h') at its last key if it comes within `timeoutMs` of the first. 'pending' while the
 * second key is awaited; null for a key that means nothing (which also ends a sequence).
 */
export class ShortcutReader {
  private prefix: string | null = null;
  private prefixAt = 0;

  constructor(
    private readonly timeoutMs = SEQUENCE_TIMEOUT_MS,
    private readonly now: () => number = () => Date.now(),
  ) {}

  read(key: string): ShortcutCommand | 'pending' | null {
    if (MODIFIER_KEYS.has(key)) return this.isPending() ? 'pending' : null;
    const prefix = this.isPending() ? this.prefix : null;
    this.prefix = null;
    if (prefix !== null) return BY_SEQUENCE.get(`${prefix} ${key}`) ?? null;
    if (PREFIXES.has(key)) {
      this.prefix = key;
      this.prefixAt = this.now();
      return 'pending';
    }
    return BY_SEQUENCE.get(key) ?? null;
  }

  /** Forgets a started sequence (a key with Ctrl held, a key typed in a field). */
  reset(): void {
    this.prefix = null;
  }

  private isPending(): boolean {
    return this.prefix !== null && this.now() - this.prefixAt <= this.timeoutMs;
  }
}

/** Ctrl, Cmd or Alt held: the key belongs to the browser, the system or a screen reader, not to us. */
export function hasCommandModifier(event: Pick<KeyboardEvent, 'ctrlKey' | 'metaKey' | 'altKey'>): boolean {
  return event.ctrlKey || event.metaKey || event.altKey;
}

/** Where a key is text being typed: an input, a textarea, a select or anything contenteditable. */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof Element)) return false;
  if (target.closest('input, textarea, select')) return true;
  // The nearest contenteditable decides: "false" inside an editable region is not editable.
  const editable = target.closest('[contenteditable]');
  return editable !== null && editable.getAttribute('contenteditable') !== 'false';
}

/**
 * Where keys belong to a widget of their own: a dialog (its own keys, and the page's shortcuts must not
 * act behind it), a menu or a listbox (type-ahead).
 */
export function isInsideWidget(target: EventTarget | null): boolean {
  return (
    target instanceof Element &&
    target.closest(
      '[role="dialog"], [role="alertdialog"], [role="menu"], [role="menubar"], [role="listbox"]',
    ) !== null
  );
}

/** How a key is printed in the help dialog. */
export function keyLabel(key: string): string {
  return key === 'Escape' ? 'Esc' : key;
}

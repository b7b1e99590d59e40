import {
  hasCommandModifier,
  isInsideWidget,
  isTypingTarget,
  keyLabel,
  SEQUENCE_TIMEOUT_MS,
  ShortcutReader,
  SHORTCUTS,
} from './shortcuts.js';

describe('ShortcutReader', () => {
  let now = 0;
  const reader = () => new ShortcutReader(SEQUENCE_TIMEOUT_MS, () => now);
  beforeEach(() => {
    now = 1_000_000;
  });

  it.each([
    ['j', 'next'],
    ['k', 'previous'],
    ['o', 'open'],
    ['Enter', 'open'],
    ['r', 'reply'],
    ['c', 'newPaste'],
    ['/', 'search'],
    ['?', 'help'],
  ])('reads %s as %s at once', (key, command) => {
    expect(reader().read(key)).toBe(command);
  });

  it.each([
    ['h', 'goHome'],
    ['n', 'goNotifications'],
    ['m', 'goMessages'],
  ])('reads g then %s as %s', (key, command) => {
    const keys = reader();
    expect(keys.read('g')).toBe('pending');
    now += 400;
    expect(keys.read(key)).toBe(command);
  });

  it('takes the second key up to the timeout after g, and not a millisecond later', () => {
    const keys = reader();
    keys.read('g');
    now += SEQUENCE_TIMEOUT_MS;
    expect(keys.read('h')).toBe('goHome');

    keys.read('g');
    now += SEQUENCE_TIMEOUT_MS + 1;
    // The sequence has lapsed: h alone means nothing.
    expect(keys.read('h')).toBeNull();
  });

  it('after a lapsed g, a key is read on its own', () => {
    const keys = reader();
    keys.read('g');
    now += SEQUENCE_TIMEOUT_MS + 1;
    expect(keys.read('j')).toBe('next');
  });

  it('ends a sequence on a key that completes none, without acting on that key', () => {
    const keys = reader();
    keys.read('g');
    expect(keys.read('j')).toBeNull();
    // And the next key starts afresh.
    expect(keys.read('j')).toBe('next');
    expect(keys.read('h')).toBeNull();
  });

  it('lets Shift and other modifiers pass in the middle of a sequence', () => {
    const keys = reader();
    keys.read('g');
    expect(keys.read('Shift')).toBe('pending');
    expect(keys.read('n')).toBe('goNotifications');
    expect(keys.read('Shift')).toBeNull();
  });

  it('forgets a started sequence on reset()', () => {
    const keys = reader();
    keys.read('g');
    keys.reset();
    expect(keys.read('h')).toBeNull();
  });

  it('reads keys that are no shortcut, and capitals, as nothing', () => {
    const keys = reader();
    for (const key of ['x', 'J', 'K', 'Tab', 'ArrowDown', ' ', 'Escape', 'h', 'n', 'm']) {
      expect(keys.read(key)).toBeNull();
    }
  });

  it('g g is not home: the second g ends the first', () => {
    const keys = reader();
    keys.read('g');
    expect(keys.read('g')).toBeNull();
    expect(keys.read('h')).toBeNull();
  });
});

describe('SHORTCUTS', () => {
  it('lists every shortcut once', () => {
    const printed = SHORTCUTS.map((s) => s.keys.map((seq) => seq.join(' ')).join(' | '));
    expect(printed).toEqual(['j', 'k', 'o | Enter', 'r', 'c', '/', 'g h', 'g n', 'g m', '?', 'Escape']);
  });

  it('prints Escape as Esc', () => {
    expect(keyLabel('Escape')).toBe('Esc');
    expect(keyLabel('j')).toBe('j');
  });
});

describe('hasCommandModifier', () => {
  const none = { ctrlKey: false, metaKey: false, altKey: false };
  it.each(['ctrlKey', 'metaKey', 'altKey'] as const)('is true with %s held', (modifier) => {
    expect(hasCommandModifier({ ...none, [modifier]: true })).toBe(true);
  });
  it('is false with none (Shift does not count: ? is Shift+/)', () => {
    expect(hasCommandModifier(none)).toBe(false);
  });
});

describe('isTypingTarget', () => {
  afterEach(() => {
    document.body.innerHTML = '';
  });

  const html = (markup: string) => {
    document.body.innerHTML = markup;
    return document.getElementById('t');
  };

  it.each([
    ['an input', '<input id="t">'],
    ['a search input', '<input id="t" type="search">'],
    ['a textarea', '<textarea id="t"></textarea>'],
    ['a select', '<select id="t"><option>a</option></select>'],
    ['a contenteditable element', '<div id="t" contenteditable="true"></div>'],
    ['an empty contenteditable attribute', '<div id="t" contenteditable></div>'],
    ['text inside a contenteditable', '<div contenteditable="true"><b id="t">x</b></div>'],
  ])('is true in %s', (_, markup) => {
    expect(isTypingTarget(html(markup))).toBe(true);
  });

  it.each([
    ['a button', '<button id="t">x</button>'],
    ['a link', '<a id="t" href="#">x</a>'],
    ['a table row', '<table><tbody><tr id="t"><td>x</td></tr></tbody></table>'],
    [
      'a non-editable island in an editable region',
      '<div contenteditable><span contenteditable="false" id="t">x</span></div>',
    ],
  ])('is false on %s', (_, markup) => {
    expect(isTypingTarget(html(markup))).toBe(false);
  });

  it('is false for the body, the document and nothing', () => {
    expect(isTypingTarget(document.body)).toBe(false);
    expect(isTypingTarget(document)).toBe(false);
    expect(isTypingTarget(null)).toBe(false);
  });
});

describe('isInsideWidget', () => {
  afterEach(() => {
    document.body.innerHTML = '';
  });

  it.each(['dialog', 'alertdialog', 'menu', 'menubar', 'listbox'])('is true inside role=%s', (role) => {
    document.body.innerHTML = `<div role="${role}"><button id="t">x</button></div>`;
    expect(isInsideWidget(document.getElementById('t'))).toBe(true);
  });

  it('is false on the page', () => {
    document.body.innerHTML = '<main><button id="t">x</button></main>';
    expect(isInsideWidget(document.getElementById('t'))).toBe(false);
    expect(isInsideWidget(document.body)).toBe(false);
  });
});

import { act, fireEvent, render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { useState, type ReactNode } from 'react';
import {
  KEYBOARD_ITEM,
  KEYBOARD_OPEN,
  KeyboardShortcuts,
  useKeyboardAction,
  useKeyboardHelp,
  useKeyboardList,
  type KeyboardActionHandler,
} from './keyboard.js';
import { SEQUENCE_TIMEOUT_MS } from './shortcuts.js';

const opened = jest.fn<void, [string]>();

function Pastes({
  titles,
  label = 'Pastes',
  noun = 'paste',
}: {
  titles: string[];
  label?: string;
  noun?: string;
}) {
  const list = useKeyboardList<HTMLUListElement>(noun);
  return (
    <ul aria-label={label} ref={list}>
      {titles.map((title) => (
        <li key={title} aria-label={title} {...KEYBOARD_ITEM}>
          <a href="#by">author</a>{' '}
          <a
            href={`#${title}`}
            {...KEYBOARD_OPEN}
            onClick={(event) => {
              event.preventDefault();
              opened(title);
            }}
          >
            {title}
          </a>
        </li>
      ))}
    </ul>
  );
}

function Action({ name, handler }: { name: 'reply' | 'search'; handler: KeyboardActionHandler }) {
  useKeyboardAction(name, handler);
  return null;
}

function HelpButton() {
  const openHelp = useKeyboardHelp();
  return (
    <button type="button" onClick={() => openHelp?.()}>
      shortcuts
    </button>
  );
}

const navigate = jest.fn<void, [string]>();

function renderKeys(children: ReactNode, enabled = true) {
  return render(
    <KeyboardShortcuts navigate={navigate} enabled={enabled}>
      <input aria-label="Field" />
      <textarea aria-label="Text" />
      <select aria-label="Choice">
        <option>one</option>
      </select>
      <div contentEditable suppressContentEditableWarning aria-label="Editor">
        edit me
      </div>
      <button type="button">Elsewhere</button>
      {children}
    </KeyboardShortcuts>,
  );
}

const item = (title: string) => screen.getByRole('listitem', { name: title, hidden: true });
const selected = () => document.querySelectorAll('[data-keyboard-selected]');
const announcement = () => screen.getByRole('status').textContent;
/** A key pressed where the focus is (the body when nothing has it), as the browser sends it. */
const press = (key: string, init: Partial<KeyboardEventInit> = {}) =>
  fireEvent.keyDown(document.activeElement ?? document.body, { key, ...init });

const scrollIntoView = jest.spyOn(Element.prototype, 'scrollIntoView');

beforeEach(() => {
  opened.mockReset();
  navigate.mockReset();
  scrollIntoView.mockClear();
});

describe('j and k', () => {
  it('j selects the first item: marked, current, focused, scrolled into view and announced', () => {
    renderKeys(<Pastes titles={['alpha', 'beta', 'gamma']} />);
    expect(selected()).toHaveLength(0);
    press('j');
    expect(item('alpha')).toHaveAttribute('data-keyboard-selected');
    expect(item('alpha')).toHaveAttribute('aria-current', 'true');
    expect(item('alpha')).toHaveFocus();
    expect(scrollIntoView).toHaveBeenLastCalledWith({ block: 'nearest', behavior: 'smooth' });
    expect(scrollIntoView.mock.contexts.at(-1)).toBe(item('alpha'));
    expect(announcement()).toBe('Paste 1 of 3');
    expect(screen.getByRole('status')).toHaveAttribute('aria-live', 'polite');
  });

  it('j and k move one item at a time; only one is marked', () => {
    renderKeys(<Pastes titles={['alpha', 'beta', 'gamma']} />);
    press('j');
    press('j');
    expect(item('beta')).toHaveFocus();
    expect(announcement()).toBe('Paste 2 of 3');
    press('j');
    press('k');
    expect(item('beta')).toHaveFocus();
    expect(item('beta')).toHaveAttribute('aria-current', 'true');
    expect(selected()).toHaveLength(1);
    expect(item('gamma')).not.toHaveAttribute('aria-current');
    expect(item('gamma')).not.toHaveAttribute('data-keyboard-selected');
  });

  it('stops at either end and says so', () => {
    renderKeys(<Pastes titles={['alpha', 'beta']} />);
    press('j');
    press('k');
    expect(item('alpha')).toHaveFocus();
    expect(announcement()).toBe('Paste 1 of 2, the first');
    press('j');
    press('j');
    press('j');
    expect(item('beta')).toHaveFocus();
    expect(announcement()).toBe('Paste 2 of 2, the last');
  });

  it('k with nothing selected selects the first item', () => {
    renderKeys(<Pastes titles={['alpha', 'beta']} />);
    press('k');
    expect(item('alpha')).toHaveFocus();
  });

  it('moves on from the item the focus is in (reached with Tab)', () => {
    renderKeys(<Pastes titles={['alpha', 'beta', 'gamma']} />);
    press('j');
    screen.getByRole('link', { name: 'beta' }).focus();
    press('j');
    expect(item('gamma')).toHaveFocus();
  });

  it('makes one list of the lists on screen, in document order, each announced by its noun', () => {
    renderKeys(
      <>
        <Pastes titles={['pinned']} label="Pinned" />
        <Pastes titles={['reply one', 'reply two']} label="Replies" noun="reply" />
      </>,
    );
    press('j');
    expect(item('pinned')).toHaveFocus();
    expect(announcement()).toBe('Paste 1 of 3');
    press('j');
    expect(item('reply one')).toHaveFocus();
    expect(announcement()).toBe('Reply 2 of 3');
  });

  it('does nothing without a list, and lets the key through', () => {
    renderKeys(null);
    expect(press('j')).toBe(true); // not prevented
    expect(screen.getByRole('status')).toBeEmptyDOMElement();
  });

  it('forgets the selection when its list unmounts', () => {
    function Toggle() {
      const [shown, setShown] = useState(true);
      return (
        <>
          <button type="button" onClick={() => setShown(false)}>
            hide
          </button>
          {shown && <Pastes titles={['alpha']} />}
        </>
      );
    }
    renderKeys(<Toggle />);
    press('j');
    fireEvent.click(screen.getByRole('button', { name: 'hide' }));
    // o follows no link of an item that is gone, and r hands none to the screen.
    expect(press('o')).toBe(true);
    expect(opened).not.toHaveBeenCalled();
  });

  it('Escape clears the selection (and does not stop the key: a popover still closes on it)', () => {
    renderKeys(<Pastes titles={['alpha']} />);
    press('j');
    expect(press('Escape')).toBe(true);
    expect(selected()).toHaveLength(0);
    expect(item('alpha')).not.toHaveAttribute('aria-current');
  });
});

describe('o and Enter', () => {
  it('o opens the selected item through its open link', () => {
    renderKeys(<Pastes titles={['alpha', 'beta']} />);
    press('j');
    press('j');
    expect(press('o')).toBe(false); // prevented
    expect(opened).toHaveBeenCalledWith('beta');
  });

  it('o does nothing with nothing selected', () => {
    renderKeys(<Pastes titles={['alpha']} />);
    expect(press('o')).toBe(true);
    expect(opened).not.toHaveBeenCalled();
  });

  it('Enter opens the selected item while it has the focus', () => {
    renderKeys(<Pastes titles={['alpha']} />);
    press('j');
    expect(press('Enter')).toBe(false);
    expect(opened).toHaveBeenCalledWith('alpha');
  });

  it('Enter elsewhere is left to the browser (a focused button presses itself)', () => {
    renderKeys(<Pastes titles={['alpha']} />);
    press('j');
    screen.getByRole('button', { name: 'Elsewhere' }).focus();
    expect(press('Enter')).toBe(true);
    expect(opened).not.toHaveBeenCalled();
  });
});

describe('r and /', () => {
  it('r hands the selected item to the screen, or null', () => {
    const reply = jest.fn<void, [HTMLElement | null]>();
    renderKeys(
      <>
        <Pastes titles={['first', 'second']} noun="reply" />
        <Action name="reply" handler={reply} />
      </>,
    );
    expect(press('r')).toBe(false);
    expect(reply).toHaveBeenLastCalledWith(null);
    press('j');
    press('j');
    press('r');
    expect(reply).toHaveBeenLastCalledWith(item('second'));
  });

  it('r does nothing where no screen replies (a list of pastes)', () => {
    renderKeys(<Pastes titles={['alpha']} />);
    expect(press('r')).toBe(true);
  });

  it('the latest mounted handler wins, and the previous one comes back when it unmounts', () => {
    const first = jest.fn();
    const second = jest.fn();
    const { rerender } = renderKeys(
      <>
        <Action name="search" handler={first} />
        <Action name="search" handler={second} />
      </>,
    );
    press('/');
    expect(second).toHaveBeenCalledTimes(1);
    expect(first).not.toHaveBeenCalled();
    rerender(
      <KeyboardShortcuts navigate={navigate}>
        <Action name="search" handler={first} />
      </KeyboardShortcuts>,
    );
    press('/');
    expect(first).toHaveBeenCalledTimes(1);
  });

  it('/ focuses the search box without typing the slash into it', async () => {
    function SearchBox() {
      useKeyboardAction('search', () => screen.getByRole('searchbox').focus());
      return <input type="search" aria-label="Search pastes" />;
    }
    renderKeys(<SearchBox />);
    const user = userEvent.setup();
    await user.keyboard('/');
    expect(screen.getByRole('searchbox')).toHaveFocus();
    expect(screen.getByRole('searchbox')).toHaveValue('');
    await user.keyboard('nmap');
    expect(screen.getByRole('searchbox')).toHaveValue('nmap');
  });
});

describe('going places', () => {
  it.each([
    [['c'], '/thread/new'],
    [['g', 'h'], '/'],
    [['g', 'n'], '/notifications'],
    [['g', 'm'], '/messages'],
  ])('%j goes to %s', (keys, path) => {
    renderKeys(null);
    for (const key of keys) press(key);
    expect(navigate).toHaveBeenCalledTimes(1);
    expect(navigate).toHaveBeenCalledWith(path);
  });

  it('g waits for its second key for the timeout, not longer', () => {
    jest.useFakeTimers();
    try {
      renderKeys(null);
      press('g');
      act(() => jest.advanceTimersByTime(SEQUENCE_TIMEOUT_MS - 100));
      press('n');
      expect(navigate).toHaveBeenCalledWith('/notifications');

      navigate.mockReset();
      press('g');
      act(() => jest.advanceTimersByTime(SEQUENCE_TIMEOUT_MS + 1));
      press('h');
      expect(navigate).not.toHaveBeenCalled();
    } finally {
      jest.useRealTimers();
    }
  });

  it('a key typed in a field between g and h breaks the sequence', () => {
    renderKeys(null);
    press('g');
    fireEvent.keyDown(screen.getByRole('textbox', { name: 'Field' }), { key: 'x' });
    press('h');
    expect(navigate).not.toHaveBeenCalled();
  });
});

describe('guards', () => {
  it.each([
    ['an input', () => screen.getByRole('textbox', { name: 'Field' })],
    ['a textarea', () => screen.getByRole('textbox', { name: 'Text' })],
    ['a select', () => screen.getByRole('combobox', { name: 'Choice' })],
    ['a contenteditable', () => screen.getByText('edit me')],
  ])('nothing happens while typing in %s', (_, field) => {
    renderKeys(<Pastes titles={['alpha']} />);
    const target = field();
    for (const key of ['j', 'k', 'o', 'r', 'c', '/', '?', 'g', 'h']) {
      expect(fireEvent.keyDown(target, { key })).toBe(true);
    }
    expect(selected()).toHaveLength(0);
    expect(navigate).not.toHaveBeenCalled();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('typing j and / in a field types them', async () => {
    const search = jest.fn();
    renderKeys(
      <>
        <Pastes titles={['alpha']} />
        <Action name="search" handler={search} />
      </>,
    );
    const user = userEvent.setup();
    await user.click(screen.getByRole('textbox', { name: 'Field' }));
    await user.keyboard('j/k?gh');
    expect(screen.getByRole('textbox', { name: 'Field' })).toHaveValue('j/k?gh');
    expect(search).not.toHaveBeenCalled();
    expect(selected()).toHaveLength(0);
  });

  it.each(['ctrlKey', 'metaKey', 'altKey'] as const)('nothing happens with %s held', (modifier) => {
    renderKeys(<Pastes titles={['alpha']} />);
    for (const key of ['j', 'c', '?', 'g', 'h']) expect(press(key, { [modifier]: true })).toBe(true);
    expect(selected()).toHaveLength(0);
    expect(navigate).not.toHaveBeenCalled();
  });

  it('Ctrl in the middle of g h breaks the sequence', () => {
    renderKeys(null);
    press('g');
    press('h', { ctrlKey: true });
    press('h');
    expect(navigate).not.toHaveBeenCalled();
  });

  it('nothing happens behind a dialog or in a menu', () => {
    renderKeys(
      <>
        <Pastes titles={['alpha']} />
        <div role="dialog" aria-label="Confirm">
          <button type="button">OK</button>
        </div>
        <div role="menu">
          <button type="button" role="menuitem">
            Profile
          </button>
        </div>
      </>,
    );
    for (const name of ['OK', 'Profile']) {
      const inside = screen.getByRole(name === 'OK' ? 'button' : 'menuitem', { name });
      for (const key of ['j', 'c', 'g', 'h']) expect(fireEvent.keyDown(inside, { key })).toBe(true);
    }
    expect(selected()).toHaveLength(0);
    expect(navigate).not.toHaveBeenCalled();
  });

  it('a key another handler already used is left alone', () => {
    renderKeys(<Pastes titles={['alpha']} />);
    const used = new KeyboardEvent('keydown', { key: 'j', bubbles: true, cancelable: true });
    used.preventDefault();
    document.body.dispatchEvent(used);
    expect(selected()).toHaveLength(0);
  });

  it('does nothing at all when not enabled (a visitor)', () => {
    renderKeys(<Pastes titles={['alpha']} />, false);
    for (const key of ['j', 'c', '?', 'g', 'h']) expect(press(key)).toBe(true);
    expect(selected()).toHaveLength(0);
    expect(navigate).not.toHaveBeenCalled();
    expect(screen.queryByRole('status')).toBeNull();
  });
});

describe('the ? help dialog', () => {
  it('? opens it, listing every shortcut; Escape closes it and the focus comes back', async () => {
    renderKeys(<Pastes titles={['alpha']} />);
    press('j');
    press('?');
    const dialog = await screen.findByRole('dialog', { name: 'KEYBOARD SHORTCUTS' });
    for (const text of [
      'Next paste (in a list) or reply (on a paste)',
      'Previous paste or reply',
      'Open the selected paste',
      'Reply: to the selected reply, else to the paste',
      'New paste',
      'Search',
      'Go home',
      'Go to notifications',
      'Go to messages',
      'Show this help',
      'Close a dialog or menu; clear the selection',
    ]) {
      expect(dialog).toHaveTextContent(text);
    }
    const keys = [...dialog.querySelectorAll('kbd')].map((kbd) => kbd.textContent);
    expect(keys).toEqual(['j', 'k', 'o', 'Enter', 'r', 'c', '/', 'g', 'h', 'g', 'n', 'g', 'm', '?', 'Esc']);
    expect(dialog).toHaveTextContent('g then h');

    // Shortcuts are off behind it.
    press('j');
    expect(item('alpha')).toHaveAttribute('aria-current', 'true');
    expect(navigate).not.toHaveBeenCalled();

    const user = userEvent.setup();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(item('alpha')).toHaveFocus();
  });

  it('its CLOSE button closes it', async () => {
    renderKeys(null);
    press('?');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'CLOSE' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    press('?');
    expect(await screen.findByRole('dialog', { name: 'KEYBOARD SHORTCUTS' })).toBeInTheDocument();
  });

  it('useKeyboardHelp gives the focus back to the element it is told of (a menu item is gone by then)', async () => {
    function MenuItem() {
      const openHelp = useKeyboardHelp();
      return (
        <>
          <button type="button">User menu</button>
          <button type="button" onClick={() => openHelp?.(screen.getByRole('button', { name: 'User menu' }))}>
            Keyboard shortcuts
          </button>
        </>
      );
    }
    renderKeys(<MenuItem />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Keyboard shortcuts' }));
    await screen.findByRole('dialog', { name: 'KEYBOARD SHORTCUTS' });
    await user.keyboard('{Escape}');
    expect(screen.getByRole('button', { name: 'User menu' })).toHaveFocus();
  });

  it('useKeyboardHelp opens it from a menu', async () => {
    renderKeys(<HelpButton />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'shortcuts' }));
    expect(await screen.findByRole('dialog', { name: 'KEYBOARD SHORTCUTS' })).toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(screen.getByRole('button', { name: 'shortcuts' })).toHaveFocus();
  });
});

describe('outside KeyboardShortcuts (a remote on its own)', () => {
  it('the hooks do nothing and throw nothing', () => {
    render(
      <>
        <Pastes titles={['alpha']} />
        <Action name="reply" handler={jest.fn()} />
        <HelpButton />
      </>,
    );
    press('j');
    expect(selected()).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: 'shortcuts' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

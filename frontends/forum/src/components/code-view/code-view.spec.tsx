import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { ReactElement } from 'react';
import userEvent from '@testing-library/user-event';
import { stubClipboard } from '@termpaste/ui/testing';
import { CodeView, VIRTUALIZE_FROM } from './code-view';
import { parseLineHash, referencedLines } from './line-range';
import { searchLanguages } from './language-names';
import { sgrStateAfter } from './use-ansi-lines';

const PYTHON = ['import os', '', 'def main():', '    """Say hi."""', '    return "hi"  # done', ''].join(
  '\n',
);

const lineRows = () => document.querySelectorAll('.cv-line');
const numbers = () => [...document.querySelectorAll('.cv-num')].map((n) => n.textContent);
const row = (n: number) => document.querySelector(`[data-line="${n}"]`) as HTMLElement;

/**
 * jsdom lays nothing out: a 600 px high pane, 20 px lines, and a scroll that moves it (for the
 * virtualised views). Returns the undo.
 */
function fakeLayout(lineCount: number): () => void {
  jest.spyOn(Element.prototype, 'clientHeight', 'get').mockReturnValue(600);
  jest.spyOn(Element.prototype, 'clientWidth', 'get').mockReturnValue(800);
  jest.spyOn(Element.prototype, 'scrollHeight', 'get').mockReturnValue(lineCount * 20);
  jest.spyOn(HTMLElement.prototype, 'offsetHeight', 'get').mockReturnValue(20);
  const offsets = new WeakMap<Element, number>();
  jest.spyOn(Element.prototype, 'scrollTop', 'get').mockImplementation(function (this: Element) {
    return offsets.get(this) ?? 0;
  });
  const scrollTo = Element.prototype.scrollTo;
  Element.prototype.scrollTo = function (this: Element, options?: ScrollToOptions | number) {
    offsets.set(this, typeof options === 'object' ? (options.top ?? 0) : 0);
    setTimeout(() => this.dispatchEvent(new Event('scroll')), 0);
  } as Element['scrollTo'];
  return () => {
    jest.restoreAllMocks();
    Element.prototype.scrollTo = scrollTo;
  };
}

/** Renders a code view and waits for its highlighting (a state update after the test would be out of act). */
async function renderHighlighted(element: ReactElement) {
  const rendered = render(element);
  await waitFor(() => expect(document.querySelector('.cv')).toHaveAttribute('data-highlighted', 'true'));
  return rendered;
}

beforeEach(() => window.history.replaceState({ usr: 'router state' }, '', '/thread/5'));

describe('CodeView', () => {
  it('numbers the lines (a final line feed starts no line) and highlights them with highlight.js', async () => {
    render(<CodeView text={PYTHON} language="python" lineLinks />);
    expect(numbers()).toEqual(['1', '2', '3', '4', '5']);
    // Plain lines first, the highlighted ones when the grammar is there.
    expect(row(3).textContent).toBe('3def main():');
    await waitFor(() =>
      expect(screen.getByRole('region', { name: 'Code' })).toHaveAttribute('data-highlighted', 'true'),
    );
    expect(within(row(1)).getByText('import')).toHaveClass('hljs-keyword');
    expect(within(row(3)).getByText('main')).toHaveClass('hljs-title', 'function_');
    expect(within(row(4)).getByText('"""Say hi."""')).toHaveClass('hljs-string');
    expect(within(row(5)).getByText('# done')).toHaveClass('hljs-comment');
    expect(screen.getByText('Python')).toBeInTheDocument();
    expect(screen.getByText('5 lines')).toBeInTheDocument();
  });

  it('a multi-line string keeps its class on every line it spans', async () => {
    render(<CodeView text={'x = """one\ntwo\nthree"""'} language="python" />);
    await waitFor(() => expect(within(row(2)).getByText('two')).toHaveClass('hljs-string'));
    expect(within(row(3)).getByText('three"""')).toHaveClass('hljs-string');
  });

  it('a paste with CR LF line ends highlights like one with LF', async () => {
    render(<CodeView text={'import os\r\nx = 1\r\n'} language="python" />);
    expect(numbers()).toEqual(['1', '2']);
    await waitFor(() => expect(within(row(1)).getByText('import')).toHaveClass('hljs-keyword'));
    expect(row(1).textContent).toBe('1import os');
    expect(within(row(2)).getByText('1')).toHaveClass('hljs-number');
  });

  it('an unknown language shows plain numbered lines', async () => {
    render(<CodeView text={'<b>not</b>\nhtml'} language="no-such-language" />);
    expect(numbers()).toEqual(['1', '2']);
    expect(row(1).querySelector('b')).toBeNull();
    expect(row(1).textContent).toBe('1<b>not</b>');
  });

  it('toggles soft wrap', async () => {
    const user = userEvent.setup();
    await renderHighlighted(<CodeView text={PYTHON} language="python" />);
    const wrap = screen.getByRole('button', { name: 'WRAP' });
    expect(wrap).toHaveAttribute('aria-pressed', 'false');
    expect(screen.getByRole('region', { name: 'Code' })).not.toHaveClass('cv--wrap');
    await user.click(wrap);
    expect(wrap).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('region', { name: 'Code' })).toHaveClass('cv--wrap');
    await user.click(wrap);
    expect(screen.getByRole('region', { name: 'Code' })).not.toHaveClass('cv--wrap');
  });

  it('COPY copies the text as written; RAW links to the raw paste', async () => {
    const user = userEvent.setup();
    const writeText = stubClipboard(jest.fn(() => Promise.resolve()));
    await renderHighlighted(<CodeView text={PYTHON} language="python" rawHref="/api/threads/5/raw" />);
    await user.click(screen.getByRole('button', { name: 'Copy paste' }));
    expect(writeText).toHaveBeenCalledWith(PYTHON);
    const raw = screen.getByRole('link', { name: 'RAW' });
    expect(raw).toHaveAttribute('href', '/api/threads/5/raw');
    expect(raw).toHaveAttribute('target', '_blank');
  });

  it('terminal output: coloured lines, numbered, and COPY without the escapes', async () => {
    const user = userEvent.setup();
    const writeText = stubClipboard(jest.fn(() => Promise.resolve()));
    const text =
      '\x1b[01;34mbin\x1b[0m  notes.txt\n\x1b[32;1mrun.sh\x1b[0m\x1b]0;title\x07 <script>alert(1)</script>\n';
    render(<CodeView text={text} language="ansi" lineLinks />);
    expect(numbers()).toEqual(['1', '2']);
    const bin = await screen.findByText('bin');
    expect(bin.style.color).toBe('var(--tp-ansi-blue)');
    expect(bin.style.fontWeight).toBe('700');
    expect(screen.getByText('run.sh').style.color).toBe('var(--tp-ansi-green)');
    expect(row(2).textContent).toBe('2run.sh <script>alert(1)</script>');
    expect(document.querySelector('.cv script')).toBeNull();
    expect(screen.getByText('ANSI (terminal output)')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Copy paste' }));
    expect(writeText).toHaveBeenCalledWith('bin  notes.txt\nrun.sh <script>alert(1)</script>\n');
  });

  it('terminal output of many lines is coloured chunk by chunk, a colour carried over chunk boundaries', async () => {
    // Red from line 1 to line 1,500 (the second chunk), reset there; green bold set on line 2,400.
    const lines = Array.from({ length: 2_500 }, (_, i) => `line ${i + 1}`);
    lines[0] = `\x1b[31m${lines[0]}`;
    lines[1499] = `${lines[1499]}\x1b[0m after`;
    lines[2399] = `\x1b[1;32m${lines[2399]}`;
    const restore = fakeLayout(2_500);
    window.history.replaceState(null, '', '/thread/5#L1500');
    render(<CodeView text={lines.join('\n')} language="ansi" lineLinks />);
    // Seven chunks, one task each, and the converter's chunk fetched first: a loaded machine takes a while.
    await waitFor(
      () => expect(screen.getByRole('region', { name: 'Code' })).toHaveAttribute('data-highlighted', 'true'),
      { timeout: 15_000 },
    );
    await waitFor(() => expect(row(1500)).not.toBeNull());
    expect(within(row(1500)).getByText('line 1500').style.color).toBe('var(--tp-ansi-red)');
    expect(within(row(1500)).getByText('after').style.color).toBe('');
    expect(row(1501).textContent).toBe('1501line 1501');
    expect(row(1501).querySelector('span[style]')).toBeNull();
    restore();
  });

  it('a click on a line number selects it and sets #L3 without a history entry; shift-click a range', async () => {
    const user = userEvent.setup();
    const length = window.history.length;
    await renderHighlighted(<CodeView text={PYTHON} language="python" lineLinks />);
    await user.click(screen.getByRole('link', { name: 'Line 3' }));
    expect(window.location.hash).toBe('#L3');
    expect(window.history.length).toBe(length);
    expect(window.history.state).toEqual({ usr: 'router state' });
    expect(row(3)).toHaveClass('cv-line--selected');
    expect(row(3)).toHaveAttribute('aria-current', 'true');
    expect(screen.getByTestId('cv-selection')).toHaveTextContent('L3');

    fireEvent.click(screen.getByRole('link', { name: 'Line 5' }), { shiftKey: true });
    expect(window.location.hash).toBe('#L3-L5');
    expect([3, 4, 5].map((n) => row(n).classList.contains('cv-line--selected'))).toEqual([true, true, true]);
    expect(row(2)).not.toHaveClass('cv-line--selected');
    // Shift-click above the first one: the range runs from there to the anchor.
    fireEvent.click(screen.getByRole('link', { name: 'Line 1' }), { shiftKey: true });
    expect(window.location.hash).toBe('#L1-L3');
    expect(row(5)).not.toHaveClass('cv-line--selected');
  });

  it('COPY LINK copies the address with the selected lines', async () => {
    const user = userEvent.setup();
    const writeText = stubClipboard(jest.fn(() => Promise.resolve()));
    await renderHighlighted(<CodeView text={PYTHON} language="python" lineLinks />);
    expect(screen.queryByRole('button', { name: 'COPY LINK' })).toBeNull();
    await user.click(screen.getByRole('link', { name: 'Line 2' }));
    fireEvent.click(screen.getByRole('link', { name: 'Line 4' }), { shiftKey: true });
    await user.click(screen.getByRole('button', { name: 'COPY LINK' }));
    expect(writeText).toHaveBeenCalledWith('http://localhost/thread/5#L2-L4');
  });

  it('a #L2-L4 address on load selects those lines and scrolls them into view', async () => {
    window.history.replaceState(null, '', '/thread/5#L2-L4');
    const scrolled: string[] = [];
    jest.spyOn(Element.prototype, 'scrollIntoView').mockImplementation(function (this: Element) {
      scrolled.push(this.getAttribute('data-line') ?? this.className);
    });
    render(<CodeView text={PYTHON} language="python" lineLinks />);
    expect([1, 2, 3, 4, 5].map((n) => row(n).classList.contains('cv-line--selected'))).toEqual([
      false,
      true,
      true,
      true,
      false,
    ]);
    await waitFor(() => expect(scrolled).toEqual(['2']));
    jest.restoreAllMocks();
  });

  it('a link that changes the hash later (a reply) selects and scrolls too; a bad hash selects nothing', async () => {
    await renderHighlighted(<CodeView text={PYTHON} language="python" lineLinks />);
    act(() => {
      window.history.replaceState(null, '', '#L5');
      window.dispatchEvent(new HashChangeEvent('hashchange'));
    });
    expect(row(5)).toHaveClass('cv-line--selected');
    act(() => {
      window.history.replaceState(null, '', '#L99');
      window.dispatchEvent(new HashChangeEvent('hashchange'));
    });
    expect(row(5)).toHaveClass('cv-line--selected');
    expect(lineRows()).toHaveLength(5);
  });

  it('without line links the numbers are not links and the address is left alone', async () => {
    await renderHighlighted(<CodeView text={PYTHON} language="python" />);
    expect(screen.queryByRole('link', { name: 'Line 1' })).toBeNull();
    expect(document.getElementById('L1')).toBeNull();
  });

  it('an excerpt numbers from its first line and its numbers link to the paste', async () => {
    await renderHighlighted(
      <CodeView text={'b\nc'} language="python" firstLine={12} numbersLinkToPaste toolbar={false} />,
    );
    expect(numbers()).toEqual(['12', '13']);
    expect(screen.getByRole('link', { name: 'Line 13' })).toHaveAttribute('href', '#L13');
    expect(screen.queryByRole('button', { name: 'WRAP' })).toBeNull();
  });

  it(`from ${VIRTUALIZE_FROM} lines on, renders only a window of a 20,000-line paste; #L15000 scrolls there`, async () => {
    const big = Array.from({ length: 20_000 }, (_, i) => `value_${i + 1} = ${i + 1}`).join('\n');
    const restore = fakeLayout(20_000);
    window.history.replaceState(null, '', '/thread/5#L15000');
    render(<CodeView text={big} language="python" lineLinks />);
    await waitFor(() => expect(row(15000)).not.toBeNull());
    expect(row(15000)).toHaveClass('cv-line--selected');
    expect(row(15000).textContent).toBe('15000value_15000 = 15000');
    const rendered = lineRows().length;
    expect(rendered).toBeGreaterThan(10);
    expect(rendered).toBeLessThan(200);
    expect(row(1)).toBeNull();
    expect(screen.getByText('20000 lines')).toBeInTheDocument();
    restore();
  });
});

describe('the style carried from one chunk of terminal output to the next', () => {
  it('is every SGR sequence since the last that starts with a reset', () => {
    expect(sgrStateAfter('', 'a\x1b[31mb\x1b[1mc')).toBe('\x1b[31m\x1b[1m');
    expect(sgrStateAfter('\x1b[31m', 'x\x1b[0my\x1b[4m')).toBe('\x1b[0m\x1b[4m');
    expect(sgrStateAfter('\x1b[31m', '\x1b[0;32mz')).toBe('\x1b[0;32m');
    expect(sgrStateAfter('\x1b[31m', '\x1b[m')).toBe('\x1b[m');
    expect(sgrStateAfter('\x1b[31m', 'plain')).toBe('\x1b[31m');
  });
});

describe('line links', () => {
  it('parses #L12 and #L12-L20 (either order), within the paste', () => {
    expect(parseLineHash('#L12', 30)).toEqual({ start: 12, end: 12 });
    expect(parseLineHash('#L12-L20', 30)).toEqual({ start: 12, end: 20 });
    expect(parseLineHash('#L20-L12', 30)).toEqual({ start: 12, end: 20 });
    expect(parseLineHash('#L25-L40', 30)).toEqual({ start: 25, end: 30 });
    for (const hash of ['#L0', '#L31', '#reply-3', '#L1-', '#Lx', ''])
      expect(parseLineHash(hash, 30)).toBeNull();
  });

  it("finds the lines a reply points at: #L…, or this paste's address with them", () => {
    expect(referencedLines('see #L12-L20 here', 7)).toEqual({ start: 12, end: 20 });
    expect(referencedLines('line #L3.', 7)).toEqual({ start: 3, end: 3 });
    expect(referencedLines('at https://paste.example/thread/7#L4-L6', 7)).toEqual({ start: 4, end: 6 });
    expect(referencedLines('[here](/thread/7#L9)', 7)).toEqual({ start: 9, end: 9 });
    expect(referencedLines('another paste: /thread/8#L4', 7)).toBeNull();
    expect(referencedLines('issue#L4 or #Lx', 7)).toBeNull();
  });
});

describe('language search', () => {
  it('finds by name, alias or title, exact matches first', () => {
    expect(searchLanguages('py')[0]!.name).toBe('python');
    expect(
      searchLanguages('Python')
        .map((l) => l.name)
        .slice(0, 1),
    ).toEqual(['python']);
    expect(searchLanguages('ts')[0]!.name).toBe('typescript');
    expect(searchLanguages('terminal')[0]!.name).toBe('ansi');
    expect(searchLanguages('')[0]!.name).toBe('markdown');
    expect(searchLanguages('zzzz')).toEqual([]);
  });
});

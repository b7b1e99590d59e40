import { render, screen } from '@testing-library/react';
import { AnsiSpans, AnsiText, hasSgr, loadAnsi, sgrOnly, stripAnsi, type AnsiLine } from './ansi.js';
import { paletteColor } from './ansi-convert.js';

const E = '\x1b';

async function lines(text: string): Promise<AnsiLine[]> {
  return (await loadAnsi()).lines(text);
}

/** The rendered line: its text, and the inline style of each span. */
function renderLine(line: AnsiLine) {
  const { container } = render(
    <div data-testid="line">
      <AnsiSpans line={line} />
    </div>,
  );
  return container.firstElementChild as HTMLElement;
}

describe('ansi', () => {
  it('tells SGR from other escapes', () => {
    expect(hasSgr(`${E}[31mred${E}[0m`)).toBe(true);
    expect(hasSgr(`${E}[2K${E}[1Aup`)).toBe(false);
    expect(hasSgr('plain [31m text')).toBe(false);
  });

  it('16 colours: the theme palette, bright ones too, and the default after a reset', async () => {
    const [line] = await lines(`${E}[31mred${E}[0m plain ${E}[94mbright${E}[39m back`);
    expect(line).toEqual([
      { text: 'red', style: { color: 'var(--tp-ansi-red)' } },
      { text: ' plain ' },
      { text: 'bright', style: { color: 'var(--tp-ansi-bright-blue)' } },
      { text: ' back' },
    ]);
    const [background] = await lines(`${E}[41;30mwarn`);
    expect(background).toEqual([
      { text: 'warn', style: { color: 'var(--tp-ansi-black)', backgroundColor: 'var(--tp-ansi-red)' } },
    ]);
  });

  it('256 colours: the 16, the 6×6×6 cube and the greys', async () => {
    const [line] = await lines(`${E}[38;5;3my${E}[38;5;208mo${E}[38;5;244mg${E}[48;5;21mb`);
    expect(line).toEqual([
      { text: 'y', style: { color: 'var(--tp-ansi-yellow)' } },
      { text: 'o', style: { color: 'rgb(255, 135, 0)' } },
      { text: 'g', style: { color: 'rgb(128, 128, 128)' } },
      { text: 'b', style: { color: 'rgb(128, 128, 128)', backgroundColor: 'rgb(0, 0, 255)' } },
    ]);
    expect(paletteColor(16)).toBe('rgb(0, 0, 0)');
    expect(paletteColor(231)).toBe('rgb(255, 255, 255)');
    expect(paletteColor(232)).toBe('rgb(8, 8, 8)');
  });

  it('24-bit colours, foreground and background', async () => {
    const [line] = await lines(`${E}[38;2;10;20;30;48;2;250;128;0mtrue${E}[0m`);
    expect(line).toEqual([
      { text: 'true', style: { color: 'rgb(10, 20, 30)', backgroundColor: 'rgb(250, 128, 0)' } },
    ]);
  });

  it('bold and underline, each reset on its own, and all by a reset', async () => {
    const [line] = await lines(`${E}[1mb${E}[4mbu${E}[22mu${E}[24mn${E}[1;4;31mall${E}[mnone`);
    expect(line).toEqual([
      { text: 'b', style: { fontWeight: 700 } },
      { text: 'bu', style: { fontWeight: 700, textDecoration: 'underline' } },
      { text: 'u', style: { textDecoration: 'underline' } },
      { text: 'n' },
      { text: 'all', style: { color: 'var(--tp-ansi-red)', fontWeight: 700, textDecoration: 'underline' } },
      { text: 'none' },
    ]);
    const element = renderLine(line!);
    expect(element.textContent).toBe('bbuunallnone');
    const all = [...element.querySelectorAll('span')].find((span) => span.textContent === 'all')!;
    expect(all.style.color).toBe('var(--tp-ansi-red)');
    expect(all.style.fontWeight).toBe('700');
    expect(all.style.textDecoration).toBe('underline');
  });

  it('a colour carries over a line feed, as in a terminal; CR LF is one line end', async () => {
    expect(await lines(`${E}[32mone\r\ntwo${E}[0m\nthree`)).toEqual([
      [{ text: 'one', style: { color: 'var(--tp-ansi-green)' } }],
      [{ text: 'two', style: { color: 'var(--tp-ansi-green)' } }],
      [{ text: 'three' }],
    ]);
  });

  it('drops cursor moves, erase line, OSC titles and OSC 8 hyperlinks (their text stays)', async () => {
    const text = `${E}]0;my title${E}\\a${E}[2K${E}[1A${E}[10;5H${E}[?25lb ${E}]8;;https://evil.example/${E}\\link${E}]8;;${E}\\ ${E}]8;;javascript:alert(1)\x07js${E}]8;;\x07${E}7${E}(B!`;
    expect(stripAnsi(text)).toBe('ab link js!');
    expect(await lines(text)).toEqual([[{ text: 'ab link js!' }]]);
    const element = renderLine((await lines(text))[0]!);
    expect(element.querySelector('a')).toBeNull();
    expect(element.textContent).toBe('ab link js!');
  });

  it('drops an OSC left open at the end of its line, bells, backspaces and lone escapes', () => {
    expect(stripAnsi(`a${E}]0;never closed\nb\x07\x08c\x00${E}`)).toBe('a\nbc');
    expect(sgrOnly(`${E}[31mr${E}[2Jx`)).toBe(`${E}[31mrx`);
  });

  it('hostile text inside and around SGR renders as text, never as HTML', async () => {
    const text = `<script>alert(1)</script>${E}[31m"><img src=x onerror=alert(1)>${E}[0m${E}[1m</span><b>x</b>${E}[0m&amp;`;
    const [line] = await lines(text);
    const element = renderLine(line!);
    expect(element.querySelector('script, img, b')).toBeNull();
    expect(element.textContent).toBe(
      '<script>alert(1)</script>"><img src=x onerror=alert(1)></span><b>x</b>&amp;',
    );
    expect(element.querySelectorAll('span')).toHaveLength(2);
  });

  it('an SGR that tries to inject CSS gives no style at all', async () => {
    const [line] = await lines(`${E}[38;2;999;0;0mx${E}[38;5;999my`);
    for (const span of line!) {
      for (const value of Object.values(span.style ?? {}))
        expect(String(value)).toMatch(/^(rgb\(\d+, \d+, \d+\)|var\(--tp-ansi-[a-z-]+\)|\d+)$/);
    }
    expect(line!.map((span) => span.text).join('')).toBe('xy');
  });

  it('AnsiText: plain text as is, coloured text once the converter is there', async () => {
    const { rerender } = render(<p data-testid="text">{<AnsiText text="just <b>text</b>" />}</p>);
    expect(screen.getByTestId('text').textContent).toBe('just <b>text</b>');
    expect(screen.getByTestId('text').querySelector('span')).toBeNull();
    rerender(<p data-testid="text">{<AnsiText text={`ok ${E}[32mgreen${E}[0m\n${E}]0;t\x07x`} />}</p>);
    const green = await screen.findByText('green');
    expect(green.style.color).toBe('var(--tp-ansi-green)');
    expect(screen.getByTestId('text').textContent).toBe('ok green\nx');
  });
});

/* eslint-disable no-control-regex -- terminal escape sequences are control characters: matching them is the point */
import { useEffect, useState, type CSSProperties, type ReactNode } from 'react';

/**
 * Terminal colours (issue 16): ANSI SGR sequences (16, 256 and 24-bit colours, bold, dim, italic,
 * underline, strike-through, reverse, reset) turned into React elements, every character a React text
 * node (no HTML from a paste ever reaches the page). Every other escape sequence (cursor moves, erase
 * line, OSC window titles and hyperlinks, DCS strings) and control character is dropped from the view.
 *
 * The converter (anser) is fetched the first time a text with an escape in it is shown: chat lines and
 * pastes without one never load it. `hasSgr`, `stripAnsi` and `sgrOnly` need no converter.
 */

const ESC = '\x1b';
/** One SGR sequence: `ESC [ params m` (the parameters `;`-separated). */
const SGR = /\x1b\[[0-9;]*m/;
const SGR_ALL = /\x1b\[[0-9;]*m/g;
/**
 * Every escape sequence a terminal understands, SGR among them: CSI (`ESC [` … a final byte, or the
 * 8-bit CSI), OSC (`ESC ]` … BEL or ST; one left open ends at the line's end), DCS, SOS, PM and APC
 * strings (`ESC P`, `X`, `^`, `_` … ST), and the two-byte ones (`ESC =`, `ESC 7`, `ESC (B` …).
 */
const ESCAPES =
  /\x1b\[[0-?]*[ -/]*[@-~]|\x9b[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b\n]*(?:\x07|\x1b\\)?|\x1b[PX^_][^\x1b\n]*(?:\x1b\\)?|\x1b[ -/]*[0-~]/g;
/** Control characters a view shows nothing for (tab and line feed stay; a lone ESC goes too). */
const CONTROLS = /[\x00-\x08\x0b-\x1f\x7f\x9b]/g;
const HAS_CONTROL = /[\x00-\x08\x0b-\x1f\x7f\x9b]/;

/** Whether a text has at least one SGR sequence (colours, bold…): what makes a paste `ansi`. */
export function hasSgr(text: string): boolean {
  return SGR.test(text);
}

/** Whether a text has any escape character: only then is there anything to convert or drop. */
export function hasEscapes(text: string): boolean {
  return text.includes(ESC) || text.includes('\x9b');
}

/** The text with its SGR sequences kept and every other escape sequence and control character dropped. */
export function sgrOnly(text: string): string {
  return text
    .replace(/\r\n/g, '\n')
    .replace(ESCAPES, (sequence) => (/^\x1b\[[0-9;]*m$/.test(sequence) ? sequence : ''))
    .replace(/\x1b(?!\[[0-9;]*m)/g, '')
    .replace(CONTROLS, (char) => (char === ESC ? char : ''));
}

/** The text as a terminal shows it, without any escape sequence: what COPY copies. */
export function stripAnsi(text: string): string {
  return HAS_CONTROL.test(text) ? sgrOnly(text).replace(SGR_ALL, '') : text;
}

/** A run of text in one style; its CSS values come only from the palette or validated numbers. */
export interface AnsiSpan {
  text: string;
  style?: CSSProperties;
}
/** One line of the text (no line feed in it). */
export type AnsiLine = AnsiSpan[];

/** What the converter makes of a text: its lines, styled. */
export interface AnsiConverter {
  lines(text: string): AnsiLine[];
}

const NAMES = ['black', 'red', 'green', 'yellow', 'blue', 'magenta', 'cyan', 'white'] as const;
const CUBE = [0, 95, 135, 175, 215, 255];

/** The CSS colour of one of xterm's 256 colours: the 16 from theme.css, then the 6×6×6 cube and greys. */
export function paletteColor(index: number): string {
  if (index < 8) return `var(--tp-ansi-${NAMES[index]})`;
  if (index < 16) return `var(--tp-ansi-bright-${NAMES[index - 8]})`;
  if (index < 232) {
    const n = index - 16;
    return `rgb(${CUBE[Math.floor(n / 36)]}, ${CUBE[Math.floor(n / 6) % 6]}, ${CUBE[n % 6]})`;
  }
  const grey = 8 + (index - 232) * 10;
  return `rgb(${grey}, ${grey}, ${grey})`;
}

/** A colour as anser names it (`ansi-red`, `ansi-bright-red`, `ansi-palette-208`, `ansi-truecolor`). */
function cssColor(name: string | null, truecolor: string | null): string | undefined {
  if (!name) return undefined;
  const named = /^ansi-(bright-)?(black|red|green|yellow|blue|magenta|cyan|white)$/.exec(name);
  if (named) return `var(--tp-ansi-${named[1] ?? ''}${named[2]})`;
  const palette = /^ansi-palette-(\d{1,3})$/.exec(name);
  if (palette) {
    const index = Number(palette[1]);
    return index < 256 ? paletteColor(index) : undefined;
  }
  const rgb = truecolor && /^(\d{1,3}), ?(\d{1,3}), ?(\d{1,3})$/.exec(truecolor);
  if (name === 'ansi-truecolor' && rgb) {
    const [r, g, b] = rgb.slice(1).map((value) => Math.min(255, Number(value)));
    return `rgb(${r}, ${g}, ${b})`;
  }
  return undefined;
}

interface AnserEntry {
  content: string;
  fg: string | null;
  bg: string | null;
  fg_truecolor: string | null;
  bg_truecolor: string | null;
  decorations: string[];
}

function styleOf(entry: AnserEntry): CSSProperties | undefined {
  const style: CSSProperties = {};
  const color = cssColor(entry.fg, entry.fg_truecolor);
  const background = cssColor(entry.bg, entry.bg_truecolor);
  if (color) style.color = color;
  if (background) style.backgroundColor = background;
  const lines: string[] = [];
  for (const decoration of entry.decorations ?? []) {
    if (decoration === 'bold') style.fontWeight = 700;
    else if (decoration === 'dim') style.opacity = 0.7;
    else if (decoration === 'italic') style.fontStyle = 'italic';
    else if (decoration === 'underline') lines.push('underline');
    else if (decoration === 'strikethrough') lines.push('line-through');
    else if (decoration === 'hidden') style.visibility = 'hidden';
  }
  if (lines.length > 0) style.textDecoration = lines.join(' ');
  return Object.keys(style).length > 0 ? style : undefined;
}

type AnserStatic = {
  ansiToJson(text: string, options: { json: true; use_classes: true; remove_empty: true }): AnserEntry[];
};

function converterOf(anser: AnserStatic): AnsiConverter {
  return {
    lines(text) {
      const lines: AnsiLine[] = [[]];
      if (!HAS_CONTROL.test(text)) return text.split('\n').map((line) => (line ? [{ text: line }] : []));
      for (const entry of anser.ansiToJson(sgrOnly(text), {
        json: true,
        use_classes: true,
        remove_empty: true,
      })) {
        const style = styleOf(entry);
        entry.content.split('\n').forEach((piece, index) => {
          if (index > 0) lines.push([]);
          if (piece) lines[lines.length - 1]!.push(style ? { text: piece, style } : { text: piece });
        });
      }
      return lines;
    },
  };
}

let converter: Promise<AnsiConverter> | null = null;
let converterLoaded: AnsiConverter | null = null;

/** The converter, fetched once (a failed fetch is tried again by the next caller). */
export function loadAnsi(): Promise<AnsiConverter> {
  converter ??= import('anser').then(
    (module) => {
      const anser = ((module as { default?: unknown }).default ?? module) as AnserStatic;
      return (converterLoaded = converterOf(anser));
    },
    (error: unknown) => {
      converter = null;
      throw error;
    },
  );
  return converter;
}

/** The converter when it is there, null while it loads (or if it could not be fetched). */
export function useAnsi(needed = true): AnsiConverter | null {
  const [loaded, setLoaded] = useState<AnsiConverter | null>(converterLoaded);
  useEffect(() => {
    if (!needed || loaded) return;
    let live = true;
    loadAnsi().then(
      (value) => live && setLoaded(value),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [needed, loaded]);
  return loaded;
}

/** The spans of one line as React elements (text nodes: React escapes every character). */
export function AnsiSpans({ line }: { line: AnsiLine }): ReactNode {
  return line.map((span, index) =>
    span.style ? (
      <span key={index} className="tp-ansi" style={span.style}>
        {span.text}
      </span>
    ) : (
      span.text
    ),
  );
}

/**
 * A text with terminal colours (a chat line): its lines, coloured, joined by line feeds. Until the
 * converter is there (or if it cannot be fetched) the text shows without its escapes.
 */
export function AnsiText({ text }: { text: string }): ReactNode {
  const coloured = hasSgr(text);
  const ansi = useAnsi(coloured);
  if (!coloured || !ansi) return stripAnsi(text);
  return ansi.lines(text).map((line, index) => (
    <span key={index}>
      {index > 0 && '\n'}
      <AnsiSpans line={line} />
    </span>
  ));
}

/* eslint-disable no-control-regex -- terminal escape sequences are control characters: matching them is the point */
// Loaded on demand (ansi.tsx's loadAnsi): anser, and how its output becomes styled spans.
import type { CSSProperties } from 'react';
import type { AnsiConverter, AnsiLine } from './ansi.js';
import { sgrOnly } from './ansi.js';

/** Control characters (a text without any converts without anser). */
const HAS_CONTROL = /[\x00-\x08\x0b-\x1f\x7f\x9b]/;

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

/** anser, wrapped. */
export async function createConverter(): Promise<AnsiConverter> {
  const module = await import('anser');
  return converterOf(((module as { default?: unknown }).default ?? module) as AnserStatic);
}

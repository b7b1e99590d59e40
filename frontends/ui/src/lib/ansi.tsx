/* eslint-disable no-control-regex -- terminal escape sequences are control characters: matching them is the point */
import { useEffect, useState, type CSSProperties, type ReactNode } from 'react';

/**
 * Terminal colours: ANSI SGR sequences become React elements of text nodes (no HTML from a paste ever
 * reaches the page); every other escape and control character is dropped. The converter (anser) loads
 * only when a text with an escape shows; `hasSgr`, `stripAnsi` and `sgrOnly` need none.
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

let converter: Promise<AnsiConverter> | null = null;
let converterLoaded: AnsiConverter | null = null;

/**
 * The converter (ansi-convert.ts and anser, one chunk: none of it is in a first visit's JavaScript),
 * fetched once (a failed fetch is tried again by the next caller).
 */
export function loadAnsi(): Promise<AnsiConverter> {
  converter ??= import('./ansi-convert.js').then(
    ({ createConverter }) => createConverter().then((loaded) => (converterLoaded = loaded)),
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

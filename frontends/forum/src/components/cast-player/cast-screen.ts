/* eslint-disable no-control-regex -- terminal escape sequences are control characters */
import type { AsciicastEvent } from '@termpaste/contracts/asciicast';

/**
 * A recording's screen at a time, kept simple: its output's lines (SGR colours kept) with line feeds,
 * carriage returns (a line written over), backspaces and screen clears applied; the screen is the last
 * `height` lines. Cursor moves other than those are dropped (the ANSI renderer drops them too).
 */

/** Clears the screen: `ESC [ 2 J` (or 3 J), `ESC c`. */
const CLEAR = /\x1b\[[23]J|\x1bc/;
/** One piece of output: an escape sequence, a control character, or a run of text. */
const PIECES =
  /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[ -/]*[0-~]|[\x00-\x1f\x7f]|[^\x00-\x1f\x7f]+/g;
const SGR = /^\x1b\[[0-9;]*m$/;

export class CastScreen {
  lines: string[] = [''];
  /** A carriage return was written: the next text starts its line again. */
  private returned = false;

  write(data: string): void {
    for (const [piece] of data.matchAll(PIECES)) {
      if (piece === '\n') {
        this.lines.push('');
        this.returned = false;
      } else if (piece === '\r') {
        this.returned = true;
      } else if (piece === '\b') {
        const last = this.lines.length - 1;
        this.lines[last] = this.lines[last]!.replace(/[^\x1b]$/, '');
      } else if (CLEAR.test(piece)) {
        this.lines = [''];
        this.returned = false;
      } else if (SGR.test(piece)) {
        this.lines[this.lines.length - 1] += piece;
      } else if (piece.startsWith('\x1b') || (piece.length === 1 && piece < ' ')) {
        // Another escape or control character: nothing to show.
      } else {
        if (this.returned) {
          this.lines[this.lines.length - 1] = '';
          this.returned = false;
        }
        this.lines[this.lines.length - 1] += piece;
      }
    }
  }

  /** The last `height` lines, joined: what the terminal shows. */
  screen(height: number): string {
    return this.lines.slice(-height).join('\n');
  }
}

/** How many events happen at or before `time` (events are in time order). */
export function eventsUntil(events: readonly AsciicastEvent[], time: number): number {
  let low = 0;
  let high = events.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (events[middle]!.time <= time) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * A player's screen that moves through the events: forward by writing the events between, backward by
 * starting again (a seek back replays from the start, which is fast for a paste-sized recording).
 */
export class CastTimeline {
  private screen = new CastScreen();
  private written = 0;

  constructor(private readonly events: readonly AsciicastEvent[]) {}

  /** The screen's lines at `time` seconds. */
  at(time: number): CastScreen {
    const until = eventsUntil(this.events, time);
    if (until < this.written) {
      this.screen = new CastScreen();
      this.written = 0;
    }
    for (; this.written < until; this.written++) {
      const event = this.events[this.written]!;
      if (event.code === 'o') this.screen.write(event.data);
    }
    return this.screen;
  }
}

/** The time a page address's hash names (`#t=42`, `#t=1.5`, `#t=1m30s`), in seconds, or null. */
export function hashTime(hash: string): number | null {
  const match = /^#?t=(?:(\d+)m)?(\d+(?:\.\d+)?)?s?$/.exec(hash);
  if (!match || (match[1] === undefined && match[2] === undefined)) return null;
  return Number(match[1] ?? 0) * 60 + Number(match[2] ?? 0);
}

/** A time as the player shows it: `m:ss`. */
export function clock(seconds: number): string {
  const whole = Math.floor(seconds);
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
}

/**
 * Terminal recordings: asciinema's asciicast v2 (a JSON header line, then one `[time, code, data]` event
 * a line). Read alike by the API (to check one and to find its text) and by the paste page's player.
 */

/** The language a recording is stored with. */
export const ASCIICAST = 'asciicast';

/** The most events a recording may hold (its size is bounded by the paste's). */
export const ASCIICAST_MAX_EVENTS = 100_000;

export interface AsciicastHeader {
  version: 2;
  width: number;
  height: number;
  title?: string;
}

/** One event: seconds since the start, its code (o: output, i: input, m: marker, r: resize), its data. */
export interface AsciicastEvent {
  time: number;
  code: 'o' | 'i' | 'm' | 'r';
  data: string;
}

export interface Asciicast {
  header: AsciicastHeader;
  events: AsciicastEvent[];
  /** The last event's time (seconds). */
  duration: number;
}

/** The texts of a recording refused (400). */
export const ASCIICAST_MESSAGES = {
  header:
    'Recording is not an asciicast v2: its first line must be a JSON object {"version": 2, "width", "height", …}',
  version: (version: unknown) =>
    `Recording is asciicast version ${String(version)}: only version 2 is supported`,
  size: 'Recording header needs "width" and "height" as whole numbers from 1 to 1000',
  event: (line: number) => `Recording line ${line} is not an event [time, "o"|"i"|"m"|"r", "data"]`,
  time: (line: number) => `Recording line ${line} goes back in time: event times must not decrease`,
  tooManyEvents: `Recording has too many events: at most ${ASCIICAST_MAX_EVENTS}`,
} as const;

const CODES = new Set(['o', 'i', 'm', 'r']);

function parseJson(line: string): unknown {
  try {
    return JSON.parse(line) as unknown;
  } catch {
    return undefined;
  }
}

const wholeSize = (value: unknown): boolean =>
  typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= 1000;

/** Whether the text's first line is an asciicast v2 header (what a recording sent unnamed looks like). */
export function looksLikeAsciicast(text: string): boolean {
  if (!text.startsWith('{')) return false;
  const end = text.indexOf('\n');
  const header = parseJson(end < 0 ? text : text.slice(0, end));
  return (
    typeof header === 'object' &&
    header !== null &&
    (header as { version?: unknown }).version === 2 &&
    wholeSize((header as { width?: unknown }).width) &&
    wholeSize((header as { height?: unknown }).height)
  );
}

/** The recording `text` holds, or the message (ASCIICAST_MESSAGES) of its first fault. Blank lines are skipped. */
export function parseAsciicast(text: string): Asciicast | { error: string } {
  const lines = text.split('\n');
  const header = parseJson(lines[0] ?? '') as Partial<AsciicastHeader> | undefined;
  if (typeof header !== 'object' || header === null || Array.isArray(header)) {
    return { error: ASCIICAST_MESSAGES.header };
  }
  if (header.version !== 2) return { error: ASCIICAST_MESSAGES.version(header.version) };
  if (!wholeSize(header.width) || !wholeSize(header.height)) return { error: ASCIICAST_MESSAGES.size };
  const events: AsciicastEvent[] = [];
  let last = 0;
  for (let index = 1; index < lines.length; index++) {
    const line = lines[index]!.trim();
    if (line === '') continue;
    if (events.length >= ASCIICAST_MAX_EVENTS) return { error: ASCIICAST_MESSAGES.tooManyEvents };
    const event = parseJson(line);
    if (
      !Array.isArray(event) ||
      event.length !== 3 ||
      typeof event[0] !== 'number' ||
      !Number.isFinite(event[0]) ||
      event[0] < 0 ||
      !CODES.has(event[1] as string) ||
      typeof event[2] !== 'string'
    ) {
      return { error: ASCIICAST_MESSAGES.event(index + 1) };
    }
    if (event[0] < last) return { error: ASCIICAST_MESSAGES.time(index + 1) };
    last = event[0];
    events.push({ time: event[0], code: event[1] as AsciicastEvent['code'], data: event[2] });
  }
  const title = typeof header.title === 'string' ? header.title : undefined;
  return {
    header: { version: 2, width: header.width!, height: header.height!, ...(title ? { title } : {}) },
    events,
    duration: last,
  };
}

/** Escape sequences: CSI (colours, cursor moves), OSC (window titles), and two-character ones. */
// eslint-disable-next-line no-control-regex -- the escape character is what it looks for
const ESCAPES = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]/g;

/** A recording's output as plain text: its "o" events in order, escapes removed, CR LF as LF. */
export function asciicastText(events: readonly AsciicastEvent[]): string {
  let text = '';
  for (const event of events) if (event.code === 'o') text += event.data;
  return (
    text
      .replace(ESCAPES, '')
      .replace(/\r+\n/g, '\n')
      // eslint-disable-next-line no-control-regex -- other control characters (bell, lone CR) are no text
      .replace(/[\x00-\x08\x0b-\x1f\x7f]/g, '')
  );
}

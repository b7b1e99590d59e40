/**
 * The one rule for text in a log line: control characters (C0, DEL, C1, Unicode line separators) become
 * escapes, so no value can end a line, forge one or drive the terminal. Both log formats apply it.
 */
// eslint-disable-next-line no-control-regex -- control characters are what this finds
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;
const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function escapeOne(char: string): string {
  const named = NAMED[char];
  if (named) return named;
  const code = char.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16)}`;
}

/** `text` with every control character escaped (`\n`, `\r`, `\t`, `\x1b`, `\x9b`, `\u2028`…). */
export function escapeControl(text: string): string {
  return text.replace(CONTROL, escapeOne);
}

/** A frame boundary of a V8 stack trace: kept, so a stack still prints one frame a line. */
const FRAME = /\n(?=\s+at )/;

/**
 * A stack trace, escaped but for the newlines before its `    at …` frames: a newline anywhere else (in
 * the error's message, say) is escaped, so what follows it cannot pass for a log line of its own.
 */
export function escapeStack(stack: string): string {
  return stack.split(FRAME).map(escapeControl).join('\n');
}

function isPlain(value: object): boolean {
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/**
 * A log field with every string in it escaped: strings, arrays and plain objects (to a small depth);
 * anything else (an Error, a request) is left to its serializer, which escapes what it writes.
 */
export function escapeFields(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return escapeControl(value);
  if (value === null || typeof value !== 'object' || depth > 8) return value;
  if (Array.isArray(value)) return value.map((item) => escapeFields(item, depth + 1));
  if (!isPlain(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    out[escapeControl(key)] =
      key === 'stack' && typeof item === 'string' ? escapeStack(item) : escapeFields(item, depth + 1);
  }
  return out;
}

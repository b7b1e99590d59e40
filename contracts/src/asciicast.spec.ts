import {
  ASCIICAST_MAX_EVENTS,
  ASCIICAST_MESSAGES,
  asciicastText,
  looksLikeAsciicast,
  parseAsciicast,
} from './asciicast.js';

const HEADER = '{"version": 2, "width": 80, "height": 24}';

describe('asciicast v2', () => {
  it('reads a header and its events, skipping blank lines; duration is the last time', () => {
    const cast = parseAsciicast(`${HEADER}\n[0.5, "o", "hi\\r\\n"]\n\n[1.5, "r", "100x30"]\n`);
    expect(cast).toEqual({
      header: { version: 2, width: 80, height: 24 },
      events: [
        { time: 0.5, code: 'o', data: 'hi\r\n' },
        { time: 1.5, code: 'r', data: '100x30' },
      ],
      duration: 1.5,
    });
  });

  it('bounds the events', () => {
    const at = (count: number) => `${HEADER}\n${'[0, "m", ""]\n'.repeat(count)}`;
    expect('error' in parseAsciicast(at(ASCIICAST_MAX_EVENTS))).toBe(false);
    expect(parseAsciicast(at(ASCIICAST_MAX_EVENTS + 1))).toEqual({ error: ASCIICAST_MESSAGES.tooManyEvents });
  });

  it('tells a header apart', () => {
    expect(looksLikeAsciicast(`${HEADER}\n`)).toBe(true);
    expect(looksLikeAsciicast('{"version": 1, "width": 80, "height": 24}')).toBe(false);
    expect(looksLikeAsciicast('{"a": 1}')).toBe(false);
    expect(looksLikeAsciicast('# title')).toBe(false);
  });

  it('its text is the output without escapes', () => {
    expect(
      asciicastText([
        { time: 0, code: 'o', data: '\x1b[1;32mgreen\x1b[0m\r\n\x1b]0;title\x07' },
        { time: 1, code: 'i', data: 'typed' },
        { time: 2, code: 'o', data: 'end\x07\r\n' },
      ]),
    ).toBe('green\nend\n');
  });
});

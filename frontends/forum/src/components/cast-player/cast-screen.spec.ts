import { parseAsciicast, type Asciicast } from '@termpaste/contracts/asciicast';
import { CastScreen, CastTimeline, clock, eventsUntil, hashTime } from './cast-screen';

const cast = parseAsciicast(
  [
    '{"version": 2, "width": 20, "height": 2}',
    '[0.5, "o", "one\\r\\n"]',
    '[1.0, "o", "\\u001b[32mtwo\\u001b[0m\\r\\n"]',
    '[2.0, "i", "typed"]',
    '[3.0, "o", "50%\\r100%"]',
    '[4.0, "o", "\\u001b[2Jclean"]',
  ].join('\n'),
) as Asciicast;

describe('the recording player', () => {
  it('finds the events up to a time', () => {
    expect(eventsUntil(cast.events, 0)).toBe(0);
    expect(eventsUntil(cast.events, 0.5)).toBe(1);
    expect(eventsUntil(cast.events, 2.9)).toBe(3);
    expect(eventsUntil(cast.events, 99)).toBe(5);
  });

  it('shows the last screen-height lines at a time, colours kept, input not shown', () => {
    const timeline = new CastTimeline(cast.events);
    expect(timeline.at(0.2).screen(2)).toBe('');
    expect(timeline.at(0.7).screen(2)).toBe('one\n');
    expect(timeline.at(1).screen(2)).toBe('\x1b[32mtwo\x1b[0m\n');
    expect(timeline.at(2.5).lines).toEqual(['one', '\x1b[32mtwo\x1b[0m', '']);
    // A carriage return writes the line over.
    expect(timeline.at(3).screen(2)).toBe('\x1b[32mtwo\x1b[0m\n100%');
    expect(timeline.at(4).screen(2)).toBe('clean');
    // Seeking back starts again.
    expect(timeline.at(0.6).screen(2)).toBe('one\n');
  });

  it('drops other escapes and applies backspace', () => {
    const screen = new CastScreen();
    screen.write('ab\bc\x1b[1A\x1b[K!\x07');
    expect(screen.lines).toEqual(['ac!']);
  });

  it('reads #t= times and shows m:ss', () => {
    expect(hashTime('#t=42')).toBe(42);
    expect(hashTime('#t=1.5')).toBe(1.5);
    expect(hashTime('#t=1m30s')).toBe(90);
    expect(hashTime('#t=')).toBeNull();
    expect(hashTime('#L3')).toBeNull();
    expect(clock(0)).toBe('0:00');
    expect(clock(90.7)).toBe('1:30');
  });
});

import { chatClock } from './time';

describe('chatClock', () => {
  const now = new Date(2026, 4, 17, 18, 30);

  it('reads HH:MM today and adds the day otherwise', () => {
    expect(chatClock(new Date(2026, 4, 17, 9, 5).toISOString(), now)).toBe('09:05');
    expect(chatClock(new Date(2026, 4, 16, 23, 59).toISOString(), now)).toBe('May 16 23:59');
  });

  it('reads nothing for an invalid date', () => {
    expect(chatClock('soon', now)).toBe('');
  });
});

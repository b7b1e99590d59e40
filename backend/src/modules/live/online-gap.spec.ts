import { ONLINE_FRAMES_PER_S, onlineGapMs } from './live.gateway.js';

describe('how often the online count goes to every chat socket', () => {
  it('keeps the frames a second to ONLINE_FRAMES_PER_S, however many sockets', () => {
    for (const sockets of [10, 1000, 10_000]) {
      expect((sockets * 1000) / onlineGapMs(sockets)).toBe(ONLINE_FRAMES_PER_S);
    }
    // A handful of sockets (a small forum, the tests): at once, as before.
    expect(onlineGapMs(10)).toBe(5);
    expect(onlineGapMs(10_000)).toBe(5000);
  });

  it('waits 10 s at most', () => {
    expect(onlineGapMs(1_000_000)).toBe(10_000);
  });
});

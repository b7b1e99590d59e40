import type { IncomingMessage } from 'node:http';
import { hasCookie } from './cookies.js';

const withCookie = (cookie?: string) =>
  ({ headers: cookie === undefined ? {} : { cookie } }) as IncomingMessage;

describe('hasCookie', () => {
  it.each([
    ['termpaste.sid=abc', true],
    ['a=1; termpaste.sid=abc', true],
    ['a=1;termpaste.sid=', true],
    ['xtermpaste.sid=abc', false],
    ['a=termpaste.sid=abc', false],
    ['termpaste.sidx=1', false],
    ['termpaste_sid=1', false],
    ['', false],
  ])('%j: %s', (cookie, found) => {
    expect(hasCookie(withCookie(cookie), 'termpaste.sid')).toBe(found);
  });

  it('is false without a Cookie header', () => {
    expect(hasCookie(withCookie(), 'termpaste.sid')).toBe(false);
  });
});

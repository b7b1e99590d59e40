import { urlHost } from './url-host.js';

describe('urlHost', () => {
  it.each([
    ['0.0.0.0', 'localhost'],
    ['::', 'localhost'],
    ['127.0.0.1', '127.0.0.1'],
    ['::1', '[::1]'],
    ['example.internal', 'example.internal'],
  ])('%s → %s', (host, expected) => {
    expect(urlHost(host)).toBe(expected);
  });
});

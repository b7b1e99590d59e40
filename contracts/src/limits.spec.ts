import { isRetryableUploadStatus, LIMITS, QUERY_DEFAULTS } from './limits.js';
import { PAGES } from './routes.js';

describe('business limits', () => {
  it('has the documented values', () => {
    expect(LIMITS).toMatchObject({ passwordMin: 8, titleMax: 200, subjectMax: 200, chatMessageMax: 500 });
    expect(LIMITS.avatarMaxBytes).toBe(10485760);
    expect(LIMITS.resetLinkExpiryMs).toBe(3_600_000);
    expect(QUERY_DEFAULTS).toEqual({
      refetchInterval: false,
      refetchOnWindowFocus: false,
      staleTime: Infinity,
      retry: false,
    });
  });

  it.each([408, 409, 418, 423, 429, 500, 502, 503, 599])('retries an upload on %i', (status) => {
    expect(isRetryableUploadStatus(status)).toBe(true);
  });

  it.each([200, 400, 401, 403, 404, 413, 501, 505])('does not retry an upload on %i', (status) => {
    expect(isRetryableUploadStatus(status)).toBe(false);
  });
});

describe('page paths', () => {
  it('encodes the search query', () => {
    expect(PAGES.search('a b&c')).toBe('/search?q=a%20b%26c');
    expect(PAGES.search()).toBe('/search');
  });
});

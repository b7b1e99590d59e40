import { RequestError } from './errors.js';
import { type Answer, networkReason, refusal, retryAfterSeconds, serverMessage } from './client.js';

function answer(status: number, body: unknown, headers: Record<string, string> = {}): Answer {
  const json = typeof body !== 'string';
  return {
    status,
    headers: new Headers({
      'content-type': json ? 'application/json; charset=utf-8' : 'text/html',
      ...headers,
    }),
    body: Buffer.from(json ? JSON.stringify(body) : body),
  };
}

const url = 'http://forum.test';

describe('what the CLI says when the server refuses', () => {
  it('lists the findings of a 422 about secrets, and how to publish anyway', () => {
    const body = {
      statusCode: 422,
      message: 'Possible secret found (1): remove it, or send again with allowSecrets=true to publish anyway',
      findings: [{ rule: 'aws:AWSAccessKeyID', line: 3, column: 28, masked: 'AKIA****************' }],
    };
    expect(refusal(answer(422, body), { what: 'deploy.sh', url }).message).toBe(
      `deploy.sh: ${body.message}; nothing was published\n` +
        '  line 3, column 28: aws:AWSAccessKeyID AKIA****************\n' +
        'check the text, or run again with --allow-secrets to publish it anyway',
    );
    expect(refusal(answer(422, { statusCode: 422, message: 'Unprocessable' }), { url }).message).toBe(
      'the server answered 422: Unprocessable',
    );
  });

  it.each([
    [
      401,
      { statusCode: 401, message: 'Invalid or revoked access token' },
      'the server refused the token (Invalid or revoked access token): log in again with `termpaste login --url http://forum.test`',
    ],
    [
      403,
      { statusCode: 403, message: 'This access token lacks the pastes:write scope' },
      'This access token lacks the pastes:write scope: make a token with the scope this needs in Settings → ACCESS TOKENS',
    ],
    [
      403,
      { statusCode: 403, message: 'Access tokens cannot be used here: sign in on the site' },
      'Access tokens cannot be used here: sign in on the site: make a token with the scope this needs in Settings → ACCESS TOKENS',
    ],
    [
      403,
      '<html>Forbidden</html>',
      'refused: make a token with the scope this needs in Settings → ACCESS TOKENS',
    ],
    [
      403,
      { statusCode: 403, message: 'You can only delete your own pastes' },
      'the server answered 403: You can only delete your own pastes',
    ],
    [
      403,
      { statusCode: 403, message: 'Only its author or an admin can edit this post' },
      'the server answered 403: Only its author or an admin can edit this post',
    ],
    [
      413,
      { statusCode: 413, message: 'Paste is too large: at most 1 MiB (1048576 bytes)' },
      'big.log: Paste is too large: at most 1 MiB (1048576 bytes)',
    ],
    [413, '<html>413 Request Entity Too Large</html>', 'big.log is too large for the server'],
    [415, { statusCode: 415, message: 'Paste must be text' }, 'big.log: Paste must be text'],
    [415, 'nope', 'big.log is not UTF-8 text'],
    [404, { statusCode: 404, message: 'Thread not found' }, 'the server answered 404: Thread not found'],
    [500, 'oops', 'the server answered 500'],
  ])('%i %j', (status, body, text) => {
    const error = refusal(answer(status, body), { what: 'big.log', url });
    expect(error).toBeInstanceOf(RequestError);
    expect(error.message).toBe(text);
    expect(error.exitCode).toBe(1);
    // --json writes it with the status.
    expect(error.status).toBe(status);
  });

  it('429: the retry time from Retry-After, in seconds or as a date', () => {
    const body = { statusCode: 429, message: 'You are posting too fast.' };
    expect(refusal(answer(429, body, { 'retry-after': '42' }), { url }).message).toBe(
      'too many requests: try again in 42 s (You are posting too fast.)',
    );
    const now = Date.parse('2026-11-25T08:00:00Z');
    expect(retryAfterSeconds(answer(429, '', { 'retry-after': 'Wed, 25 Nov 2026 08:01:30 GMT' }), now)).toBe(
      90,
    );
    expect(refusal(answer(429, 'slow down'), { url }).message).toBe('too many requests: try again later');
  });

  it("reads the message of a JSON answer, or of Termpaste's error body under another type", () => {
    expect(serverMessage(answer(400, { message: ['a', 'b'] }))).toBe('a; b');
    expect(serverMessage(answer(404, '{"statusCode":404,"message":"Thread not found"}'))).toBe(
      'Thread not found',
    );
    expect(serverMessage(answer(400, '{"message":"not ours"}'))).toBeUndefined();
    expect(serverMessage(answer(400, '<html>no</html>'))).toBeUndefined();
    expect(serverMessage(answer(400, { statusCode: 400 }))).toBeUndefined();
  });
});

describe('networkReason', () => {
  const failed = (cause: unknown) => Object.assign(new TypeError('fetch failed'), { cause });
  it('names the usual network failures in words', () => {
    expect(networkReason(failed(Object.assign(new Error('x'), { code: 'ECONNREFUSED' })))).toBe(
      'connection refused',
    );
    expect(networkReason(failed(Object.assign(new Error('x'), { code: 'ENOTFOUND' })))).toBe(
      'host not found',
    );
    expect(networkReason(failed(Object.assign(new Error('x'), { code: 'EAI_AGAIN' })))).toBe(
      'host not found',
    );
    const both = new AggregateError([Object.assign(new Error('a'), { code: 'ECONNREFUSED' })]);
    expect(networkReason(failed(both))).toBe('connection refused');
    expect(networkReason(failed(new Error('something else')))).toBe('something else');
  });
});

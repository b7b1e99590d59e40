import { SETTINGS_MESSAGES, UPLOADS, type UploadTicket } from '@termpaste/contracts';
import { errorMessage } from '@termpaste/ui';
import { FakeXhr, sampleFile } from '../testing';
import {
  avatarFileProblem,
  storageErrorText,
  UploadError,
  uploadWithProgress,
  uploadWithRetry,
} from './upload';

/** A ticket as the backend hands it out: the presigned PUT address, and the form the screen does not use. */
const TICKET: UploadTicket = {
  uploadURL: 'https://forum.example.com/api/uploads/pending/7/abc?expires=1800000000&signature=sig',
  method: 'PUT',
  form: {
    url: 'https://bucket.s3.example.com/',
    method: 'POST',
    fields: { key: 'pending/7/abc', Policy: 'eyJjb25kaXRpb25zIjpbXX0=', 'X-Amz-Signature': 'deadbeef' },
  },
  objectURL: 'https://bucket.s3.example.com/pending/7/abc',
};

/** Answers each PUT in turn with the next status (200 once they run out), on the next tick. */
function storageAnswers(...statuses: number[]) {
  FakeXhr.onSend = (xhr) => {
    const status = statuses.shift() ?? 200;
    setTimeout(() =>
      xhr.respond(status, status === 200 ? '' : { statusCode: status, message: `no ${status}` }),
    );
  };
}

describe('uploadWithProgress', () => {
  it('PUTs the file itself to the presigned address, without cookies, and reports progress', async () => {
    const progress: number[] = [];
    const file = sampleFile();
    const done = uploadWithProgress(TICKET, file, (p) => progress.push(p));
    const [xhr] = FakeXhr.sent;
    expect(xhr).toMatchObject({ method: 'PUT', url: TICKET.uploadURL, withCredentials: false });
    // The browser sends the file's own type.
    expect(xhr!.headers['content-type']).toBeUndefined();
    expect(xhr!.body).toBe(file);

    xhr!.progress(25, 100);
    xhr!.progress(2, 3);
    xhr!.respond(200);
    await expect(done).resolves.toBeUndefined();
    expect(progress).toEqual([25, 67, 100]);
  });

  it("rejects with the storage's message, readable by errorMessage", async () => {
    const done = uploadWithProgress(TICKET, sampleFile(), () => undefined);
    FakeXhr.sent[0]!.respond(403, { statusCode: 403, message: 'Request has expired' });
    const error = await done.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UploadError);
    expect(error).toMatchObject({ status: 403, message: '403: Request has expired' });
    expect(errorMessage(error, 'fallback')).toBe('Request has expired');
  });

  it('rejects with status 0 when the network fails', async () => {
    const done = uploadWithProgress(TICKET, sampleFile(), () => undefined);
    FakeXhr.sent[0]!.fail();
    await expect(done).rejects.toMatchObject({ status: 0 });
  });
});

describe('storageErrorText', () => {
  it('reads our JSON error body and S3 XML, its entities read back', () => {
    expect(storageErrorText(413, '{"statusCode":413,"message":"File is too large (max 10MB)"}')).toBe(
      'File is too large (max 10MB)',
    );
    expect(
      storageErrorText(
        403,
        '<?xml version="1.0"?><Error><Code>AccessDenied</Code><Message>Request has expired</Message></Error>',
      ),
    ).toBe('Request has expired');
    expect(
      storageErrorText(
        403,
        '<Error><Code>AccessDenied</Code><Message>Invalid according to Policy: Policy Condition failed: ' +
          '[&quot;eq&quot;, &quot;$Content-Type&quot;, &quot;a&amp;b&quot;]</Message></Error>',
      ),
    ).toBe('Invalid according to Policy: Policy Condition failed: ["eq", "$Content-Type", "a&b"]');
  });

  it('falls back by status when the body says nothing', () => {
    expect(storageErrorText(403, '')).toBe(SETTINGS_MESSAGES.uploadExpired);
    expect(storageErrorText(413, '{}')).toBe(SETTINGS_MESSAGES.uploadTooLarge);
    expect(storageErrorText(415, '')).toBe(SETTINGS_MESSAGES.uploadNotImage);
    expect(storageErrorText(500, '', 'Internal Server Error')).toBe('Internal Server Error');
    expect(storageErrorText(502, '')).toBe('Upload failed (502)');
  });
});

describe('uploadWithRetry', () => {
  const waits: number[] = [];
  const wait = async (ms: number) => {
    waits.push(ms);
  };
  beforeEach(() => {
    waits.length = 0;
  });

  it.each([408, 409, 418, 423, 429, 500, 502, 503, 504])('tries again after a %i', async (status) => {
    storageAnswers(status);
    await uploadWithRetry(TICKET, sampleFile(), () => undefined, { wait });
    expect(FakeXhr.sent).toHaveLength(2);
    expect(waits).toEqual([0]);
  });

  it('waits 0, 1, 3 and 5 seconds between tries, then gives up with the last error', async () => {
    storageAnswers(429, 503, 503, 503, 429);
    const error = await uploadWithRetry(TICKET, sampleFile(), () => undefined, { wait }).catch(
      (e: unknown) => e,
    );
    expect(waits).toEqual([...UPLOADS.retryDelaysMs]);
    expect(FakeXhr.sent).toHaveLength(5);
    expect(error).toMatchObject({ status: 429, message: '429: no 429' });
  });

  it.each([400, 403, 413, 415, 501, 505])('does not retry a %i', async (status) => {
    storageAnswers(status);
    await expect(uploadWithRetry(TICKET, sampleFile(), () => undefined, { wait })).rejects.toMatchObject({
      status,
    });
    expect(FakeXhr.sent).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it('retries a network failure and starts the progress over', async () => {
    const progress: number[] = [];
    let tries = 0;
    FakeXhr.onSend = (xhr) =>
      setTimeout(() => {
        xhr.progress(50, 100);
        if (tries++ === 0) xhr.fail();
        else xhr.respond(200);
      });
    await uploadWithRetry(TICKET, sampleFile(), (p) => progress.push(p), { wait });
    expect(progress).toEqual([0, 50, 0, 50, 100]);
  });

  it('waits for real between tries by default', async () => {
    jest.useFakeTimers();
    try {
      storageAnswers(503, 503);
      let settled = false;
      const done = uploadWithRetry(TICKET, sampleFile(), () => undefined).then(() => (settled = true));
      await jest.advanceTimersByTimeAsync(1); // first answer, then the 0 ms wait, the second try
      expect(FakeXhr.sent).toHaveLength(2);
      await jest.advanceTimersByTimeAsync(998);
      expect(FakeXhr.sent).toHaveLength(2);
      await jest.advanceTimersByTimeAsync(10);
      expect(FakeXhr.sent).toHaveLength(3);
      await done;
      expect(settled).toBe(true);
    } finally {
      jest.useRealTimers();
    }
  });
});

describe('avatarFileProblem', () => {
  it('takes one PNG, JPEG, GIF or WebP image of at most 10,485,760 bytes', () => {
    for (const type of ['image/png', 'image/jpeg', 'image/gif', 'image/webp']) {
      expect(avatarFileProblem([sampleFile({ type, size: 10_485_760 })])).toBeNull();
    }
  });

  it('refuses a bigger file, another type, or more than one file', () => {
    expect(avatarFileProblem([sampleFile({ size: 10_485_761 })])).toBe(SETTINGS_MESSAGES.uploadTooLarge);
    expect(avatarFileProblem([sampleFile({ name: 'a.svg', type: 'image/svg+xml' })])).toBe(
      SETTINGS_MESSAGES.uploadNotImage,
    );
    expect(avatarFileProblem([sampleFile({ name: 'a.txt', type: 'text/plain' })])).toBe(
      SETTINGS_MESSAGES.uploadNotImage,
    );
    expect(avatarFileProblem([sampleFile(), sampleFile()])).toBe('Choose one image only');
  });
});

/**
 * Test support for the settings specs (a fake XMLHttpRequest for the avatar PUT, @termpaste/ui/testing's
 * helpers). Only specs import it. Importing it restores fetch and XMLHttpRequest after each test.
 */
import { afterEach, beforeEach } from '@jest/globals';
import { act } from '@testing-library/react';

export * from '@termpaste/ui/testing';

type Listener = ((event: ProgressEvent) => void) | null;

/**
 * An XMLHttpRequest the test drives: the code under test opens and sends it as a browser's; the test
 * plays the storage with progress(), respond() and fail(). Every request sent since the test began is in
 * `FakeXhr.sent`, oldest first; `FakeXhr.onSend` may answer each one as it is sent.
 */
export class FakeXhr {
  static sent: FakeXhr[] = [];
  static onSend: ((xhr: FakeXhr) => void) | null = null;

  method = '';
  url = '';
  readonly headers: Record<string, string> = {};
  body: unknown = undefined;
  status = 0;
  statusText = '';
  responseText = '';
  readyState = 0;
  withCredentials = false;
  readonly upload: { onprogress: Listener } = { onprogress: null };
  onload: Listener = null;
  onerror: Listener = null;
  onabort: Listener = null;

  open(method: string, url: string): void {
    this.method = method;
    this.url = url;
    this.readyState = 1;
  }

  setRequestHeader(name: string, value: string): void {
    this.headers[name.toLowerCase()] = value;
  }

  send(body?: unknown): void {
    this.body = body;
    FakeXhr.sent.push(this);
    FakeXhr.onSend?.(this);
  }

  abort(): void {
    this.readyState = 4;
    this.onabort?.(new ProgressEvent('abort'));
  }

  /** The browser reports `loaded` of `total` bytes sent. */
  progress(loaded: number, total: number): void {
    act(() => {
      this.upload.onprogress?.(new ProgressEvent('progress', { lengthComputable: true, loaded, total }));
    });
  }

  /** The storage answers: a string body as is, anything else as JSON. */
  respond(status: number, body: unknown = ''): void {
    act(() => {
      this.status = status;
      this.responseText = typeof body === 'string' ? body : JSON.stringify(body);
      this.readyState = 4;
      this.onload?.(new ProgressEvent('load'));
    });
  }

  /** The request never gets an answer (network down). */
  fail(): void {
    act(() => {
      this.readyState = 4;
      this.onerror?.(new ProgressEvent('error'));
    });
  }
}

const realXhr = globalThis.XMLHttpRequest;
beforeEach(() => {
  FakeXhr.sent = [];
  FakeXhr.onSend = null;
  globalThis.XMLHttpRequest = FakeXhr as unknown as typeof XMLHttpRequest;
});
afterEach(() => {
  globalThis.XMLHttpRequest = realXhr;
});

/** A file as the browser's file picker gives it; `size` is faked so no 10 MB buffer is needed. */
export function sampleFile({
  name = 'avatar.png',
  type = 'image/png',
  size,
}: { name?: string; type?: string; size?: number } = {}): File {
  const file = new File(['\x89PNG fake image bytes'], name, { type });
  if (size !== undefined) Object.defineProperty(file, 'size', { value: size });
  return file;
}

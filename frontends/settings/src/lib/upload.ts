import { isRetryableUploadStatus, LIMITS, UPLOADS } from '@termpaste/contracts';
import { AVATAR_CONTENT_TYPES, SETTINGS_MESSAGES, type UploadTicket } from '@termpaste/contracts/settings';

/** Upload progress, 0 to 100. */
export type OnProgress = (percent: number) => void;

/**
 * A failed upload to the storage. Its message reads like the API client's ("<status>: <text>"), so
 * `errorMessage` from @termpaste/ui finds the text; `status` is 0 when the request never got an answer.
 */
export class UploadError extends Error {
  constructor(
    readonly status: number,
    text: string,
  ) {
    super(status ? `${status}: ${text}` : text);
    this.name = 'UploadError';
  }
}

/** What to say when the storage answers without a message of its own. */
const FALLBACK_BY_STATUS: Record<number, string> = {
  403: SETTINGS_MESSAGES.uploadExpired,
  413: SETTINGS_MESSAGES.uploadTooLarge,
  415: SETTINGS_MESSAGES.uploadNotImage,
};

const XML_ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/**
 * The message in a storage error body: our backend answers JSON {statusCode, message}; S3 answers XML
 * with a <Message> element (its entities read back: S3 quotes a failed policy condition).
 */
export function storageErrorText(status: number, body: string, statusText = ''): string {
  const text = body.trim();
  if (text.startsWith('{')) {
    try {
      const message: unknown = (JSON.parse(text) as { message?: unknown }).message;
      if (typeof message === 'string' && message.trim()) return message.trim();
      if (Array.isArray(message) && message.length) return message.join('; ');
    } catch {
      // Not JSON after all: fall through.
    }
  } else {
    const xml = /<Message>([\s\S]*?)<\/Message>/i.exec(text)?.[1]?.trim();
    if (xml) return xml.replace(/&(lt|gt|amp|quot|apos);/g, (_, name: string) => XML_ENTITIES[name]!);
  }
  return FALLBACK_BY_STATUS[status] ?? (statusText.trim() || `Upload failed (${status})`);
}

/**
 * PUTs `file` to its presigned address with XMLHttpRequest (fetch cannot report upload progress), calling
 * `onProgress` with 0–100. Rejects with an UploadError unless 2xx. No cookies: the address is signed.
 */
export function uploadWithProgress(
  ticket: Pick<UploadTicket, 'uploadURL' | 'method'>,
  file: Blob,
  onProgress: OnProgress,
  signal?: AbortSignal,
): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new UploadError(0, 'Upload cancelled'));
    const xhr = new XMLHttpRequest();
    xhr.open(ticket.method, ticket.uploadURL);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) {
        onProgress(Math.min(100, Math.round((event.loaded / event.total) * 100)));
      }
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress(100);
        resolve();
      } else {
        reject(
          new UploadError(xhr.status, storageErrorText(xhr.status, xhr.responseText ?? '', xhr.statusText)),
        );
      }
    };
    xhr.onerror = () => reject(new UploadError(0, 'Network error'));
    xhr.onabort = () => reject(new UploadError(0, 'Upload cancelled'));
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(file);
  });
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export interface RetryOptions {
  /** Wait before each retry; 0, 1, 3 and 5 s (four retries) by default. */
  delaysMs?: readonly number[];
  /** How to wait (tests pass their own). */
  wait?: (ms: number) => Promise<void>;
  signal?: AbortSignal;
}

/** Whether a failed upload is worth another go: a retryable status, or no answer at all (the network). */
function isRetryable(error: unknown, signal?: AbortSignal): boolean {
  if (signal?.aborted || !(error instanceof UploadError)) return false;
  return error.status === 0 || isRetryableUploadStatus(error.status);
}

/**
 * uploadWithProgress, tried again on 408, 409, 418, 423, 429, 5xx but 501 and 505, and network errors,
 * after each of the retry delays in turn (progress starts over); any other failure, or the last one, is
 * thrown.
 */
export async function uploadWithRetry(
  ticket: Pick<UploadTicket, 'uploadURL' | 'method'>,
  file: Blob,
  onProgress: OnProgress,
  { delaysMs = UPLOADS.retryDelaysMs, wait = sleep, signal }: RetryOptions = {},
): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      onProgress(0);
      return await uploadWithProgress(ticket, file, onProgress, signal);
    } catch (error) {
      const delay = delaysMs[attempt];
      if (delay === undefined || !isRetryable(error, signal)) throw error;
      await wait(delay);
    }
  }
}

/** The avatar rules, checked before any request: one file, an image, at most 10 MB. */
export function avatarFileProblem(files: readonly File[]): string | null {
  if (files.length > LIMITS.avatarMaxFiles) return 'Choose one image only';
  const file = files[0];
  if (!file) return 'No file chosen';
  if (!(AVATAR_CONTENT_TYPES as readonly string[]).includes(file.type))
    return SETTINGS_MESSAGES.uploadNotImage;
  if (file.size > LIMITS.avatarMaxBytes) return SETTINGS_MESSAGES.uploadTooLarge;
  return null;
}

/** The `accept` list of the file input. */
export const AVATAR_ACCEPT = AVATAR_CONTENT_TYPES.join(',');

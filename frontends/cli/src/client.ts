import type { ErrorBody, SecretFinding, SecretFindingsBody } from '@termpaste/contracts';
import { RequestError } from './errors.js';
import { CLI_MESSAGES } from './messages.js';

/** How long one request may take (a 1 MiB paste on a slow line included). */
export const REQUEST_TIMEOUT_SECONDS = 60;

export interface Answer {
  status: number;
  headers: Headers;
  body: Buffer;
}

export interface CallOptions {
  method?: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  token?: string | undefined;
  headers?: Record<string, string>;
  body?: Buffer;
}

/**
 * One request with Node's own fetch: the answer's bytes as they came, or a RequestError naming why the
 * server could not be reached.
 */
export async function call(url: string, options: CallOptions = {}): Promise<Answer> {
  const headers: Record<string, string> = { 'User-Agent': 'termpaste-cli', ...options.headers };
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  let response: Response;
  try {
    response = await fetch(url, {
      method: options.method ?? 'GET',
      headers,
      // A copy on an ArrayBuffer of its own: the DOM's BodyInit (which fetch's typings may be) takes no Buffer.
      ...(options.body ? { body: new Uint8Array(options.body) } : {}),
      redirect: 'follow',
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_SECONDS * 1000),
    });
    return {
      status: response.status,
      headers: response.headers,
      body: Buffer.from(await response.arrayBuffer()),
    };
  } catch (error) {
    const where = new URL(url).origin;
    if (error instanceof Error && error.name === 'TimeoutError')
      throw new RequestError(CLI_MESSAGES.timedOut(where, REQUEST_TIMEOUT_SECONDS));
    throw new RequestError(CLI_MESSAGES.unreachable(where, networkReason(error)));
  }
}

/** Why fetch failed, in a few words: fetch's own error says only "fetch failed", its cause the rest. */
export function networkReason(error: unknown): string {
  const cause = (error as { cause?: unknown } | null)?.cause ?? error;
  const code = errorCode(cause);
  switch (code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_NONAME':
      return 'host not found';
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
      return 'connection closed';
    case 'ETIMEDOUT':
    case 'UND_ERR_CONNECT_TIMEOUT':
      return 'connection timed out';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'network unreachable';
    default:
      if (code) return code;
      return cause instanceof Error ? cause.message : String(cause);
  }
}

function errorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') return code;
  // Several addresses tried (localhost: ::1, then 127.0.0.1): an AggregateError of their errors.
  const errors = (error as { errors?: unknown }).errors;
  return Array.isArray(errors) ? errors.map(errorCode).find(Boolean) : undefined;
}

/**
 * The server's `message`: from a JSON answer, or from Termpaste's error body (`{statusCode, message}`)
 * under another content type (a route that answers text/plain, whose error the error filter writes as
 * JSON). A proxy's HTML page has none.
 */
export function serverMessage(answer: Answer): string | undefined {
  const declaredJson = /json/i.test(answer.headers.get('content-type') ?? '');
  let body: unknown;
  try {
    body = JSON.parse(answer.body.toString('utf8'));
  } catch {
    return undefined;
  }
  if (typeof body !== 'object' || body === null) return undefined;
  const { statusCode, message } = body as { [K in keyof ErrorBody]?: unknown };
  if (!declaredJson && typeof statusCode !== 'number') return undefined;
  if (typeof message === 'string') return message;
  if (Array.isArray(message)) return message.filter((part) => typeof part === 'string').join('; ');
  return undefined;
}

/** Retry-After in whole seconds (the header is seconds or an HTTP date), if the answer has one. */
export function retryAfterSeconds(answer: Answer, now = Date.now()): number | undefined {
  const value = answer.headers.get('retry-after')?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}

/**
 * The error for an answer that is not a success: `what` names the thing sent (a file) in the 413 and 415
 * texts, `url` the forum to log in to again after a 401.
 */
export function refusal(answer: Answer, context: { what?: string; url: string }): RequestError {
  const message = serverMessage(answer);
  const what = context.what ?? 'the paste';
  const status = answer.status;
  switch (status) {
    case 401:
      return new RequestError(CLI_MESSAGES.badToken(message, context.url), status);
    case 403:
      // A token's scope (or a route closed to tokens) is the token's fault; anything else (another
      // member's paste) is the server's word alone.
      if (message === undefined || /access token/i.test(message))
        return new RequestError(CLI_MESSAGES.forbidden(message), status);
      return new RequestError(CLI_MESSAGES.serverError(status, message), status);
    case 413:
      return new RequestError(CLI_MESSAGES.tooLarge(what, message), status);
    case 415:
      return new RequestError(CLI_MESSAGES.notText(what, message), status);
    case 422: {
      const findings = secretFindings(answer);
      if (findings) return new RequestError(CLI_MESSAGES.secretsFound(what, message, findings), status);
      return new RequestError(CLI_MESSAGES.serverError(status, message), status);
    }
    case 429:
      return new RequestError(CLI_MESSAGES.rateLimited(retryAfterSeconds(answer), message), status);
    default:
      return new RequestError(CLI_MESSAGES.serverError(status, message), status);
  }
}

/** The findings of a 422 about secrets, or undefined when the body has none. */
function secretFindings(answer: Answer): SecretFinding[] | undefined {
  try {
    const { findings } = JSON.parse(answer.body.toString('utf8')) as Partial<SecretFindingsBody>;
    return Array.isArray(findings) && findings.length > 0 ? findings : undefined;
  } catch {
    return undefined;
  }
}

/** The JSON of a successful answer, or a RequestError when it is not JSON (not a Termpaste server). */
export function json<T>(answer: Answer): T {
  try {
    return JSON.parse(answer.body.toString('utf8')) as T;
  } catch {
    throw new RequestError(CLI_MESSAGES.unexpectedAnswer(answer.status), answer.status);
  }
}

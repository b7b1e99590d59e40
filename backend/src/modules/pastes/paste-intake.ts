import { STATUS_CODES } from 'node:http';
import {
  BadRequestException,
  type CanActivate,
  type ExecutionContext,
  HttpException,
  Injectable,
  PayloadTooLargeException,
  UnsupportedMediaTypeException,
} from '@nestjs/common';
import { PASTE_MESSAGES } from '@termpaste/contracts';
import busboy from 'busboy';
import express, { type Request, type Response } from 'express';
import type { AppConfig } from '../../config/config.js';
import { InjectConfig } from '../../config/config.module.js';

/*
 * `POST /api/pastes` reads its own body whatever its type, so the paste is stored byte for byte (curl
 * --data-binary's form encoding is not decoded) and no more than PASTE_MAX_BYTES is held in memory.
 */

/** `Content-Type` of a JSON body. */
const JSON_TYPE = 'application/json';
/** `Content-Type` of a form with a file (`curl -F file=@path`). */
const FORM_TYPE = 'multipart/form-data';

/** The form field that carries the paste. */
export const FILE_FIELD = 'file';

/**
 * The largest JSON body that may carry a paste of `maxBytes`: escapes make a text longer in JSON (a
 * newline or a quote is two bytes), and the title and language come with it.
 */
export function jsonBodyLimit(maxBytes: number): number {
  return 2 * maxBytes + 64 * 1024;
}

/** A form's bytes beyond its file: boundaries, part headers, and the `title` and `lang` fields. */
const FORM_OVERHEAD = 64 * 1024;

/** What a request to `POST /api/pastes` says, read and checked for size and encoding, not yet validated. */
export interface PasteSubmission {
  /** The paste: UTF-8 text without NUL, at most PASTE_MAX_BYTES (a JSON body's may be any value). */
  content: unknown;
  /** The body's own title (a form field, or JSON's), if any. */
  title?: unknown;
  /** The body's own language (a form's `lang` or `language`, or JSON's `language`), if any. */
  language?: unknown;
  /** A form file's name (without its folders), if the paste came as one. */
  fileName?: string;
  /** The body's own tags (a form's comma-separated `tags`, JSON's list), if any. */
  tags?: unknown;
  /** An armoured SSH signature of the content (a form's `signature` field, or JSON's), if any. */
  signature?: unknown;
}

export function pasteTooLarge(maxBytes: number): PayloadTooLargeException {
  return new PayloadTooLargeException(PASTE_MESSAGES.tooLarge(maxBytes));
}

/** 413 when `content` (a JSON body's, already a string) is larger than `maxBytes` of UTF-8. */
export function checkPasteSize(content: string, maxBytes: number): void {
  // A character is at most 3 bytes per UTF-16 unit: most texts need no count.
  if (content.length * 3 > maxBytes && Buffer.byteLength(content, 'utf8') > maxBytes) {
    throw pasteTooLarge(maxBytes);
  }
}

/** A lone UTF-16 surrogate: a JSON string may hold one (`"\ud800"`), UTF-8 cannot. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * The text of a paste's bytes, exactly (a byte order mark is kept, as any other character): 413 beyond
 * `maxBytes`, 415 for bytes that are not UTF-8 or that hold NUL.
 */
export function decodePaste(bytes: Buffer, maxBytes: number): string {
  if (bytes.length > maxBytes) throw pasteTooLarge(maxBytes);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw new UnsupportedMediaTypeException(PASTE_MESSAGES.notUtf8);
  }
  if (text.includes('\0')) throw new UnsupportedMediaTypeException(PASTE_MESSAGES.nulByte);
  return text;
}

/** The same checks on a paste that came as a JSON string: 413, 415 for NUL or a lone surrogate. */
function checkPasteText(content: string, maxBytes: number): void {
  checkPasteSize(content, maxBytes);
  if (content.includes('\0')) throw new UnsupportedMediaTypeException(PASTE_MESSAGES.nulByte);
  if (LONE_SURROGATE.test(content)) throw new UnsupportedMediaTypeException(PASTE_MESSAGES.notUtf8);
}

/**
 * Reads a body of at most `limit` bytes. A larger one (by its Content-Length, or once more than `limit`
 * has come) is refused at once with `tooLarge()`: what was read is dropped, and the rest is read off the
 * connection and thrown away (never held), so that the client, still sending, gets the answer.
 */
export function readLimited(req: Request, limit: number, tooLarge: () => HttpException): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = req.headers['content-length'];
    if (declared !== undefined && Number(declared) > limit) {
      req.resume();
      reject(tooLarge());
      return;
    }
    let chunks: Buffer[] = [];
    let size = 0;
    const stop = (): void => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) {
        stop();
        chunks = [];
        req.resume();
        reject(tooLarge());
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => {
      stop();
      resolve(Buffer.concat(chunks, size));
    };
    const onError = (error: Error): void => {
      stop();
      reject(new BadRequestException(`The request body could not be read: ${error.message}`));
    };
    // The client went away before the end: nobody is left to answer.
    const onClose = (): void => {
      if (!req.complete) onError(new Error('the client stopped sending'));
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  });
}

/** A form field's text: busboy decodes fields as latin1 here (byte for byte), so its bytes come back. */
function fieldBytes(value: string): Buffer {
  const bytes = Buffer.from(value, 'latin1');
  // A part that named its own charset was decoded with it (characters past latin1): its text is as meant.
  return bytes.toString('latin1') === value ? bytes : Buffer.from(value, 'utf8');
}

/**
 * Reads a form (`curl -F file=@path`, `-F title=…`): the paste is the first `file` part; others dropped.
 * 413 past `maxBytes` (or the form past it and FORM_OVERHEAD); 400 for an unreadable form or no `file`.
 */
function readForm(req: Request, maxBytes: number): Promise<PasteSubmission> {
  const limit = maxBytes + FORM_OVERHEAD;
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > limit) {
    req.resume();
    return Promise.reject(pasteTooLarge(maxBytes));
  }
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: req.headers,
      // Fields byte for byte (see fieldBytes); file names as curl sends them, in UTF-8.
      defCharset: 'latin1',
      defParamCharset: 'utf8',
      limits: { fileSize: maxBytes, fieldSize: maxBytes + 1, fields: 20, parts: 40, headerPairs: 20 },
    });
  } catch {
    req.resume();
    return Promise.reject(new BadRequestException(PASTE_MESSAGES.formUnreadable));
  }
  return new Promise((resolve, reject) => {
    const fields = new Map<string, string>();
    let paste: { bytes: Promise<Buffer>; fileName?: string } | undefined;
    let settled = false;
    let size = 0;
    const fail = (error: HttpException): void => {
      if (settled) return;
      settled = true;
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('close', onClose);
      req.resume();
      reject(error);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) return fail(pasteTooLarge(maxBytes));
      parser.write(chunk);
    };
    const onEnd = (): void => {
      parser.end();
    };
    const onClose = (): void => {
      if (!req.complete)
        fail(new BadRequestException('The request body could not be read: the client stopped sending'));
    };
    parser.on('field', (name, value, info) => {
      if (settled) return;
      if (name === FILE_FIELD) {
        if (paste) return;
        if (info.valueTruncated) return fail(pasteTooLarge(maxBytes));
        paste = { bytes: Promise.resolve(fieldBytes(value)) };
      } else if (!fields.has(name)) {
        fields.set(name, fieldBytes(value).toString('utf8'));
      }
    });
    parser.on('file', (name, stream, info) => {
      if (settled || paste || name !== FILE_FIELD) {
        stream.resume();
        return;
      }
      const chunks: Buffer[] = [];
      paste = {
        fileName: info.filename,
        bytes: new Promise((done, failed) => {
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('limit', () => failed(pasteTooLarge(maxBytes)));
          stream.on('error', () => failed(new BadRequestException(PASTE_MESSAGES.formUnreadable)));
          stream.on('end', () => done(Buffer.concat(chunks)));
        }),
      };
      paste.bytes.catch((error: HttpException) => fail(error));
    });
    parser.on('error', () => fail(new BadRequestException(PASTE_MESSAGES.formUnreadable)));
    parser.on('close', () => {
      if (settled) return;
      if (!paste) return fail(new BadRequestException(PASTE_MESSAGES.fileMissing));
      const { fileName } = paste;
      paste.bytes.then(
        (bytes) => {
          if (settled) return;
          try {
            const content = decodePaste(bytes, maxBytes);
            settled = true;
            resolve({
              content,
              title: fields.get('title'),
              language: fields.get('lang') ?? fields.get('language'),
              tags: fields.get('tags'),
              signature: fields.get('signature'),
              // curl names standard input `-` (`-F file=@-`): no name to go by.
              fileName: fileName && fileName !== '-' ? fileName : undefined,
            });
          } catch (error) {
            fail(error as HttpException);
          }
        },
        (error: HttpException) => fail(error),
      );
    });
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('close', onClose);
  });
}

/** `Malformed JSON in request body: …`, as the error filter words body-parser's 400. */
function malformedJson(error: unknown): BadRequestException {
  return new BadRequestException(
    `Malformed JSON in request body: ${error instanceof Error ? error.message : String(error)}`,
  );
}

/** A JSON body: `{title?, content, language?, tags?}`, the content checked as a paste's bytes would be. */
async function readJson(req: Request, maxBytes: number): Promise<PasteSubmission> {
  const bytes = await readLimited(req, jsonBodyLimit(maxBytes), () => pasteTooLarge(maxBytes));
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new UnsupportedMediaTypeException(PASTE_MESSAGES.notUtf8);
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    throw malformedJson(error);
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new BadRequestException(PASTE_MESSAGES.jsonShape);
  }
  const { title, content, language, tags, signature } = body as Record<string, unknown>;
  if (typeof content === 'string') checkPasteText(content, maxBytes);
  return { content, title, language, tags, signature };
}

/** Reads `POST /api/pastes`'s body by its type (see PasteSubmission). */
export async function readPaste(req: Request, maxBytes: number): Promise<PasteSubmission> {
  if (req.is(FORM_TYPE)) return readForm(req, maxBytes);
  if (req.is(JSON_TYPE)) return readJson(req, maxBytes);
  return { content: decodePaste(await readLimited(req, maxBytes, () => pasteTooLarge(maxBytes)), maxBytes) };
}

/**
 * An error of body-parser (http-errors: a status under 500 and `expose`) as an HttpException with it as
 * its cause, as Nest maps one passed by a middleware: the error filter words it by its `type`.
 */
function parserError(error: unknown): unknown {
  const parsed = error as { status?: number; statusCode?: number; expose?: boolean; message?: string };
  if (!(error instanceof Error) || typeof parsed.statusCode !== 'number' || parsed.statusCode >= 500) {
    return error;
  }
  const message = parsed.expose === false ? (STATUS_CODES[parsed.statusCode] ?? 'Error') : error.message;
  return new HttpException(message, parsed.statusCode, { cause: error });
}

/*
 * The paste routes' bodies are read by guards, the last before the handler: middleware would run before
 * any guard, and a large body must not be read, nor waited for, before the writer, origin and limits are
 * known good. A refused request is answered once its headers are in.
 */

/**
 * `POST /api/pastes`: its body read (readPaste) into `req.body` (a PasteSubmission), after the guards
 * that decide whether it may write at all and before the mention limit, which counts a form's @mentions
 * too. 413, 415 and 400 as readPaste says.
 */
@Injectable()
export class PasteIntakeGuard implements CanActivate {
  private readonly maxBytes: number;

  constructor(@InjectConfig() config: Pick<AppConfig, 'pasteMaxBytes'>) {
    this.maxBytes = config.pasteMaxBytes;
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<Request>();
    req.body = await readPaste(req, this.maxBytes);
    return true;
  }
}

/**
 * The web form's `POST /api/threads` and an edit's `PATCH /api/threads/{id}`: a JSON body read as the app
 * reads any (body-parser), with room for a paste of PASTE_MAX_BYTES (jsonBodyLimit) and a larger one
 * refused with the paste's 413 message. Other types were read by the app's parsers (100 kB).
 */
@Injectable()
export class PasteJsonGuard implements CanActivate {
  private readonly maxBytes: number;
  private readonly parse: express.RequestHandler;

  constructor(@InjectConfig() config: Pick<AppConfig, 'pasteMaxBytes'>) {
    this.maxBytes = config.pasteMaxBytes;
    this.parse = express.json({ limit: jsonBodyLimit(this.maxBytes) });
  }

  canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    return new Promise((resolve, reject) => {
      this.parse(http.getRequest<Request>(), http.getResponse<Response>(), (error?: unknown) => {
        const type = (error as { type?: string } | undefined)?.type;
        if (error === undefined) resolve(true);
        else reject(type === 'entity.too.large' ? pasteTooLarge(this.maxBytes) : parserError(error));
      });
    });
  }
}

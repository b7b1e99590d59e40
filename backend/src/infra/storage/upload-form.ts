import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import { BadRequestException, ForbiddenException } from '@nestjs/common';
import { SETTINGS_MESSAGES } from '@termpaste/contracts';
import busboy from 'busboy';

/** The 400 message when the client stops sending halfway. */
export const UPLOAD_INTERRUPTED = 'The upload was interrupted';

/** The form field that carries the file, as in an S3 POST. */
export const FILE_FIELD = 'file';

/** At most this many fields before the file (the signed ones are five); each at most FIELD_BYTES. */
const MAX_FIELDS = 10;
const FIELD_BYTES = 1024;

/**
 * Reads an upload form as S3 reads a POST: fields first, each once, then `file` (what follows is
 * ignored; its own Content-Type too, as only the fields are signed). 400 no form or file, 403 a bad
 * field, 400 UPLOAD_INTERRUPTED; on failure the request is left unread for the caller to drain or cut.
 */
export function readUploadForm(
  req: IncomingMessage,
  receive: (fields: ReadonlyMap<string, string>, file: Readable) => Promise<void>,
): Promise<void> {
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: req.headers,
      limits: {
        fields: MAX_FIELDS,
        fieldSize: FIELD_BYTES,
        fieldNameSize: 100,
        files: 1,
        parts: MAX_FIELDS + 1,
      },
    });
  } catch {
    // Not multipart/form-data, or no boundary.
    return Promise.reject(new BadRequestException(SETTINGS_MESSAGES.uploadNotForm));
  }
  return new Promise<void>((resolve, reject) => {
    const fields = new Map<string, string>();
    let file: Readable | undefined;
    let received: Promise<void> | undefined;
    let settled = false;
    const fail = (error: unknown) => {
      if (settled) return;
      settled = true;
      req.unpipe(parser);
      reject(error);
    };
    const refuse = () => fail(new ForbiddenException(SETTINGS_MESSAGES.uploadInvalid));

    parser.on('field', (name, value, info) => {
      if (file || settled) return;
      const lower = name.toLowerCase();
      if (info.nameTruncated || info.valueTruncated || fields.has(lower)) return refuse();
      fields.set(lower, value);
    });
    parser.on('fieldsLimit', refuse);
    parser.on('file', (name, stream) => {
      // Refused already (the rest of a chunk is still parsed), a second file, or not the file field.
      if (settled || file || name.toLowerCase() !== FILE_FIELD) {
        stream.resume();
        return;
      }
      file = stream;
      // The parser fails the file when the form breaks off, maybe before `receive` reads it: the error
      // then waits in the stream for `receive` (or is dropped if it never reads), never thrown.
      stream.on('error', () => undefined);
      received = receive(fields, stream);
      received.catch(fail);
    });
    parser.on('error', () => fail(new BadRequestException(SETTINGS_MESSAGES.uploadNotForm)));
    parser.on('close', () => {
      if (!received) return fail(new BadRequestException(SETTINGS_MESSAGES.uploadNotForm));
      received.then(() => {
        settled = true;
        resolve();
      }, fail);
    });
    req.on('close', () => {
      if (req.complete || settled) return;
      // The client went away. Within the file, `receive` sees it stop short (and answers once it has
      // dropped what it wrote); before it, there is nothing to clean up.
      if (file) file.destroy(Object.assign(new Error('aborted'), { code: 'ECONNRESET' }));
      else fail(new BadRequestException(UPLOAD_INTERRUPTED));
    });
    req.pipe(parser);
  });
}

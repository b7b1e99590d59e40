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
 * Reads an upload form (multipart/form-data) the way S3 reads a POST upload: the fields come first, each
 * once (names in any letter case, kept lowercased), then the file in the field `file`; whatever follows
 * the file is ignored. When the file starts, `receive` gets the fields and the file's bytes as they
 * arrive (the part's own Content-Type is ignored: the form's fields are what was signed).
 *
 * 400 `uploadNotForm` for a body that is no such form or has no file; 403 `uploadInvalid` for a field
 * twice, too many or too long; 400 UPLOAD_INTERRUPTED when the client stops sending halfway; else what
 * `receive` throws. On failure the request is left unread: the caller drains or cuts it.
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

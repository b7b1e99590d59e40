import { z } from 'zod';
import { API } from '../routes.js';
import { uploadAddressQuerySchema } from '../queries.js';
import { type ApiOperation, UPLOAD_PATH } from './operation.js';

/** The Uploads routes of API_OPERATIONS. */
export const UPLOADS_OPERATIONS: readonly ApiOperation[] = [
  {
    operationId: 'uploadObject',
    method: 'post',
    path: API.uploads,
    summary: 'Receives an avatar file with a presigned upload form (local storage only)',
    description:
      'The form is what `POST /api/objects/upload` hands out, as S3 takes a presigned POST: its signature ' +
      'authorizes the upload, so neither a session nor an Origin header is needed. The fields come as ' +
      'signed, then the file in `file`, last: a PNG, JPEG, GIF or WebP image (told by its bytes) within ' +
      'the signed size. 409 while an earlier upload with the form is there unclaimed.',
    tag: 'Uploads',
    auth: 'none',
    rawBody: {
      contentType: 'multipart/form-data',
      description: 'The signed fields, then the image file',
      schema: {
        type: 'object',
        required: ['key', 'Content-Type', 'expires', 'max', 'signature', 'file'],
        properties: {
          key: { type: 'string', description: 'The pending object key (`pending/<userId>/<random>`)' },
          'Content-Type': { type: 'string', description: 'As signed (`application/octet-stream`)' },
          expires: { type: 'string', description: 'When the form expires (Unix seconds)' },
          max: { type: 'string', description: 'The largest file allowed, in bytes' },
          signature: { type: 'string', description: 'The signature of the four fields above' },
          file: { type: 'string', contentMediaType: 'application/octet-stream', description: 'The image' },
        },
      },
    },
    responses: [{ status: 204, description: 'Stored' }],
    errors: [400, 403, 409, 413, 415],
  },
  {
    operationId: 'putObject',
    method: 'put',
    path: UPLOAD_PATH,
    summary: 'Receives an avatar file at its presigned PUT address (either storage)',
    description:
      'The `uploadURL` `POST /api/objects/upload` hands out, with its `expires` and `signature`: the ' +
      'signature authorizes the upload, so neither a session nor an Origin header is needed. The body is ' +
      'the image itself, a PNG, JPEG, GIF or WebP (told by its bytes) of at most 10 MB, sent with its ' +
      'Content-Length (411 without) and a Content-Type of none, `application/octet-stream` or one of ' +
      'those four (415 otherwise). The backend streams it into the storage (the bucket with S3) as ' +
      '`application/octet-stream`. Once: 409 after an upload succeeded; a refused one may be sent again.',
    tag: 'Uploads',
    auth: 'none',
    query: uploadAddressQuerySchema,
    rawBody: { contentType: 'image/*', description: 'The image file' },
    responses: [{ status: 200, description: 'Stored' }],
    errors: [400, 403, 409, 411, 413, 415, 503],
  },
  {
    operationId: 'getObject',
    method: 'get',
    path: UPLOAD_PATH,
    summary: 'An avatar (local storage only), with the type its bytes tell',
    tag: 'Uploads',
    auth: 'none',
    responses: [{ status: 200, description: 'The file', schema: z.string(), contentType: 'image/*' }],
    errors: [404],
  },
];

import { API } from '../routes.js';
import { currentUserSchema } from '../schemas.js';
import { selectRankSchema, setAvatarSchema, updateProfileSchema, uploadTicketSchema } from '../settings.js';
import { type ApiOperation, json } from './operation.js';

/** The Settings routes of API_OPERATIONS. */
export const SETTINGS_OPERATIONS: readonly ApiOperation[] = [
  {
    operationId: 'updateProfile',
    method: 'put',
    path: API.userProfile,
    summary: 'Updates first name, last name and bio (an empty one clears it)',
    description:
      'RATE_LIMIT_PROFILE_SAVES_PER_HOUR a member and RATE_LIMIT_PROFILE_SAVES_PER_ADDRESS_PER_HOUR an address (429).',
    tag: 'Settings',
    auth: 'member',
    body: updateProfileSchema,
    responses: [json(200, 'The member afterwards', currentUserSchema)],
    errors: [400, 429],
  },
  {
    operationId: 'setAvatar',
    method: 'put',
    path: API.userAvatar,
    summary: 'Makes an uploaded image the avatar',
    tag: 'Settings',
    auth: 'member',
    body: setAvatarSchema,
    responses: [json(200, 'The member afterwards', currentUserSchema)],
    errors: [400],
  },
  {
    operationId: 'selectRank',
    method: 'post',
    path: API.userSelectRank,
    summary: 'Wears one of the owned premium ranks (null: the reputation rank)',
    tag: 'Settings',
    auth: 'member',
    body: selectRankSchema,
    responses: [json(200, 'The member afterwards', currentUserSchema)],
    errors: [400],
  },
  {
    operationId: 'createUploadUrl',
    method: 'post',
    path: API.objectsUpload,
    summary: 'Where to upload a new avatar file: a presigned PUT address, or the same as a form',
    description:
      'PUT the image itself to `uploadURL` (any storage: the backend checks it and stores it; once), or ' +
      'POST `form.url` (the bucket with S3, else `/api/uploads`) a multipart/form-data body: each of ' +
      '`form.fields` as is, then the file in the field `file`, last. Either is signed for one key and at ' +
      'most 10 MB, and valid 15 minutes. Then `PUT /api/user/avatar` with `objectURL`.',
    tag: 'Settings',
    auth: 'member',
    responses: [json(200, 'Where to upload', uploadTicketSchema)],
    errors: [429, 503],
  },
];

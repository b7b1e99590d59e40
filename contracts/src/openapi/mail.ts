import {
  notificationPreferencesSchema,
  unsubscribeResultSchema,
  updateNotificationPreferencesSchema,
} from '../mail-preferences.js';
import { unsubscribeQuerySchema } from '../queries.js';
import { API } from '../routes.js';
import { type ApiOperation, json } from './operation.js';

/** The notification e-mail routes of API_OPERATIONS: preferences, and the mails' unsubscribe link. */
export const MAIL_OPERATIONS: readonly ApiOperation[] = [
  {
    operationId: 'getNotificationPreferences',
    method: 'get',
    path: API.userNotificationPreferences,
    summary: 'Which notifications also come by e-mail when away, and the digest’s frequency',
    tag: 'Settings',
    auth: 'member',
    responses: [json(200, 'The preferences (defaults until changed)', notificationPreferencesSchema)],
  },
  {
    operationId: 'updateNotificationPreferences',
    method: 'put',
    path: API.userNotificationPreferences,
    summary: 'Changes some notification preferences; the others stay',
    tag: 'Settings',
    auth: 'member',
    body: updateNotificationPreferencesSchema,
    responses: [json(200, 'The preferences afterwards', notificationPreferencesSchema)],
    errors: [400],
  },
  {
    operationId: 'describeUnsubscribe',
    method: 'get',
    path: API.unsubscribe,
    summary: 'What a mail’s unsubscribe link turns off (no sign-in: the token is signed)',
    tag: 'Settings',
    auth: 'none',
    query: unsubscribeQuerySchema,
    responses: [json(200, 'Whose mail, what it stops, whether it is off already', unsubscribeResultSchema)],
    errors: [400],
  },
  {
    operationId: 'unsubscribe',
    method: 'post',
    path: API.unsubscribe,
    summary: 'Turns off what the unsubscribe link names (RFC 8058 one-click: any site may post it)',
    description:
      'The one-click POST of mail clients (`List-Unsubscribe=One-Click` as a form body) works too: no ' +
      'sign-in and no Origin check, the token alone authorizes it.',
    tag: 'Settings',
    auth: 'none',
    query: unsubscribeQuerySchema,
    responses: [json(200, 'What was turned off', unsubscribeResultSchema)],
    errors: [400],
  },
];

import { messagesPageSchema, privateMessageSchema, sendMessageSchema } from '../messaging.js';
import { cursorQuerySchema } from '../queries.js';
import { API } from '../routes.js';
import { supportRequestSchema, supportResultSchema } from '../settings.js';
import { type ApiOperation, ID, json } from './operation.js';

/** The Messages routes of API_OPERATIONS. */
export const MESSAGES_OPERATIONS: readonly ApiOperation[] = [
  {
    operationId: 'listInbox',
    method: 'get',
    path: API.messages,
    summary: 'The inbox, newest first',
    tag: 'Messages',
    auth: 'member',
    query: cursorQuerySchema,
    responses: [json(200, 'A page of messages', messagesPageSchema)],
    errors: [400],
  },
  {
    operationId: 'listSentMessages',
    method: 'get',
    path: API.messagesSent,
    summary: 'Sent messages, newest first',
    tag: 'Messages',
    auth: 'member',
    query: cursorQuerySchema,
    responses: [json(200, 'A page of messages', messagesPageSchema)],
    errors: [400],
  },
  {
    operationId: 'sendMessage',
    method: 'post',
    path: API.messages,
    summary: 'Sends a private message (recipientEmail: an e-mail address or a username)',
    tag: 'Messages',
    auth: 'member',
    body: sendMessageSchema,
    responses: [json(201, 'Sent', privateMessageSchema)],
    errors: [400, 404, 429],
  },
  {
    operationId: 'markMessageRead',
    method: 'patch',
    path: API.messageRead(ID),
    summary: 'Marks a received message read',
    tag: 'Messages',
    auth: 'member',
    responses: [json(200, 'The message', privateMessageSchema)],
    errors: [404],
  },
  {
    operationId: 'sendSupportRequest',
    method: 'post',
    path: API.support,
    summary: 'Writes to the staff: a private message to the owner and every admin',
    tag: 'Messages',
    auth: 'member',
    body: supportRequestSchema,
    responses: [json(201, 'How many staff members got it', supportResultSchema)],
    errors: [400, 409, 429],
  },
];

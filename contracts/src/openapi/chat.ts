import { chatHistorySchema, chatMessagePostSchema, chatMessageSchema, chatPostSchema } from '../messaging.js';
import { API } from '../routes.js';
import { type ApiOperation, json } from './operation.js';

/** The Chat routes of API_OPERATIONS. */
export const CHAT_OPERATIONS: readonly ApiOperation[] = [
  {
    operationId: 'getChat',
    method: 'get',
    path: API.chat,
    summary: 'The latest chat messages, newest first (popover)',
    tag: 'Chat',
    auth: 'member',
    responses: [json(200, 'The latest messages', chatHistorySchema)],
  },
  {
    operationId: 'postChat',
    method: 'post',
    path: API.chat,
    summary: 'Posts to the chat (popover: `message`)',
    tag: 'Chat',
    auth: 'member',
    body: chatPostSchema,
    responses: [json(201, 'Posted', chatMessageSchema)],
    errors: [400, 429],
  },
  {
    operationId: 'getChatMessages',
    method: 'get',
    path: API.chatMessages,
    summary: 'The latest chat messages, newest first (chat page)',
    tag: 'Chat',
    auth: 'member',
    responses: [json(200, 'The latest messages', chatHistorySchema)],
  },
  {
    operationId: 'postChatMessage',
    method: 'post',
    path: API.chatMessages,
    summary: 'Posts to the chat (chat page: `content`)',
    tag: 'Chat',
    auth: 'member',
    body: chatMessagePostSchema,
    responses: [json(201, 'Posted', chatMessageSchema)],
    errors: [400, 429],
  },
];

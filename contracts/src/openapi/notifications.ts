import { notificationsPageSchema, unreadCountResultSchema, unreadCountSchema } from '../messaging.js';
import { cursorQuerySchema } from '../queries.js';
import { API } from '../routes.js';
import { type ApiOperation, ID, json } from './operation.js';

/** The Notifications routes of API_OPERATIONS. */
export const NOTIFICATIONS_OPERATIONS: readonly ApiOperation[] = [
  {
    operationId: 'listNotifications',
    method: 'get',
    path: API.notifications,
    summary: 'Notifications, newest first',
    tag: 'Notifications',
    auth: 'member',
    query: cursorQuerySchema,
    responses: [json(200, 'A page of notifications', notificationsPageSchema)],
    errors: [400],
  },
  {
    operationId: 'getUnreadNotificationCount',
    method: 'get',
    path: API.notificationsUnreadCount,
    summary: 'How many notifications are unread (a bare number)',
    tag: 'Notifications',
    auth: 'member',
    responses: [json(200, 'The unread count', unreadCountSchema)],
  },
  {
    operationId: 'markAllNotificationsRead',
    method: 'post',
    path: API.notificationsMarkAllRead,
    summary: 'Marks every notification read',
    tag: 'Notifications',
    auth: 'member',
    responses: [json(200, 'The unread count afterwards', unreadCountResultSchema)],
  },
  {
    operationId: 'markNotificationRead',
    method: 'patch',
    path: API.notificationRead(ID),
    summary: 'Marks one notification read',
    tag: 'Notifications',
    auth: 'member',
    responses: [json(200, 'The unread count afterwards', unreadCountResultSchema)],
    errors: [404],
  },
];

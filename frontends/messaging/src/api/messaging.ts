import {
  API,
  chatHistorySchema,
  chatMessageSchema,
  MESSAGING_TEXTS,
  messagesPageSchema,
  notificationsPageSchema,
  privateMessageSchema,
  unreadCountResultSchema,
  unreadCountSchema,
  type ChatMessage,
  type MessagesPage,
  type Notification,
  type NotificationsPage,
  type PrivateMessage,
  type SendMessageBody,
} from '@termpaste/contracts';
import {
  currentUserQuery,
  getJson,
  refreshQueries,
  sendJson,
  toast,
  toastError,
  useSecretWarning,
  withAllowSecrets,
} from '@termpaste/ui';
import {
  infiniteQueryOptions,
  queryOptions,
  useMutation,
  useQueryClient,
  type InfiniteData,
  type QueryClient,
} from '@tanstack/react-query';

const withCursor = (url: string, cursor: string | null) =>
  cursor ? `${url}?cursor=${encodeURIComponent(cursor)}` : url;

// ---- private messages

export type Mailbox = 'inbox' | 'sent';

/**
 * The inbox (`[API.messages]`, which the shell refetches when a message arrives) and the sent list,
 * newest first, 50 a page. Read afresh on every visit: others write to these lists.
 */
export const mailboxQuery = (box: Mailbox) =>
  infiniteQueryOptions({
    queryKey: [box === 'inbox' ? API.messages : API.messagesSent],
    queryFn: ({ pageParam }) =>
      getJson(withCursor(box === 'inbox' ? API.messages : API.messagesSent, pageParam), messagesPageSchema),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    refetchOnMount: 'always',
  });

/** The key the shell's top bar reads its unread badge from (a bare number). */
export const unreadCountKey = [API.notificationsUnreadCount] as const;

/** Replaces one message wherever a cached mailbox holds it. */
function replaceMessage(client: QueryClient, box: Mailbox, message: PrivateMessage) {
  client.setQueryData(mailboxQuery(box).queryKey, (data: InfiniteData<MessagesPage> | undefined) =>
    data
      ? {
          ...data,
          pages: data.pages.map((page) => ({
            ...page,
            messages: page.messages.map((m) => (m.id === message.id ? message : m)),
          })),
        }
      : data,
  );
}

export function useSendMessage() {
  const client = useQueryClient();
  const guard = useSecretWarning();
  return useMutation({
    mutationFn: (body: SendMessageBody) =>
      guard((allowSecrets) =>
        sendJson('POST', API.messages, privateMessageSchema, withAllowSecrets(body, allowSecrets)),
      ),
    onError: toastError('Failed to send message'),
    onSuccess: (_message, body) => {
      toast({ title: MESSAGING_TEXTS.messageSent, description: `To ${body.recipientEmail}` });
      return refreshQueries(client, mailboxQuery('sent').queryKey);
    },
  });
}

/**
 * Opening an unread message marks it read, shown without a reload. The server reads its notification
 * too, so the unread badge and the notification list are read again.
 */
export function useMarkMessageRead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => sendJson('PATCH', API.messageRead(id), privateMessageSchema),
    onError: toastError('Failed to mark the message as read'),
    onSuccess: (message) => {
      replaceMessage(client, 'inbox', message);
      void refreshQueries(client, unreadCountKey, [API.notifications]);
    },
  });
}

// ---- notifications

/**
 * Notifications, newest first, 50 a page. Each page carries the member's unread count, which also
 * feeds the top bar's badge (`[API.notificationsUnreadCount]`).
 */
export const notificationsQuery = infiniteQueryOptions({
  queryKey: [API.notifications],
  queryFn: async ({ pageParam, client }) => {
    const page = await getJson(withCursor(API.notifications, pageParam), notificationsPageSchema);
    client.setQueryData(unreadCountKey, page.unreadCount);
    return page;
  },
  initialPageParam: null as string | null,
  getNextPageParam: (last) => last.nextCursor,
  refetchOnMount: 'always',
});

/** The unread count as the top bar reads it (a bare number). */
export const unreadCountQuery = queryOptions({
  queryKey: unreadCountKey,
  queryFn: () => getJson(API.notificationsUnreadCount, unreadCountSchema),
});

type NotificationsData = InfiniteData<NotificationsPage>;

/** Rewrites every cached notification page: its notifications and its unread count. */
function updateNotifications(
  client: QueryClient,
  change: (notification: Notification) => Notification,
  unreadCount?: number,
) {
  client.setQueryData(notificationsQuery.queryKey, (data: NotificationsData | undefined) =>
    data
      ? {
          ...data,
          pages: data.pages.map((page) => ({
            ...page,
            notifications: page.notifications.map(change),
            unreadCount: unreadCount ?? page.unreadCount,
          })),
        }
      : data,
  );
  if (unreadCount !== undefined) client.setQueryData(unreadCountKey, unreadCount);
}

/** Puts a notification that arrived live at the top of the list (once). */
export function prependNotification(client: QueryClient, notification: Notification) {
  client.setQueryData(notificationsQuery.queryKey, (data: NotificationsData | undefined) => {
    if (!data || data.pages.some((page) => page.notifications.some((n) => n.id === notification.id))) {
      return data;
    }
    const [first, ...rest] = data.pages;
    if (!first) return data;
    return { ...data, pages: [{ ...first, notifications: [notification, ...first.notifications] }, ...rest] };
  });
}

/**
 * A click marks one notification read: at once on screen, then by the server, whose unread count
 * updates the list's heading and the top bar's badge. A failure puts the notification back as unread.
 */
export function useMarkNotificationRead() {
  const client = useQueryClient();
  const setRead = (id: number, isRead: boolean) =>
    updateNotifications(client, (n) => (n.id === id ? { ...n, isRead } : n));
  return useMutation({
    mutationFn: (id: number) => sendJson('PATCH', API.notificationRead(id), unreadCountResultSchema),
    onMutate: (id) => setRead(id, true),
    onError: (error, id) => {
      setRead(id, false);
      toastError('Failed to mark the notification as read')(error);
    },
    onSuccess: ({ unreadCount }) => updateNotifications(client, (n) => n, unreadCount),
  });
}

export function useMarkAllNotificationsRead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => sendJson('POST', API.notificationsMarkAllRead, unreadCountResultSchema),
    onError: toastError('Failed to mark notifications as read'),
    onSuccess: ({ unreadCount }) => {
      updateNotifications(client, (n) => ({ ...n, isRead: true }), unreadCount);
      toast({ title: MESSAGING_TEXTS.allRead });
    },
  });
}

// ---- global chat

/** The chat page's history (`GET /api/chat/messages`) and the popover's (`GET /api/chat`): newest first. */
export const chatQuery = (variant: 'page' | 'popover') =>
  queryOptions({
    queryKey: [variant === 'page' ? API.chatMessages : API.chat],
    queryFn: () => getJson(variant === 'page' ? API.chatMessages : API.chat, chatHistorySchema),
    refetchOnMount: 'always',
  });

/** Puts a chat message at the top of a cached history (newest first), once. */
export function prependChatMessage(client: QueryClient, variant: 'page' | 'popover', message: ChatMessage) {
  client.setQueryData(chatQuery(variant).queryKey, (list: ChatMessage[] | undefined) =>
    list && !list.some((m) => m.id === message.id) ? [message, ...list] : list,
  );
}

/**
 * A chat line hidden pending review (`chat_hidden`: its placeholder from now on, its text kept only in
 * its author's own view) or shown again (`chat_shown`), in a cached history.
 */
export function applyChatModeration(
  client: QueryClient,
  variant: 'page' | 'popover',
  change: { hidden: number; userId: number } | { shown: ChatMessage },
) {
  client.setQueryData(chatQuery(variant).queryKey, (list: ChatMessage[] | undefined) =>
    list?.map((message) => {
      if ('shown' in change) return message.id === change.shown.id ? change.shown : message;
      if (message.id !== change.hidden) return message;
      const own = message.author?.id === change.userId;
      return { ...message, hidden: true, content: own ? message.content : '' };
    }),
  );
}

/**
 * Sends a chat line: the page posts `{content}` to /api/chat/messages, the popover `{message}` to
 * /api/chat. The line joins the history at once; a failure toasts the server's message or the fallback.
 */
export function useSendChat(variant: 'page' | 'popover') {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (text: string) =>
      variant === 'page'
        ? sendJson('POST', API.chatMessages, chatMessageSchema, { content: text })
        : sendJson('POST', API.chat, chatMessageSchema, { message: text }),
    onError: toastError(MESSAGING_TEXTS.chatSendFailed),
    onSuccess: (message) => {
      toast({ title: MESSAGING_TEXTS.messageSent });
      prependChatMessage(client, variant, message);
      // +1 reputation per chat message.
      void refreshQueries(client, currentUserQuery.queryKey);
    },
  });
}

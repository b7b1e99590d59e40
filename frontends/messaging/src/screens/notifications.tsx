import {
  LIVE_EVENT,
  MESSAGING_TEXTS,
  PAGES,
  type LiveEvent,
  type Notification,
  type NotificationType,
} from '@termpaste/contracts';
import {
  Button,
  Card,
  ListFooter,
  Skeleton,
  cx,
  refreshQueries,
  relativeTime,
  useLiveEvents,
} from '@termpaste/ui';
import { useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import { AtSign, Eye, Hash, Mail, Reply, ShieldAlert, UserPlus, type LucideIcon } from 'lucide-react';
import { Link } from 'react-router-dom';
import {
  notificationsQuery,
  prependNotification,
  unreadCountKey,
  unreadCountQuery,
  useMarkAllNotificationsRead,
  useMarkNotificationRead,
} from '../api/messaging';
import { fullDate } from '../lib/time';

const TYPE_ICONS: Record<NotificationType, { icon: LucideIcon; label: string }> = {
  reply: { icon: Reply, label: 'Reply' },
  message: { icon: Mail, label: 'Message' },
  mention: { icon: AtSign, label: 'Mention' },
  moderation: { icon: ShieldAlert, label: 'Moderation' },
  watch: { icon: Eye, label: 'Watched paste' },
  follow: { icon: UserPlus, label: 'Followed member' },
  tag: { icon: Hash, label: 'Watched tag' },
};

function TypeIcon({ type }: { type: NotificationType }) {
  const { icon: Icon, label } = TYPE_ICONS[type];
  return (
    <span role="img" aria-label={label} title={label} className={`msg-type-icon msg-type-icon--${type}`}>
      <Icon aria-hidden="true" size={16} />
    </span>
  );
}

function NotificationItem({
  notification: n,
  onRead,
}: {
  notification: Notification;
  onRead: (id: number) => void;
}) {
  const markRead = () => {
    if (!n.isRead) onRead(n.id);
  };
  return (
    // A click anywhere on an unread notification (its links too) marks it read; the button does the
    // same from the keyboard.
    <li
      className={cx('msg-notification', !n.isRead && 'msg-notification--unread')}
      data-testid="notification"
      onClick={markRead}
    >
      <TypeIcon type={n.type} />
      <div className="msg-notification__body">
        <p className="msg-notification__content">{n.content}</p>
        <div className="msg-notification__meta">
          <time dateTime={n.createdAt} title={fullDate(n.createdAt)} className="msg-muted">
            {relativeTime(n.createdAt)}
          </time>
          {!n.isRead && <span className="msg-new-tag">[ NEW ]</span>}
          {n.threadId !== null && (
            <Link to={PAGES.thread(n.threadId)} className="msg-link">
              View thread
            </Link>
          )}
          {n.type === 'message' && (
            <Link to={PAGES.messages} className="msg-link">
              View messages
            </Link>
          )}
        </div>
      </div>
      {!n.isRead && (
        <Button
          variant="ghost"
          size="sm"
          className="msg-notification__read"
          aria-label={`Mark read: ${n.content}`}
          onClick={(event) => {
            event.stopPropagation();
            markRead();
          }}
        >
          MARK READ
        </Button>
      )}
    </li>
  );
}

/** /notifications: the list and unread count, MARK ALL READ; live arrivals join the top while open. */
export function NotificationsScreen() {
  const client = useQueryClient();
  const list = useInfiniteQuery(notificationsQuery);
  // The top bar's count: kept by this screen's calls and the live events, never fetched from here.
  const unread = useQuery({ ...unreadCountQuery, enabled: false });
  const markRead = useMarkNotificationRead();
  const markAll = useMarkAllNotificationsRead();
  const refetch = () => void refreshQueries(client, notificationsQuery.queryKey);

  useLiveEvents({
    enabled: true,
    scope: 'user',
    onEvent: (event: LiveEvent) => {
      if (event.type === LIVE_EVENT.notification) {
        prependNotification(client, event.notification);
        refetch();
      } else if (event.type === LIVE_EVENT.unreadCount) {
        client.setQueryData(unreadCountKey, event.count);
      }
    },
    onOpen: (reconnected) => {
      if (reconnected) refetch();
    },
  });

  const notifications = list.data?.pages.flatMap((page) => page.notifications) ?? null;
  const count = unread.data ?? list.data?.pages[0]?.unreadCount ?? 0;
  const anyUnread = count > 0 || Boolean(notifications?.some((n) => !n.isRead));

  const title = (
    <>
      NOTIFICATIONS{' '}
      {list.data && (
        <span className="msg-title-count" data-testid="unread-count">
          [{count} unread]
        </span>
      )}
    </>
  );
  const actions = anyUnread ? (
    <Button variant="outline" size="sm" loading={markAll.isPending} onClick={() => markAll.mutate()}>
      MARK ALL READ
    </Button>
  ) : undefined;

  let body;
  if (list.isError && !list.data) {
    body = <p className="msg-error">Could not load notifications. Try again in a moment.</p>;
  } else if (notifications === null) {
    body = (
      <ul className="msg-notifications" aria-busy="true" aria-label="Loading notifications">
        {Array.from({ length: 5 }, (_, i) => (
          <li key={i} className="msg-notification" data-testid="skeleton-row">
            <Skeleton width="1.75rem" height="1.75rem" />
            <div className="msg-notification__body">
              <Skeleton width="70%" height="0.9rem" />
              <Skeleton width="30%" height="0.75rem" />
            </div>
          </li>
        ))}
      </ul>
    );
  } else if (notifications.length === 0) {
    body = <p className="msg-empty">{MESSAGING_TEXTS.noNotifications}</p>;
  } else {
    body = (
      <>
        <ul className="msg-notifications" aria-label="Notifications">
          {notifications.map((n) => (
            <NotificationItem key={n.id} notification={n} onRead={(id) => markRead.mutate(id)} />
          ))}
        </ul>
        <ListFooter className="msg-footer" list={list}>
          Showing {notifications.length} notification{notifications.length === 1 ? '' : 's'}
        </ListFooter>
      </>
    );
  }

  return (
    <Card titleLevel={1} title={title} actions={actions} className="msg-narrow">
      {body}
    </Card>
  );
}

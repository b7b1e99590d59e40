import type { ScreenName, WidgetName } from '@termpaste/contracts';
import { lazyScreen } from '@termpaste/ui';
import type { ComponentType } from 'react';
import './messaging.css';
import { ChatPopover } from './screens/chat-popover';

/**
 * Every screen the shell mounts from the messaging remote (SIGNED_IN_ROUTES in contracts), and its
 * widget: the chat popover the shell's layout puts on home (REMOTE_WIDGETS). The popover comes with the
 * module, since home shows it; the screens are fetched when first opened.
 */
export const screens: Record<ScreenName<'messaging'> | WidgetName<'messaging'>, ComponentType> = {
  Messages: lazyScreen(() => import('./screens/messages').then((m) => m.MessagesScreen)),
  Notifications: lazyScreen(() => import('./screens/notifications').then((m) => m.NotificationsScreen)),
  Chat: lazyScreen(() => import('./screens/chat').then((m) => m.ChatScreen)),
  ChatPopover,
};

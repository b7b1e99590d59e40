import type { RemoteWidgetProps, ScreenName, WidgetName } from '@termpaste/contracts';
import { lazyScreen } from '@termpaste/ui';
import type { ComponentType } from 'react';
import './messaging.css';
import { ChatPopover } from './screens/chat-popover';

/**
 * Every screen the shell mounts from the messaging remote, and its widget, the chat popover on home
 * (loaded once a member reaches for the shell's facade). Screens are fetched when first opened.
 */
export const screens: Record<ScreenName<'messaging'>, ComponentType> &
  Record<WidgetName<'messaging'>, ComponentType<RemoteWidgetProps>> = {
  Messages: lazyScreen(() => import('./screens/messages').then((m) => m.MessagesScreen)),
  Notifications: lazyScreen(() => import('./screens/notifications').then((m) => m.NotificationsScreen)),
  Chat: lazyScreen(() => import('./screens/chat').then((m) => m.ChatScreen)),
  ChatPopover,
};

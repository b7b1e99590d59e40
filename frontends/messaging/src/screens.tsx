import type { ScreenName, WidgetName } from '@termpaste/contracts';
import type { ComponentType } from 'react';
import './messaging.css';
import { ChatScreen } from './screens/chat';
import { ChatPopover } from './screens/chat-popover';
import { MessagesScreen } from './screens/messages';
import { NotificationsScreen } from './screens/notifications';

/**
 * Every screen the shell mounts from the messaging remote (SIGNED_IN_ROUTES in contracts), and its
 * widget: the chat popover the shell's layout puts on home (REMOTE_WIDGETS).
 */
export const screens: Record<ScreenName<'messaging'> | WidgetName<'messaging'>, ComponentType> = {
  Messages: MessagesScreen,
  Notifications: NotificationsScreen,
  Chat: ChatScreen,
  ChatPopover,
};

import type { ScreenName } from '@termpaste/contracts';
import { ScreenPlaceholder } from '@termpaste/ui';
import type { ComponentType } from 'react';

/** Every screen the shell mounts from the messaging remote (SIGNED_IN_ROUTES in contracts). */
export const screens: Record<ScreenName<'messaging'>, ComponentType> = {
  Messages: () => <ScreenPlaceholder remote="messaging" title="MESSAGES" />,
  Notifications: () => <ScreenPlaceholder remote="messaging" title="NOTIFICATIONS" />,
  Chat: () => <ScreenPlaceholder remote="messaging" title="GLOBAL CHAT" />,
};

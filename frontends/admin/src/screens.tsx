import type { ScreenName } from '@termpaste/contracts';
import { ScreenPlaceholder } from '@termpaste/ui';
import type { ComponentType } from 'react';

/** Every screen the shell mounts from the admin remote (SIGNED_IN_ROUTES in contracts). */
export const screens: Record<ScreenName<'admin'>, ComponentType> = {
  Admin: () => <ScreenPlaceholder remote="admin" title="ADMIN PANEL" />,
};

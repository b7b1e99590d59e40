import type { ScreenName } from '@termpaste/contracts';
import type { ComponentType } from 'react';
import './admin.css';
import { AdminScreen } from './screens/admin';

/** Every screen the shell mounts from the admin remote (SIGNED_IN_ROUTES in contracts). */
export const screens: Record<ScreenName<'admin'>, ComponentType> = {
  Admin: AdminScreen,
  Review: AdminScreen,
  Tags: AdminScreen,
};

import type { ScreenName } from '@termpaste/contracts';
import { ScreenPlaceholder } from '@termpaste/ui';
import type { ComponentType } from 'react';
import './settings.css';
import { ChangePasswordScreen } from './screens/change-password';

/** Every screen the shell mounts from the settings remote (SIGNED_IN_ROUTES in contracts). */
export const screens: Record<ScreenName<'settings'>, ComponentType> = {
  Settings: () => <ScreenPlaceholder remote="settings" title="PROFILE SETTINGS" />,
  ChangePassword: ChangePasswordScreen,
  Ranks: () => <ScreenPlaceholder remote="settings" title="RANKS" />,
  Upgrades: () => <ScreenPlaceholder remote="settings" title="UPGRADES" />,
  Support: () => <ScreenPlaceholder remote="settings" title="SUPPORT" />,
};

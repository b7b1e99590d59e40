import type { ScreenName } from '@termpaste/contracts';
import { ScreenPlaceholder } from '@termpaste/ui';
import type { ComponentType } from 'react';

/** Every screen the shell mounts from the settings remote (SIGNED_IN_ROUTES in contracts). */
export const screens: Record<ScreenName<'settings'>, ComponentType> = {
  Settings: () => <ScreenPlaceholder remote="settings" title="PROFILE SETTINGS" />,
  ChangePassword: () => <ScreenPlaceholder remote="settings" title="CHANGE PASSWORD" />,
  Ranks: () => <ScreenPlaceholder remote="settings" title="RANKS" />,
  Upgrades: () => <ScreenPlaceholder remote="settings" title="UPGRADES" />,
  Support: () => <ScreenPlaceholder remote="settings" title="SUPPORT" />,
};

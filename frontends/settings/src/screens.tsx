import type { ScreenName } from '@termpaste/contracts';
import type { ComponentType } from 'react';
import './settings.css';
import { AccountScreen } from './screens/account';
import { AccountsScreen } from './screens/accounts';
import { ChangePasswordScreen } from './screens/change-password';
import { NotificationPreferencesScreen } from './screens/notification-preferences';
import { PeopleScreen } from './screens/people';
import { ProfileSettingsScreen } from './screens/profile-settings';
import { RanksScreen } from './screens/ranks';
import { SupportScreen } from './screens/support';
import { TokensScreen } from './screens/tokens';
import { SshKeysScreen } from './screens/ssh-keys';
import { PremiumRanksScreen } from './screens/premium-ranks';
import { WelcomeScreen } from './screens/welcome';
import { WatchingScreen } from './screens/watching';

/** Every screen the shell mounts from the settings remote (SIGNED_IN_ROUTES in contracts). */
export const screens: Record<ScreenName<'settings'>, ComponentType> = {
  Settings: ProfileSettingsScreen,
  ChangePassword: ChangePasswordScreen,
  Tokens: TokensScreen,
  SshKeys: SshKeysScreen,
  Accounts: AccountsScreen,
  Account: AccountScreen,
  People: PeopleScreen,
  NotificationPreferences: NotificationPreferencesScreen,
  Watching: WatchingScreen,
  Welcome: WelcomeScreen,
  Ranks: RanksScreen,
  Upgrades: PremiumRanksScreen,
  Support: SupportScreen,
};

import { SIGNED_IN_ROUTES } from '@termpaste/contracts';
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
import { screens } from './screens';

describe('the screens module the shell loads', () => {
  it('exposes every settings screen, and nothing else', () => {
    const expected = SIGNED_IN_ROUTES.filter((route) => route.remote === 'settings').map((r) => r.screen);
    expect(Object.keys(screens).sort()).toEqual([...new Set(expected)].sort());
  });

  it('maps each route to its built screen (no placeholder left)', () => {
    expect(screens).toEqual({
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
    });
  });
});

import type { ScreenName } from '@termpaste/contracts';
import type { ComponentType } from 'react';
import './forum.css';
import { HardestScreen } from './screens/hardest';
import { HomeScreen } from './screens/home';
import { NewThreadScreen } from './screens/new-thread';
import { ProfileScreen } from './screens/profile';
import { SearchScreen } from './screens/search';
import { ThreadScreen } from './screens/thread';
import { UsersScreen } from './screens/users';

/** Every screen the shell mounts from the forum remote (SIGNED_IN_ROUTES in contracts). */
export const screens: Record<ScreenName<'forum'>, ComponentType> = {
  Home: HomeScreen,
  NewThread: NewThreadScreen,
  Thread: ThreadScreen,
  Profile: ProfileScreen,
  Users: UsersScreen,
  Search: SearchScreen,
  Hardest: HardestScreen,
};

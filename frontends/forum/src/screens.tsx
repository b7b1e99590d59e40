import type { ScreenName } from '@termpaste/contracts';
import { ScreenPlaceholder } from '@termpaste/ui';
import type { ComponentType } from 'react';
import './forum.css';
import { HomeScreen } from './screens/home';

/** Every screen the shell mounts from the forum remote (SIGNED_IN_ROUTES in contracts). */
export const screens: Record<ScreenName<'forum'>, ComponentType> = {
  Home: HomeScreen,
  NewThread: () => <ScreenPlaceholder remote="forum" title="ADD PASTE" />,
  Thread: () => <ScreenPlaceholder remote="forum" title="PASTE" />,
  Profile: () => <ScreenPlaceholder remote="forum" title="PROFILE" />,
  Users: () => <ScreenPlaceholder remote="forum" title="USERS" />,
  Search: () => <ScreenPlaceholder remote="forum" title="SEARCH" />,
  Hardest: () => <ScreenPlaceholder remote="forum" title="HARDEST POSTS" />,
};

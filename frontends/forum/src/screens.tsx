import type { ScreenName } from '@termpaste/contracts';
import { lazyScreen } from '@termpaste/ui';
import type { ComponentType } from 'react';
import './forum.css';
import { HomeScreen } from './screens/home';

/**
 * Every screen the shell mounts from the forum remote (SIGNED_IN_ROUTES in contracts). Home comes with
 * the module (it is the first page a member sees); the others are fetched when first opened.
 */
export const screens: Record<ScreenName<'forum'>, ComponentType> = {
  Home: HomeScreen,
  NewThread: lazyScreen(() => import('./screens/new-paste').then((m) => m.NewPasteScreen)),
  Thread: lazyScreen(() => import('./screens/paste').then((m) => m.PasteScreen)),
  Revisions: lazyScreen(() => import('./screens/revisions').then((m) => m.RevisionsScreen)),
  Profile: lazyScreen(() => import('./screens/profile').then((m) => m.ProfileScreen)),
  Users: lazyScreen(() => import('./screens/users').then((m) => m.UsersScreen)),
  Search: lazyScreen(() => import('./screens/search').then((m) => m.SearchScreen)),
  Hardest: lazyScreen(() => import('./screens/hardest').then((m) => m.HardestScreen)),
  Bookmarks: lazyScreen(() => import('./screens/bookmarks').then((m) => m.BookmarksScreen)),
  Tag: lazyScreen(() => import('./screens/tag').then((m) => m.TagScreen)),
  Tags: lazyScreen(() => import('./screens/tags').then((m) => m.TagsScreen)),
  Language: lazyScreen(() => import('./screens/language').then((m) => m.LanguageScreen)),
};

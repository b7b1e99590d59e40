import { queryOptions, useQuery } from '@tanstack/react-query';
import { API, type CurrentUser } from '@termpaste/contracts';
import { getQueryFn } from './client.js';

/**
 * The signed-in user: a 401 means signed out (null, not an error), never retried. Invalidate
 * `currentUserQuery.queryKey` after login, register, rank change and profile save.
 */
export const currentUserQuery = queryOptions({
  queryKey: [API.currentUser],
  queryFn: getQueryFn<CurrentUser>({ on401: 'returnNull' }),
  retry: false,
});

export interface CurrentUserState {
  user: CurrentUser | null;
  isLoading: boolean;
  isAuthenticated: boolean;
}

export function useCurrentUser(): CurrentUserState {
  const { data, isLoading } = useQuery(currentUserQuery);
  const user = data ?? null;
  return { user, isLoading, isAuthenticated: user !== null };
}

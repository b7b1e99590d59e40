import { queryOptions, useQuery } from '@tanstack/react-query';
import { API, SIGNED_OUT_HEADER, type CurrentUser } from '@termpaste/contracts';

/**
 * The signed-in user, or null for a visitor: asked with SIGNED_OUT_HEADER, so the server answers a visitor
 * 204 rather than 401 (a failed request in a visitor's console); a 401 means signed out too.
 */
async function fetchCurrentUser({
  queryKey,
  signal,
}: {
  queryKey: readonly unknown[];
  signal?: AbortSignal;
}): Promise<CurrentUser | null> {
  // The key is the address (API.currentUser), as for every query of the app.
  const res = await fetch(String(queryKey[0]), {
    credentials: 'include',
    signal,
    headers: { [SIGNED_OUT_HEADER]: '204' },
  });
  if (res.status === 204 || res.status === 401) return null;
  if (!res.ok) throw new Error(`${res.status}: ${(await res.text()) || res.statusText}`);
  return (await res.json()) as CurrentUser;
}

/**
 * The signed-in user: null when signed out (not an error), never retried. Invalidate
 * `currentUserQuery.queryKey` after login, register, rank change and profile save.
 */
export const currentUserQuery = queryOptions({
  queryKey: [API.currentUser],
  queryFn: fetchCurrentUser,
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

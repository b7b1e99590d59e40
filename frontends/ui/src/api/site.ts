import { API, PRODUCT_NAME_DEFAULT, type SignInProvider, type Site } from '@termpaste/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { getQueryFn } from './client.js';

export const siteQuery = queryOptions<Site | null>({
  queryKey: [API.site],
  queryFn: getQueryFn<Site>({ on401: 'returnNull' }),
  retry: false,
});

/** The product name this installation shows (PRODUCT_NAME), before and after sign-in. */
export function useProductName(): string {
  const site = useQuery(siteQuery);
  return site.data?.productName ?? PRODUCT_NAME_DEFAULT;
}

/**
 * How this site lets people in (`GET /api/site`): password sign-in or not, and the providers. `pending`
 * until read, so an SSO-only install never flashes the password form; unreadable means password only.
 */
export function useSignInOptions(): { pending: boolean; localLogin: boolean; providers: SignInProvider[] } {
  const site = useQuery(siteQuery);
  return {
    // Once read (or failed) it stays settled: a refetch after a failure must not swap the form for a spinner.
    pending: site.isPending && !site.isFetchedAfterMount,
    localLogin: site.data?.localLogin ?? true,
    providers: site.data?.signInProviders ?? [],
  };
}

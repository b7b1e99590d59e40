import { API, PRODUCT_NAME_DEFAULT, type Site } from '@termpaste/contracts';
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

import { API, languagePageSchema, tagListSchema, tagPageSchema } from '@termpaste/contracts';
import { getJson } from '@termpaste/ui';
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';

/** `path` with `?cursor=` for a page after the first. */
const paged = (path: string, cursor: string | null) =>
  cursor ? `${path}?cursor=${encodeURIComponent(cursor)}` : path;

/** Every tag by use (/tags). */
export const tagsQuery = queryOptions({
  queryKey: [API.tags],
  queryFn: () => getJson(API.tags, tagListSchema),
});

/** The most used tags starting with `prefix` (the tag input's suggestions); none asked for a blank one. */
export const tagSuggestionsQuery = (prefix: string) =>
  queryOptions({
    queryKey: [API.tags, 'q', prefix],
    queryFn: () => getJson(`${API.tags}?q=${encodeURIComponent(prefix)}`, tagListSchema),
    enabled: prefix !== '',
    staleTime: 30_000,
  });

/** A tag's listed pastes, newest first, 50 a page (/tag/{name}). */
export const tagPageQuery = (name: string) =>
  infiniteQueryOptions({
    queryKey: [API.tags, 'page', name],
    refetchOnMount: 'always',
    queryFn: ({ pageParam }) => getJson(paged(API.tag(encodeURIComponent(name)), pageParam), tagPageSchema),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });

/** A language's listed pastes, newest first, 50 a page (/lang/{name}). */
export const languagePageQuery = (name: string) =>
  infiniteQueryOptions({
    queryKey: ['languages', name],
    refetchOnMount: 'always',
    queryFn: ({ pageParam }) =>
      getJson(paged(API.language(encodeURIComponent(name)), pageParam), languagePageSchema),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });

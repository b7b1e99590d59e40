import {
  API,
  type BookmarkKind,
  bookmarksPageSchema,
  followStateSchema,
  pasteWatchStateSchema,
  type PasteRef,
  tagWatchStateSchema,
  WATCHING_TEXTS,
  watchingListSchema,
  watchSettingsSchema,
} from '@termpaste/contracts';
import { infiniteQueryOptions, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest, getJson, sendJson } from '../api/client.js';
import { toastError } from '../api/form-call.js';
import { toast } from '../components/toast-store.js';

/*
 * Watching pastes and tags, following members, bookmarks: the queries and changes the forum's and the
 * settings' screens share (one cache per tab, read again after each change).
 */

/** `GET /api/threads/{id}/watch`: the member's watch and bookmarks on a paste's page. */
export const pasteWatchQuery = (ref: PasteRef) =>
  queryOptions({
    queryKey: [API.threadWatch(ref)],
    queryFn: () => getJson(API.threadWatch(ref), pasteWatchStateSchema),
  });

export const followQuery = (memberId: number) =>
  queryOptions({
    queryKey: [API.userFollow(memberId)],
    queryFn: () => getJson(API.userFollow(memberId), followStateSchema),
  });

export const tagWatchQuery = (name: string) =>
  queryOptions({
    queryKey: [API.tagWatch(encodeURIComponent(name))],
    queryFn: () => getJson(API.tagWatch(encodeURIComponent(name)), tagWatchStateSchema),
  });

/** `GET /api/user/watching`: the watching screen. */
export const watchingListQuery = queryOptions({
  queryKey: [API.userWatching],
  queryFn: () => getJson(API.userWatching, watchingListSchema),
});

/** `GET /api/bookmarks`, newest first, a page at a time. */
export const bookmarksQuery = infiniteQueryOptions({
  queryKey: [API.bookmarks],
  refetchOnMount: 'always',
  queryFn: ({ pageParam }) =>
    getJson(
      pageParam ? `${API.bookmarks}?cursor=${encodeURIComponent(pageParam)}` : API.bookmarks,
      bookmarksPageSchema,
    ),
  initialPageParam: null as string | null,
  getNextPageParam: (last) => last.nextCursor,
});

/** What to watch or follow, and whether to start (`on`) or stop. */
export type WatchChange =
  | { what: 'paste'; ref: PasteRef; on: boolean }
  | { what: 'member'; id: number; username: string; on: boolean }
  | { what: 'tag'; name: string; on: boolean };

function urlOf(change: WatchChange): string {
  if (change.what === 'paste') return API.threadWatch(change.ref);
  if (change.what === 'member') return API.userFollow(change.id);
  return API.tagWatch(encodeURIComponent(change.name));
}

function toastOf(change: WatchChange): string {
  if (change.what === 'paste')
    return change.on ? WATCHING_TEXTS.watchingToast : WATCHING_TEXTS.unwatchedToast;
  if (change.what === 'member') {
    return (change.on ? WATCHING_TEXTS.followingToast : WATCHING_TEXTS.unfollowedToast)(change.username);
  }
  return (change.on ? WATCHING_TEXTS.tagWatchingToast : WATCHING_TEXTS.tagUnwatchedToast)(change.name);
}

/** Watches or unwatches a paste or a tag, follows or unfollows a member: a toast, and the states read again. */
export function useWatchChange() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (change: WatchChange) => apiRequest(change.on ? 'PUT' : 'DELETE', urlOf(change)),
    onSuccess: async (_result, change) => {
      toast({ title: toastOf(change) });
      await client.invalidateQueries({ queryKey: [urlOf(change)] });
      await client.invalidateQueries({ queryKey: watchingListQuery.queryKey });
    },
    onError: toastError('Could not change what you watch. Try again in a moment.'),
  });
}

/** Bookmarks (with a note) or un-bookmarks a paste or a reply. */
export interface BookmarkChange {
  kind: BookmarkKind;
  target: PasteRef;
  /** The paste whose page shows it (its watch state holds the bookmarks), if on its page. */
  pasteRef?: PasteRef;
  /** undefined: remove the bookmark. */
  note?: string;
}

export function useBookmarkChange() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (change: BookmarkChange) =>
      change.note === undefined
        ? apiRequest('DELETE', API.bookmark(change.kind, change.target))
        : apiRequest('PUT', API.bookmark(change.kind, change.target), { note: change.note }),
    onSuccess: async (_result, change) => {
      toast({
        title: change.note === undefined ? WATCHING_TEXTS.unbookmarkedToast : WATCHING_TEXTS.bookmarkedToast,
      });
      if (change.pasteRef !== undefined) {
        await client.invalidateQueries({ queryKey: pasteWatchQuery(change.pasteRef).queryKey });
      }
      await client.invalidateQueries({ queryKey: bookmarksQuery.queryKey });
    },
    onError: toastError('Could not change your bookmark. Try again in a moment.'),
  });
}

/** Turns watching what the member posts and replies to on or off. */
export function useAutoWatch() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (autoWatch: boolean) => sendJson('PUT', API.userWatching, watchSettingsSchema, { autoWatch }),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: watchingListQuery.queryKey });
    },
    onError: toastError('Could not save the setting. Try again in a moment.'),
  });
}

import {
  API,
  type CreatePasteBody,
  type CreateReplyBody,
  createdSchema,
  heldPostSchema,
  type ForkBody,
  forksPageSchema,
  recentPastesPageSchema,
  searchResultsSchema,
  pasteCardSchema,
  pasteDetailSchema,
  pasteFlagsSchema,
  type PasteDetail,
  userProfileSchema,
  usersPageSchema,
  type VoteBody,
  voteResultSchema,
} from '@termpaste/contracts';
import {
  apiRequest,
  currentUserQuery,
  getJson,
  refreshQueries,
  sendJson,
  toastError,
  useSecretWarning,
  withAllowSecrets,
} from '@termpaste/ui';
import {
  infiniteQueryOptions,
  queryOptions,
  useMutation,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query';

// Home and a paste are read afresh on every visit (each visit of a paste counts a view), so new pastes
// and replies show without a reload; everything else keeps the never-stale default.
export const recentPastesQuery = infiniteQueryOptions({
  queryKey: [API.threadsRecent],
  refetchOnMount: 'always',
  queryFn: ({ pageParam }) =>
    getJson(
      pageParam ? `${API.threadsRecent}?cursor=${encodeURIComponent(pageParam)}` : API.threadsRecent,
      recentPastesPageSchema,
    ),
  initialPageParam: null as string | null,
  getNextPageParam: (last) => last.nextCursor,
});

export const featuredPastesQuery = queryOptions({
  queryKey: [API.threadsFeatured],
  queryFn: () => getJson(API.threadsFeatured, pasteCardSchema.array()),
});

/** A new post's answer: 201 with its id, or 202 when it is held for review by the staff. */
const postedSchema = createdSchema.or(heldPostSchema);

export const pasteQuery = (id: string) =>
  queryOptions({
    queryKey: [API.threads, id],
    queryFn: () => getJson(API.thread(id), pasteDetailSchema),
    refetchOnMount: 'always',
  });

/**
 * The paste a fork starts from (`/thread/new?fork=`): read without counting a view, the reader has seen
 * it already.
 */
export const forkSourceQuery = (id: string) =>
  queryOptions({
    queryKey: [API.threads, id, 'fork-source'],
    queryFn: () => getJson(`${API.thread(id)}?refresh=true`, pasteDetailSchema),
  });

/** A paste's public forks, newest first, a page at a time. */
export const forksQuery = (id: string) =>
  infiniteQueryOptions({
    queryKey: [API.threads, id, 'forks'],
    queryFn: ({ pageParam }) =>
      getJson(
        pageParam ? `${API.threadForks(id)}?cursor=${encodeURIComponent(pageParam)}` : API.threadForks(id),
        forksPageSchema,
      ),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });

export const searchQuery = (q: string) =>
  infiniteQueryOptions({
    queryKey: [API.search, q],
    queryFn: ({ pageParam }) =>
      getJson(`${API.search}?q=${encodeURIComponent(q)}&page=${pageParam}`, searchResultsSchema),
    initialPageParam: 1,
    getNextPageParam: (last) => (last.hasMore ? last.page + 1 : undefined),
  });

// Both members' queries sit under [API.users], so one invalidation covers profiles and the directory.
export const profileQuery = (id: string | number) =>
  queryOptions({
    queryKey: [API.users, String(id)],
    queryFn: () => getJson(API.user(id), userProfileSchema),
  });

export const usersQuery = (q: string) =>
  infiniteQueryOptions({
    queryKey: [API.users, { filter: q }],
    queryFn: ({ pageParam }) => {
      const params = new URLSearchParams();
      if (q) params.set('q', q);
      if (pageParam) params.set('cursor', pageParam);
      const query = params.toString();
      return getJson(query ? `${API.users}?${query}` : API.users, usersPageSchema);
    },
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });

/** Every list a paste appears in (and the members' counts): read again when next shown. */
export function invalidateLists(client: QueryClient) {
  void refreshQueries(
    client,
    ...[API.threadsRecent, API.threadsFeatured, API.search, API.users, API.tags, 'languages'].map((key) => [
      key,
    ]),
  );
}

export function useCreatePaste() {
  const client = useQueryClient();
  const guard = useSecretWarning();
  return useMutation({
    mutationFn: (body: CreatePasteBody) =>
      guard((allowSecrets) =>
        sendJson('POST', API.threads, postedSchema, withAllowSecrets(body, allowSecrets)),
      ),
    onError: toastError('Failed to create paste'),
    onSuccess: () => {
      invalidateLists(client);
      void refreshQueries(client, currentUserQuery.queryKey);
    },
  });
}

/** A fork of the paste `originalId` names: the original's page (its count and forks) is read again. */
export function useForkPaste(originalId: string) {
  const client = useQueryClient();
  const guard = useSecretWarning();
  return useMutation({
    mutationFn: (body: ForkBody) =>
      guard((allowSecrets) =>
        sendJson('POST', API.threadFork(originalId), postedSchema, withAllowSecrets(body, allowSecrets)),
      ),
    onError: toastError('Failed to fork the paste'),
    onSuccess: () => {
      invalidateLists(client);
      void refreshQueries(client, currentUserQuery.queryKey);
      void refreshQueries(client, [API.threads, originalId]);
    },
  });
}

export function useCreateReply(threadId: string) {
  const client = useQueryClient();
  const guard = useSecretWarning();
  return useMutation({
    mutationFn: (body: Pick<CreateReplyBody, 'content' | 'parentId' | 'anchor' | 'suggestion'>) =>
      guard((allowSecrets) =>
        sendJson('POST', API.threadReplies(threadId), postedSchema, withAllowSecrets(body, allowSecrets)),
      ),
    onError: toastError('Failed to post reply'),
    onSuccess: async () => {
      invalidateLists(client);
      void refreshQueries(client, currentUserQuery.queryKey);
      await refreshQueries(client, pasteQuery(threadId).queryKey);
    },
  });
}

/** A vote on the paste or one reply; the result is written into the cached paste (no refetch). */
export function useVote(threadId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: VoteBody) => sendJson('POST', API.votes, voteResultSchema, body),
    onError: toastError('Failed to vote'),
    onSuccess: (result, body) => {
      client.setQueryData(pasteQuery(threadId).queryKey, (thread: PasteDetail | undefined) => {
        if (!thread) return thread;
        const vote = { voteScore: result.voteScore, myVote: result.value };
        if (body.threadId !== undefined) return { ...thread, ...vote };
        return {
          ...thread,
          replies: thread.replies.map((reply) => (reply.id === body.replyId ? { ...reply, ...vote } : reply)),
        };
      });
    },
  });
}

export type PasteFlag = 'pin' | 'lock' | 'featured';
const FLAG_PATHS = { pin: API.adminThreadPin, lock: API.adminThreadLock, featured: API.adminThreadFeatured };

export function useToggleFlag(threadId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (flag: PasteFlag) => sendJson('POST', FLAG_PATHS[flag](threadId), pasteFlagsSchema),
    onError: toastError('Failed to update the paste'),
    onSuccess: (flags) => {
      client.setQueryData(pasteQuery(threadId).queryKey, (thread: PasteDetail | undefined) =>
        thread ? { ...thread, ...flags } : thread,
      );
      invalidateLists(client);
    },
  });
}

export function useDeletePaste(threadId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest('DELETE', API.adminThread(threadId)),
    onError: toastError('Failed to delete the paste'),
    onSuccess: () => invalidateLists(client),
  });
}

/** The author's delete of their own paste (it goes to the trash: staff may restore it). */
export function useDeleteOwnPaste(threadId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest('DELETE', API.thread(threadId)),
    onError: toastError('Failed to delete the paste'),
    onSuccess: () => invalidateLists(client),
  });
}

/**
 * Deletes a reply: `own`, the author's (the reply alone: replies under it stay, under a placeholder),
 * else an admin's (the reply and the replies under it).
 */
export function useDeleteReply(threadId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ replyId, own }: { replyId: number; own: boolean }) =>
      apiRequest('DELETE', own ? API.reply(replyId) : API.adminReply(replyId)),
    onError: toastError('Failed to delete the reply'),
    onSuccess: async () => {
      invalidateLists(client);
      await refreshQueries(client, pasteQuery(threadId).queryKey);
    },
  });
}

/**
 * Reads a paste that burns after reading, and so deletes it (its author's reading does not): the answer
 * is its one showing, kept by the page in memory only. The cached page is dropped: it is gone.
 */
export function useReadOnce(threadId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => sendJson('POST', API.threadReadOnce(threadId), pasteDetailSchema),
    onError: toastError('Could not show the paste'),
    onSuccess: () => {
      client.removeQueries({ queryKey: pasteQuery(threadId).queryKey, exact: true });
    },
  });
}

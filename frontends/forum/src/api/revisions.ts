import type { PasteRef } from '@termpaste/contracts';
import { API, type PasteDetail } from '@termpaste/contracts';
import {
  type EditReplyBody,
  type EditPasteBody,
  editedReplySchema,
  editedPasteSchema,
  revisionListSchema,
  revisionSchema,
  REVISIONS_TEXTS,
} from '@termpaste/contracts/revisions';
import {
  apiRequest,
  getJson,
  refreshQueries,
  sendJson,
  toast,
  toastError,
  useConfirm,
  useSecretWarning,
  withAllowSecrets,
} from '@termpaste/ui';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { pasteQuery } from './pastes';

/** Whose versions a revisions page shows: the paste's, or one of its replies'. */
export type RevisionsOf = { kind: 'thread'; id: PasteRef } | { kind: 'reply'; id: number };

const listPath = (of: RevisionsOf) =>
  of.kind === 'thread' ? API.threadRevisions(of.id) : API.replyRevisions(of.id);
const onePath = (of: RevisionsOf, n: number) =>
  of.kind === 'thread' ? API.threadRevision(of.id, n) : API.replyRevision(of.id, n);

/** Every revisions query sits under this key, so an edit reads them all again. */
const REVISIONS_KEY = 'revisions';

/** A post's versions, newest first. */
export const revisionsQuery = (of: RevisionsOf) =>
  queryOptions({
    queryKey: [REVISIONS_KEY, of.kind, of.id],
    queryFn: () => getJson(listPath(of), revisionListSchema),
    refetchOnMount: 'always',
  });

/** One version's full text (a version never changes once written). */
export const revisionQuery = (of: RevisionsOf, n: number) =>
  queryOptions({
    queryKey: [REVISIONS_KEY, of.kind, of.id, n],
    queryFn: () => getJson(onePath(of, n), revisionSchema),
  });

/** `DELETE …/revisions/{n}`: removes a version (its author or an admin); the history is read again. */
export function usePurgeRevision(of: RevisionsOf) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (n: number) => apiRequest('DELETE', onePath(of, n)),
    onError: toastError('Could not remove the version'),
    onSuccess: (_, n) => {
      toast({ title: REVISIONS_TEXTS.purged(n) });
      return refreshQueries(client, [REVISIONS_KEY, of.kind, of.id]);
    },
  });
}

/**
 * After an edit that took a secret out: when older versions still hold it (`secretVersions`), offers to
 * purge them, and does on PURGE THE OLD VERSION(S).
 */
function useOfferPurge() {
  const confirm = useConfirm();
  const client = useQueryClient();
  return async (of: RevisionsOf, versions: readonly number[]) => {
    if (versions.length === 0) return;
    const purge = await confirm({
      title: REVISIONS_TEXTS.offerTitle,
      description: REVISIONS_TEXTS.offerDescription(versions),
      confirmLabel: REVISIONS_TEXTS.offerConfirm(versions),
      cancelLabel: REVISIONS_TEXTS.offerKeep(versions),
      destructive: true,
    });
    if (!purge) return;
    try {
      for (const n of versions) await apiRequest('DELETE', onePath(of, n));
      toast({ title: REVISIONS_TEXTS.offerDone(versions) });
    } catch (error) {
      toastError(REVISIONS_TEXTS.offerFailed)(error);
    }
    await refreshQueries(client, [REVISIONS_KEY]);
  };
}

/** Lists that show a paste's title or search its words: read again when next shown. */
function afterEdit(client: ReturnType<typeof useQueryClient>, threadId: string) {
  void refreshQueries(
    client,
    [API.threadsRecent],
    [API.threadsFeatured],
    [API.search],
    [API.users],
    [API.tags],
    ['languages'],
    [REVISIONS_KEY],
  );
  return refreshQueries(client, pasteQuery(threadId).queryKey);
}

/**
 * `PATCH /api/threads/{id}`: the edited paste is written into the cached page at once, then read again. A
 * secret in the new content asks first (the secret warning: PUBLISH ANYWAY sends it with allowSecrets).
 */
export function useEditPaste(threadId: string) {
  const client = useQueryClient();
  const guard = useSecretWarning();
  const offerPurge = useOfferPurge();
  return useMutation({
    mutationFn: (body: EditPasteBody) =>
      guard((allowSecrets) =>
        sendJson('PATCH', API.thread(threadId), editedPasteSchema, withAllowSecrets(body, allowSecrets)),
      ),
    onError: toastError('Failed to save the paste'),
    onSuccess: async (edited) => {
      client.setQueryData(pasteQuery(threadId).queryKey, (thread: PasteDetail | undefined) =>
        thread
          ? {
              ...thread,
              title: edited.title,
              content: edited.content,
              language: edited.language,
              editedAt: edited.editedAt,
              expiresAt: edited.expiresAt,
              visibility: edited.visibility,
              tags: edited.tags,
            }
          : thread,
      );
      await afterEdit(client, threadId);
      // Not awaited: the form closes while the offer is open.
      void offerPurge({ kind: 'thread', id: edited.id }, edited.secretVersions);
    },
  });
}

/** `PATCH /api/replies/{id}`, through the secret warning as well. */
export function useEditReply(threadId: string) {
  const client = useQueryClient();
  const guard = useSecretWarning();
  const offerPurge = useOfferPurge();
  return useMutation({
    mutationFn: ({ id, ...body }: EditReplyBody & { id: number }) =>
      guard((allowSecrets) =>
        sendJson('PATCH', API.reply(id), editedReplySchema, withAllowSecrets(body, allowSecrets)),
      ),
    onError: toastError('Failed to save the reply'),
    onSuccess: async (edited) => {
      client.setQueryData(pasteQuery(threadId).queryKey, (thread: PasteDetail | undefined) =>
        thread
          ? {
              ...thread,
              replies: thread.replies.map((reply) =>
                reply.id === edited.id
                  ? { ...reply, content: edited.content, editedAt: edited.editedAt }
                  : reply,
              ),
            }
          : thread,
      );
      await afterEdit(client, threadId);
      void offerPurge({ kind: 'reply', id: edited.id }, edited.secretVersions);
    },
  });
}

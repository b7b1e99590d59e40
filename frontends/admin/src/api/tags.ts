import { adminTagListSchema, API, messageSchema, TAG_ADMIN_MESSAGES } from '@termpaste/contracts';
import { getJson, refreshQueries, sendJson, toast, toastError } from '@termpaste/ui';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';

/** Every tag (unused ones too), most used first; `prefix` narrows it. */
export const adminTagsQuery = (prefix: string) =>
  queryOptions({
    queryKey: [API.adminTags, prefix],
    queryFn: () =>
      getJson(
        prefix ? `${API.adminTags}?q=${encodeURIComponent(prefix)}` : API.adminTags,
        adminTagListSchema,
      ),
  });

/** The tag's path segment (names are a-z, 0-9 and -, but a path is a path). */
const segment = (name: string) => encodeURIComponent(name);

/** Rename, merge or delete: a toast, then the tags, the audit log and every list read again. */
function useTagChange<Vars>(request: (vars: Vars) => Promise<unknown>, done: string, failed: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: request,
    onError: toastError('Try again in a moment.', failed),
    onSuccess: () => {
      toast({ title: done });
      void refreshQueries(client, [API.adminTags], [API.adminAudit], [API.tags], [API.threadsRecent]);
    },
  });
}

export const useRenameTag = () =>
  useTagChange(
    ({ name, to }: { name: string; to: string }) =>
      sendJson('PATCH', API.adminTag(segment(name)), messageSchema, { name: to }),
    TAG_ADMIN_MESSAGES.renamed,
    'Could not rename the tag',
  );

export const useMergeTag = () =>
  useTagChange(
    ({ name, into }: { name: string; into: string }) =>
      sendJson('POST', API.adminTagMerge(segment(name)), messageSchema, { into }),
    TAG_ADMIN_MESSAGES.merged,
    'Could not merge the tags',
  );

export const useDeleteTag = () =>
  useTagChange(
    ({ name }: { name: string }) => sendJson('DELETE', API.adminTag(segment(name)), messageSchema),
    TAG_ADMIN_MESSAGES.deleted,
    'Could not delete the tag',
  );

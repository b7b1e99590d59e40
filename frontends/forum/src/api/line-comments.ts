import { API } from '@termpaste/contracts';
import { editedPasteSchema } from '@termpaste/contracts/revisions';
import { refreshQueries, sendJson, toastError } from '@termpaste/ui';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { pasteQuery } from './pastes';

/**
 * `POST …/suggestions/{replyId}/apply`: the paste's author takes a line comment's suggestion (a new
 * version); the page and its history are read again.
 */
export function useApplySuggestion(threadId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (replyId: number) =>
      sendJson('POST', API.threadSuggestionApply(threadId, replyId), editedPasteSchema, {}),
    onError: toastError('Could not apply the suggestion'),
    onSuccess: async () => {
      void refreshQueries(client, ['revisions'], [API.threadsRecent], [API.search]);
      await refreshQueries(client, pasteQuery(threadId).queryKey);
    },
  });
}

import { API, PAGES } from '@termpaste/contracts';
import { ACCOUNT_MESSAGES, exportStatusSchema } from '@termpaste/contracts/account';
import { apiRequest, getJson, refreshQueries, toast, toastError } from '@termpaste/ui';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';

/** Texts of the account screen that are not the server's. */
export const ACCOUNT_SCREEN_TEXTS = {
  exportFailed: 'Could not start the export',
  exportQueued: 'Export queued',
  deleteFailed: 'Could not delete the account',
  loadFailed: 'Could not load your export. Try again in a moment.',
} as const;

/** `GET /api/user/export`: the newest export; asked again every few seconds while it is being built. */
export const exportQuery = queryOptions({
  queryKey: [API.userExport],
  queryFn: () => getJson(API.userExport, exportStatusSchema),
  refetchOnMount: 'always',
  refetchInterval: (query) =>
    query.state.data?.status === 'queued' || query.state.data?.status === 'running' ? 3000 : false,
});

/** `POST /api/user/export`: 202, or 429 with the server's text (one a day). */
export function useRequestExport() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      await apiRequest('POST', API.userExport);
    },
    onError: toastError(ACCOUNT_SCREEN_TEXTS.exportFailed, 'Export Not Started'),
    onSuccess: () => {
      toast({ title: ACCOUNT_SCREEN_TEXTS.exportQueued, description: ACCOUNT_MESSAGES.exportQueued });
      return refreshQueries(client, exportQuery.queryKey);
    },
  });
}

/** Leaves for the landing page, reloading it: the session is gone with the account. */
function leave(): void {
  window.location.assign(PAGES.landing);
}

/**
 * `DELETE /api/user` {password, keepContent}: 204 (deleted: off to the landing page), or 202 for a member
 * without a password, who gets a mail to confirm.
 */
export function useDeleteAccount() {
  return useMutation({
    mutationFn: async (body: { password?: string; keepContent: boolean }) => {
      const res = await apiRequest('DELETE', API.userAccount, body);
      return res.status;
    },
    onError: toastError(ACCOUNT_SCREEN_TEXTS.deleteFailed, 'Account Not Deleted'),
    onSuccess: (status) => {
      if (status === 202) {
        toast({ title: 'Check your mail', description: ACCOUNT_MESSAGES.deleteLinkSent });
        return;
      }
      toast({ title: ACCOUNT_MESSAGES.accountDeleted, description: 'Goodbye.' });
      leave();
    },
  });
}

/** `POST /api/user/delete-confirm` {token}: the mailed link's confirmation. */
export function useConfirmDelete() {
  return useMutation({
    mutationFn: async (token: string) => {
      await apiRequest('POST', API.userDeleteConfirm, { token });
    },
    onError: toastError(ACCOUNT_SCREEN_TEXTS.deleteFailed, 'Account Not Deleted'),
    onSuccess: () => {
      toast({ title: ACCOUNT_MESSAGES.accountDeleted, description: 'Goodbye.' });
      leave();
    },
  });
}

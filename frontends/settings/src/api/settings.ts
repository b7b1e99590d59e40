import { API, currentUserSchema, type CurrentUser } from '@termpaste/contracts';
import {
  SETTINGS_MESSAGES,
  SETTINGS_TEXTS,
  supportResultSchema,
  uploadTicketSchema,
  type SupportRequestBody,
  type UpdateProfileBody,
} from '@termpaste/contracts/settings';
import {
  currentUserQuery,
  sendJson,
  toast,
  toastError,
  useSecretWarning,
  withAllowSecrets,
} from '@termpaste/ui';
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { uploadWithRetry, type OnProgress } from '../lib/upload';

/** The member as the server now has them, shown at once; then read again. */
function refreshUser(client: QueryClient, user: CurrentUser) {
  client.setQueryData(currentUserQuery.queryKey, user);
  return client.invalidateQueries({ queryKey: currentUserQuery.queryKey });
}

/** `PUT /api/user/profile` {bio, firstName, lastName}, with its toasts. */
export function useSaveProfile() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateProfileBody) => sendJson('PUT', API.userProfile, currentUserSchema, body),
    onError: toastError(SETTINGS_TEXTS.profileFailedText, SETTINGS_TEXTS.profileFailed),
    onSuccess: (user) => {
      toast({ title: SETTINGS_TEXTS.profileUpdated, description: SETTINGS_TEXTS.profileUpdatedText });
      return refreshUser(client, user);
    },
  });
}

/**
 * The avatar flow: `POST /api/objects/upload` gives a presigned address, the file is PUT
 * to it (our backend, whatever the storage) with progress (and retried on the statuses the spec names), then
 * `PUT /api/user/avatar` {avatarURL: the ticket's objectURL} makes it the avatar.
 */
export function useUploadAvatar(onProgress: OnProgress) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (file: File) => {
      const ticket = await sendJson('POST', API.objectsUpload, uploadTicketSchema);
      await uploadWithRetry(ticket, file, onProgress);
      return sendJson('PUT', API.userAvatar, currentUserSchema, { avatarURL: ticket.objectURL });
    },
    onError: toastError(SETTINGS_TEXTS.avatarFailedText, SETTINGS_TEXTS.avatarFailed),
    onSuccess: (user) => {
      toast({ title: SETTINGS_TEXTS.avatarUpdated, description: SETTINGS_TEXTS.avatarUpdatedText });
      return refreshUser(client, user);
    },
  });
}

export const RANK_UPDATED_TITLE = 'Rank Updated';

/** `POST /api/user/select-rank` {rankName}: an owned grade, or null for the reputation rank. */
export function useSelectRank() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (rankName: string | null) =>
      sendJson('POST', API.userSelectRank, currentUserSchema, { rankName }),
    onError: toastError(SETTINGS_TEXTS.rankFailed),
    onSuccess: (user) => {
      toast({ title: RANK_UPDATED_TITLE, description: SETTINGS_TEXTS.rankUpdated });
      return refreshUser(client, user);
    },
  });
}

export const SUPPORT_SENT_TITLE = 'Message sent';

/** `POST /api/support` {subject, content}: a private message to the owner and every admin. */
export function useSendSupport() {
  const guard = useSecretWarning();
  return useMutation({
    mutationFn: (body: SupportRequestBody) =>
      guard((allowSecrets) =>
        sendJson('POST', API.support, supportResultSchema, withAllowSecrets(body, allowSecrets)),
      ),
    onError: toastError('Failed to send message'),
    onSuccess: () => {
      toast({ title: SUPPORT_SENT_TITLE, description: SETTINGS_MESSAGES.supportSent });
    },
  });
}

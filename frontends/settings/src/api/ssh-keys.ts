import { API } from '@termpaste/contracts';
import { type AddSshKeyBody, type SshKey, sshKeyListSchema, sshKeySchema } from '@termpaste/contracts';
import { apiRequest, getJson, sendJson, toast, toastError } from '@termpaste/ui';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';

/** Texts of the SSH keys screen that are not the server's. */
export const SSH_KEY_TEXTS = {
  addFailed: 'Failed to add key',
  added: 'SSH key added',
  deleteFailed: 'Failed to delete key',
  deleted: 'SSH key deleted',
  loadFailed: 'Could not load your SSH keys. Try again in a moment.',
} as const;

/** `GET /api/user/keys`: the member's SSH keys, oldest first. */
export const sshKeysQuery = queryOptions({
  queryKey: [API.userKeys],
  queryFn: () => getJson(API.userKeys, sshKeyListSchema),
  refetchOnMount: 'always',
});

/** `POST /api/user/keys` {key, title?}: the server reads the key and says what is wrong with it. */
export function useAddSshKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: AddSshKeyBody): Promise<SshKey> => sendJson('POST', API.userKeys, sshKeySchema, body),
    onError: toastError(SSH_KEY_TEXTS.addFailed),
    onSuccess: (key) => {
      toast({ title: SSH_KEY_TEXTS.added, description: `${key.title} ${key.fingerprint}` });
      return client.invalidateQueries({ queryKey: sshKeysQuery.queryKey });
    },
  });
}

/** `DELETE /api/user/keys/{id}`: pastes signed with it show a warning from then on. */
export function useDeleteSshKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (key: Pick<SshKey, 'id' | 'title'>) => {
      await apiRequest('DELETE', API.userKey(key.id));
    },
    onError: toastError(SSH_KEY_TEXTS.deleteFailed),
    onSuccess: (_, key) => {
      toast({ title: SSH_KEY_TEXTS.deleted, description: key.title });
      return client.invalidateQueries({ queryKey: sshKeysQuery.queryKey });
    },
  });
}

import { API } from '@termpaste/contracts';
import { identitiesSchema, SSO_MESSAGES, SSO_SCREEN_TEXTS, type Identity } from '@termpaste/contracts/sso';
import { apiRequest, currentUserQuery, getJson, refreshQueries, toast, toastError } from '@termpaste/ui';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';

/** `GET /api/user/identities`: the linked providers, whether there is a password, what else can be linked. */
export const identitiesQuery = queryOptions({
  queryKey: [API.userIdentities],
  queryFn: () => getJson(API.userIdentities, identitiesSchema),
  refetchOnMount: 'always',
});

/** `DELETE /api/user/identities/{id}`: 409 when it is the account's last way to sign in. */
export function useUnlinkIdentity() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (identity: Identity) => {
      await apiRequest('DELETE', API.userIdentity(identity.id));
    },
    onError: toastError(SSO_SCREEN_TEXTS.unlinkFailed, 'Unlink Failed'),
    onSuccess: (_, identity) => {
      toast({
        title: SSO_MESSAGES.unlinked(identity.providerName),
        description: identity.email ?? undefined,
      });
      return refreshQueries(client, identitiesQuery.queryKey);
    },
  });
}

/**
 * `POST /api/auth/sso/username` {username}: keeps or changes the name a first provider sign-in proposed
 * (once; 409 after). The member is read again, so the top bar shows the new name.
 */
export function useChooseUsername() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (username: string) => {
      await apiRequest('POST', API.ssoUsername, { username });
    },
    onError: toastError(SSO_SCREEN_TEXTS.usernameFailed, 'Username Not Saved'),
    onSuccess: (_, username) => {
      toast({
        title: SSO_SCREEN_TEXTS.usernameSaved,
        description: SSO_SCREEN_TEXTS.usernameSavedText(username),
      });
      return refreshQueries(client, currentUserQuery.queryKey);
    },
  });
}

import { API } from '@termpaste/contracts';
import {
  createdTokenSchema,
  tokenListSchema,
  type CreateTokenBody,
  type CreatedAccessToken,
} from '@termpaste/contracts/tokens';
import { apiRequest, getJson, sendJson, toast, toastError } from '@termpaste/ui';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';

/** Texts of the personal access tokens screen that are not the server's. */
export const TOKEN_TEXTS = {
  createFailed: 'Failed to create token',
  created: 'Token created',
  createdText: 'Copy it now: it will not be shown again',
  revokeFailed: 'Failed to revoke token',
  revoked: 'Token revoked',
  loadFailed: 'Could not load your tokens. Try again in a moment.',
} as const;

/** `GET /api/user/tokens`: the member's tokens, newest first, never their secrets; read on every visit. */
export const tokensQuery = queryOptions({
  queryKey: [API.userTokens],
  queryFn: () => getJson(API.userTokens, tokenListSchema),
  refetchOnMount: 'always',
});

/** `POST /api/user/tokens` {name, scopes, expiresInDays}: answers the token once, in `token`. */
export function useCreateToken() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateTokenBody): Promise<CreatedAccessToken> =>
      sendJson('POST', API.userTokens, createdTokenSchema, body),
    onError: toastError(TOKEN_TEXTS.createFailed),
    onSuccess: () => {
      toast({ title: TOKEN_TEXTS.created, description: TOKEN_TEXTS.createdText });
      return client.invalidateQueries({ queryKey: tokensQuery.queryKey });
    },
  });
}

/** `DELETE /api/user/tokens/{id}`: the token stops working at once. */
export function useRevokeToken() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (token: { id: number; name: string }) => {
      await apiRequest('DELETE', API.userToken(token.id));
    },
    onError: toastError(TOKEN_TEXTS.revokeFailed),
    onSuccess: (_, token) => {
      toast({ title: TOKEN_TEXTS.revoked, description: token.name });
      return client.invalidateQueries({ queryKey: tokensQuery.queryKey });
    },
  });
}

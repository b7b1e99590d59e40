import { API, type PasteRef } from '@termpaste/contracts';
import {
  MODERATION_TEXTS,
  myFlagsSchema,
  type FlagCreate,
  type FlagTarget,
  type MyFlag,
} from '@termpaste/contracts/moderation';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest, getJson } from '../api/client.js';
import { useCurrentUser } from '../api/current-user.js';
import { toast } from '../components/toast-store.js';

/**
 * The member's own flags (`GET /api/flags/mine`): one query for every FLAG button of the tab (forum,
 * chat, messages), read again after each flag the member sends.
 */
export const myFlagsQuery = queryOptions({
  queryKey: [API.flagsMine],
  queryFn: () => getJson(API.flagsMine, myFlagsSchema),
  // A flag changes only when this member sends one (invalidated then) or staff decide (no hurry).
  staleTime: 60_000,
  refetchInterval: false,
});

/** The member's flag on one item, if they flagged it (undefined while unknown, or for a visitor). */
export function useMyFlag(targetType: FlagTarget, targetId: PasteRef): MyFlag | undefined {
  const { user } = useCurrentUser();
  const mine = useQuery({ ...myFlagsQuery, enabled: user !== null });
  return mine.data?.flags.find((flag) => flag.targetType === targetType && flag.targetId === targetId);
}

/**
 * `POST /api/flags`: on success the toast, and the member's flags read again (the button turns FLAGGED).
 * A refusal is left to the caller (the dialog shows the server's message).
 */
export function useSendFlag() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (flag: FlagCreate) => apiRequest('POST', API.flags, flag),
    onSuccess: async () => {
      toast({ title: MODERATION_TEXTS.flagSent });
      await client.invalidateQueries({ queryKey: myFlagsQuery.queryKey });
    },
    // A 409 (flagged already, in another tab) turns the button FLAGGED too.
    onError: () => void client.invalidateQueries({ queryKey: myFlagsQuery.queryKey }),
  });
}

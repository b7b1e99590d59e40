import { API } from '@termpaste/contracts';
import { reputationLedgerPageSchema } from '@termpaste/contracts/reputation';
import { getJson } from '@termpaste/ui';
import { infiniteQueryOptions } from '@tanstack/react-query';

// Apart from forum.ts (which home loads): only the profile screen's ledger reads it.
/** A member's reputation ledger (their own, or any for an admin), newest first, by cursor. */
export const reputationLedgerQuery = (id: string | number) =>
  infiniteQueryOptions({
    queryKey: [API.users, String(id), 'reputation'],
    refetchOnMount: 'always',
    queryFn: ({ pageParam }) =>
      getJson(
        pageParam
          ? `${API.userReputation(id)}?cursor=${encodeURIComponent(pageParam)}`
          : API.userReputation(id),
        reputationLedgerPageSchema,
      ),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });

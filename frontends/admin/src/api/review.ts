import { API } from '@termpaste/contracts';
import {
  MODERATION_TEXTS,
  reviewPageSchema,
  type FlagReason,
  type FlagTarget,
  type ReviewDecisionBody,
  type ReviewItem,
  type ReviewKind,
} from '@termpaste/contracts/moderation';
import { apiRequest, getJson, refreshQueries, toast, toastError } from '@termpaste/ui';
import { infiniteQueryOptions, useMutation, useQueryClient } from '@tanstack/react-query';

/** The queue's filters, as the address holds them (`/admin/review?kind=flagged&reason=spam`). */
export interface ReviewFilter {
  kind: ReviewKind | '';
  reason: FlagReason | '';
  targetType: FlagTarget | '';
}

function withParams(url: string, params: Record<string, string | null | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value) search.set(key, value);
  const query = search.toString();
  return query ? `${url}?${query}` : url;
}

/** The review queue (`GET /api/admin/review?kind=&reason=&targetType=&cursor=`): open items, newest first. */
export const reviewQuery = (filter: ReviewFilter) =>
  infiniteQueryOptions({
    queryKey: [API.adminReview, filter],
    queryFn: ({ pageParam }) =>
      getJson(
        withParams(API.adminReview, {
          kind: filter.kind,
          reason: filter.reason,
          targetType: filter.targetType,
          cursor: pageParam,
        }),
        reviewPageSchema,
      ),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    refetchOnMount: 'always',
  });

/** The toast of each decision. */
export const DECISION_TOASTS: Record<ReviewDecisionBody['decision'], string> = {
  agree: 'Flags agreed with',
  disagree: 'Flags cleared, item restored',
  ignore: 'Flags cleared',
  approve: 'Post approved and published',
  reject: 'Post rejected',
};

/**
 * Decides one item (`POST /api/admin/review/{itemId}`): the toast, then the queue, its count and the
 * audit log read again. A refusal (decided meanwhile by other staff) is toasted with the server's words.
 */
export function useDecide() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ item, body }: { item: ReviewItem; body: ReviewDecisionBody }) =>
      apiRequest('POST', API.adminReviewItem(item.id), body),
    onError: (error) => {
      toastError('Could not record the decision')(error);
      void refreshQueries(client, [API.adminReview], [API.adminReviewCount]);
    },
    onSuccess: (_response, { body }) => {
      toast({ title: DECISION_TOASTS[body.decision] });
      void refreshQueries(
        client,
        [API.adminReview],
        [API.adminReviewCount],
        [API.adminAudit],
        [API.adminUsers],
      );
    },
  });
}

/** The label of each decision's button. */
export const DECISION_LABELS = {
  agree: MODERATION_TEXTS.agree,
  disagree: MODERATION_TEXTS.disagree,
  ignore: MODERATION_TEXTS.ignore,
  approve: MODERATION_TEXTS.approve,
  reject: MODERATION_TEXTS.reject,
} as const;

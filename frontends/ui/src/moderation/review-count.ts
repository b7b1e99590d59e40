import { API, LIVE_EVENT, type LiveEvent } from '@termpaste/contracts';
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { getJson, type Schema } from '../api/client.js';
import { useLiveEvents } from '../api/live.js';

/** The count is a bare number (as `GET /api/notifications/unread-count` is). */
const countSchema: Schema<number> = {
  parse(value) {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
      throw new Error('The review count is not a number');
    }
    return value;
  },
};

/** Open items in the review queue (`GET /api/admin/review/count`), for the staff's navigation. */
export const reviewCountQuery = queryOptions({
  queryKey: [API.adminReviewCount],
  queryFn: () => getJson(API.adminReviewCount, countSchema),
});

/**
 * The review queue's open items, for staff (`enabled`): read once, then kept by the live event each
 * admin gets when it changes (read again after a reconnection, when events may have been missed).
 * Undefined while unknown, or for a member.
 */
export function useReviewCount(enabled: boolean): number | undefined {
  const client = useQueryClient();
  const count = useQuery({ ...reviewCountQuery, enabled });
  useLiveEvents({
    enabled,
    scope: 'user',
    onEvent: (event: LiveEvent) => {
      if (event.type === LIVE_EVENT.reviewCount) client.setQueryData(reviewCountQuery.queryKey, event.count);
    },
    onOpen: (reconnected) => {
      if (reconnected) void client.invalidateQueries({ queryKey: reviewCountQuery.queryKey });
    },
  });
  return enabled ? count.data : undefined;
}

import { API, LIVE_EVENT, type LiveEvent } from '@termpaste/contracts';
import { redirectToLogin, refreshQueries, useLiveEvents, type LiveStatus } from '@termpaste/ui';
import { useQueryClient } from '@tanstack/react-query';

/**
 * The member's own live events while signed in: the unread badge follows the server, lists refetch
 * when something arrives, and a member signed out elsewhere goes to sign-in at once. Chat events that
 * share the socket fall through the switch.
 */
export function useUserLiveUpdates(signedIn: boolean): LiveStatus {
  const queryClient = useQueryClient();
  return useLiveEvents({
    enabled: signedIn,
    scope: 'user',
    onEvent: (event: LiveEvent) => {
      switch (event.type) {
        case LIVE_EVENT.unreadCount:
          queryClient.setQueryData([API.notificationsUnreadCount], event.count);
          break;
        case LIVE_EVENT.notification:
          void refreshQueries(queryClient, [API.notifications]);
          break;
        case LIVE_EVENT.privateMessage:
          void refreshQueries(queryClient, [API.messages]);
          break;
        // Banned, deleted, or the password reset or changed elsewhere: this session is gone; say so and
        // go to sign-in as any 401 does.
        case LIVE_EVENT.signedOut:
          redirectToLogin();
          break;
      }
    },
    // After a drop, events may have been missed: read the count again.
    onOpen: (reconnected) => {
      if (reconnected) void refreshQueries(queryClient, [API.notificationsUnreadCount]);
    },
  });
}

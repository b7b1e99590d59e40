import {
  API,
  MAIL_PREFERENCE_MESSAGES,
  type NotificationPreferences,
  notificationPreferencesSchema,
} from '@termpaste/contracts';
import { getJson, sendJson, toast, toastError } from '@termpaste/ui';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';

/** `GET /api/user/notification-preferences`. */
export const notificationPreferencesQuery = queryOptions({
  queryKey: [API.userNotificationPreferences],
  queryFn: () => getJson(API.userNotificationPreferences, notificationPreferencesSchema),
});

/** `PUT /api/user/notification-preferences`, with its toasts; the answer becomes the query's data. */
export function useSaveNotificationPreferences() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: NotificationPreferences) =>
      sendJson('PUT', API.userNotificationPreferences, notificationPreferencesSchema, body),
    onError: toastError('Your preferences were not saved.', 'SAVE FAILED'),
    onSuccess: (saved) => {
      client.setQueryData(notificationPreferencesQuery.queryKey, saved);
      toast({ title: MAIL_PREFERENCE_MESSAGES.saved });
    },
  });
}

import {
  API,
  MAIL_NOTICE_LABELS,
  MAIL_PREFERENCE_MESSAGES,
  NOTIFICATION_PREFERENCE_DEFAULTS,
} from '@termpaste/contracts';
import { screen, within } from '@testing-library/react';
import { expectToast, renderScreen, stubApi, writes } from '../testing';
import { NotificationPreferencesScreen } from './notification-preferences';

describe('/settings/notifications', () => {
  it('shows each kind as site only or also e-mail, and the digest, as saved', async () => {
    stubApi((url) =>
      url === API.userNotificationPreferences
        ? { ...NOTIFICATION_PREFERENCE_DEFAULTS, follow: 'email', digest: 'daily' }
        : undefined,
    );
    renderScreen(<NotificationPreferencesScreen />, { path: '/settings/notifications' });
    const replies = await screen.findByRole('group', { name: MAIL_NOTICE_LABELS.reply });
    expect(within(replies).getByRole('radio', { name: 'ALSO E-MAIL' })).toBeChecked();
    const watched = screen.getByRole('group', { name: MAIL_NOTICE_LABELS.watch });
    expect(within(watched).getByRole('radio', { name: 'SITE ONLY' })).toBeChecked();
    const followed = screen.getByRole('group', { name: MAIL_NOTICE_LABELS.follow });
    expect(within(followed).getByRole('radio', { name: 'ALSO E-MAIL' })).toBeChecked();
    const digest = screen.getByRole('group', { name: /Digest/ });
    expect(within(digest).getByRole('radio', { name: 'DAILY' })).toBeChecked();
    expect(screen.getAllByRole('group')).toHaveLength(7);
  });

  it('SAVE puts every preference and toasts', async () => {
    const calls = stubApi(
      (url) => (url === API.userNotificationPreferences ? NOTIFICATION_PREFERENCE_DEFAULTS : undefined),
      (call) => ({ body: call.body }),
    );
    const { user } = renderScreen(<NotificationPreferencesScreen />, { path: '/settings/notifications' });
    const mentions = await screen.findByRole('group', { name: MAIL_NOTICE_LABELS.mention });
    await user.click(within(mentions).getByRole('radio', { name: 'SITE ONLY' }));
    await user.click(
      within(screen.getByRole('group', { name: /Digest/ })).getByRole('radio', { name: 'NEVER' }),
    );
    await user.click(screen.getByRole('button', { name: 'SAVE' }));
    await expectToast(MAIL_PREFERENCE_MESSAGES.saved);
    expect(writes(calls).map((call) => [call.method, call.url, call.body])).toEqual([
      [
        'PUT',
        API.userNotificationPreferences,
        { ...NOTIFICATION_PREFERENCE_DEFAULTS, mention: 'site', digest: 'never' },
      ],
    ]);
  });
});

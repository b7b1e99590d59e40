import {
  DIGEST_FREQUENCIES,
  type DigestFrequency,
  MAIL_NOTICE_KINDS,
  MAIL_NOTICE_LABELS,
  type MailNoticeKind,
  type NoticeChannel,
  type NotificationPreferences,
  PAGES,
} from '@termpaste/contracts';
import { Button, Card, FormActions, Notice, Spinner, useCurrentUser } from '@termpaste/ui';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import {
  notificationPreferencesQuery,
  useSaveNotificationPreferences,
} from '../api/notification-preferences';

const CHANNELS: ReadonlyArray<{ value: NoticeChannel; label: string }> = [
  { value: 'site', label: 'SITE ONLY' },
  { value: 'email', label: 'ALSO E-MAIL' },
];

const DIGEST_LABELS: Record<DigestFrequency, string> = { daily: 'DAILY', weekly: 'WEEKLY', never: 'NEVER' };

/** One choice among a few, as a row of terminal toggles (radio buttons underneath). */
function Choice<T extends string>({
  name,
  legend,
  options,
  value,
  onChange,
}: {
  name: string;
  legend: string;
  options: ReadonlyArray<{ value: T; label: string }>;
  value: T;
  onChange: (value: T) => void;
}) {
  return (
    <fieldset className="settings-choice">
      <legend className="settings-choice__legend">{legend}</legend>
      <div className="settings-choice__options">
        {options.map((option) => (
          <label key={option.value} className="settings-choice__option">
            <input
              type="radio"
              name={name}
              value={option.value}
              checked={value === option.value}
              onChange={() => onChange(option.value)}
            />
            {option.label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

function PreferencesForm({ saved, email }: { saved: NotificationPreferences; email: string }) {
  const [draft, setDraft] = useState(saved);
  const save = useSaveNotificationPreferences();
  const set = (kind: MailNoticeKind) => (channel: NoticeChannel) => setDraft({ ...draft, [kind]: channel });
  return (
    <form
      className="settings-notifications"
      onSubmit={(event) => {
        event.preventDefault();
        save.mutate(draft);
      }}
    >
      <p className="tp-prompt settings-intro">
        Everything shows in the bell. Choose what also comes by e-mail to {email}, sent when a notification
        stays unread for a while and you have no tab of the site open: one mail gathers them all.
      </p>
      <section aria-label="Each kind of notification" className="settings-notifications__kinds">
        {MAIL_NOTICE_KINDS.map((kind) => (
          <Choice
            key={kind}
            name={`mail-${kind}`}
            legend={MAIL_NOTICE_LABELS[kind]}
            options={CHANNELS}
            value={draft[kind]}
            onChange={set(kind)}
          />
        ))}
      </section>
      <section aria-label="Digest" className="settings-notifications__digest">
        <Choice
          name="digest"
          legend="Digest of the top pastes, when you have been away a week"
          options={DIGEST_FREQUENCIES.map((value) => ({ value, label: DIGEST_LABELS[value] }))}
          value={draft.digest}
          onChange={(digest) => setDraft({ ...draft, digest })}
        />
      </section>
      <FormActions>
        <Link to={PAGES.settings} className="tp-button tp-button--outline tp-button--md">
          BACK
        </Link>
        <Button type="submit" loading={save.isPending}>
          {save.isPending ? 'SAVING...' : 'SAVE'}
        </Button>
      </FormActions>
    </form>
  );
}

/** /settings/notifications: which notifications also come by e-mail, and the digest's frequency. */
export function NotificationPreferencesScreen() {
  const { user } = useCurrentUser();
  const preferences = useQuery(notificationPreferencesQuery);
  return (
    <Card titleLevel={1} title="NOTIFICATIONS BY E-MAIL" className="settings-page settings-narrow-page">
      {preferences.isPending || !user ? (
        <Spinner label="Loading..." />
      ) : preferences.isError ? (
        <p className="tp-danger">Could not load your preferences. Try again in a moment.</p>
      ) : (
        <>
          {!user.emailVerified && (
            <Notice tone="note" className="settings-intro">
              Your address is not verified yet: no e-mail goes to it until it is.
            </Notice>
          )}
          <PreferencesForm saved={preferences.data} email={user.email} />
        </>
      )}
    </Card>
  );
}

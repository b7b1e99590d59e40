import { effectiveRank, PAGES, type CurrentUser } from '@termpaste/contracts';
import { PROFILE_LIMITS, SETTINGS_TEXTS } from '@termpaste/contracts/settings';
import {
  Button,
  Card,
  CharCount,
  FormActions,
  Input,
  Label,
  LabelRow,
  Markdown,
  RankBadge,
  Spinner,
  Textarea,
  useCurrentUser,
} from '@termpaste/ui';
import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { useSaveProfile } from '../api/settings';
import { AvatarUpload } from '../components/avatar-upload';

interface ProfileFields {
  firstName: string;
  lastName: string;
  bio: string;
}

const fieldsOf = (user: CurrentUser): ProfileFields => ({
  firstName: user.firstName ?? '',
  lastName: user.lastName ?? '',
  bio: user.bio ?? '',
});

function ProfileForm({ user }: { user: CurrentUser }) {
  const ids = {
    username: useId(),
    usernameNote: useId(),
    email: useId(),
    firstName: useId(),
    lastName: useId(),
    bio: useId(),
  };
  const [fields, setFields] = useState(() => fieldsOf(user));
  const [preview, setPreview] = useState(false);
  const save = useSaveProfile();
  const bind = (name: keyof ProfileFields) => ({
    value: fields[name],
    onChange: (event: { target: { value: string } }) =>
      setFields((current) => ({ ...current, [name]: event.target.value })),
  });

  // No client-side checks: the server trims and refuses what is too long, with a message.
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate(fields, { onSuccess: (saved) => setFields(fieldsOf(saved)) });
  };

  return (
    <form onSubmit={submit} noValidate aria-label="Profile" className="settings-profile__form">
      <fieldset className="tp-form-fields" disabled={save.isPending}>
        <div className="settings-grid">
          <div className="tp-field">
            <Label htmlFor={ids.username}>Username</Label>
            <Input
              id={ids.username}
              value={user.username}
              readOnly
              aria-readonly="true"
              aria-describedby={ids.usernameNote}
              className="settings-readonly"
            />
            <span id={ids.usernameNote} className="tp-muted settings-hint">
              {SETTINGS_TEXTS.usernameFixed}
            </span>
          </div>
          <div className="tp-field">
            <Label htmlFor={ids.email}>Email</Label>
            <Input
              id={ids.email}
              type="email"
              value={user.email}
              readOnly
              aria-readonly="true"
              className="settings-readonly"
            />
          </div>
          <div className="tp-field">
            <Label htmlFor={ids.firstName}>First name</Label>
            <Input
              id={ids.firstName}
              autoComplete="given-name"
              maxLength={PROFILE_LIMITS.nameMax}
              {...bind('firstName')}
            />
          </div>
          <div className="tp-field">
            <Label htmlFor={ids.lastName}>Last name</Label>
            <Input
              id={ids.lastName}
              autoComplete="family-name"
              maxLength={PROFILE_LIMITS.nameMax}
              {...bind('lastName')}
            />
          </div>
        </div>
        <div className="tp-field">
          <LabelRow>
            <Label htmlFor={ids.bio}>Bio</Label>
            <CharCount length={fields.bio.length} max={PROFILE_LIMITS.bioMax} testId="bio-counter" />
            <Button
              variant="ghost"
              size="sm"
              aria-pressed={preview}
              onClick={() => setPreview((shown) => !shown)}
            >
              {preview ? 'HIDE PREVIEW' : 'SHOW PREVIEW'}
            </Button>
          </LabelRow>
          <Textarea
            id={ids.bio}
            rows={8}
            maxLength={PROFILE_LIMITS.bioMax}
            placeholder="Tell the underground about yourself. Markdown supported."
            className="settings-bio"
            {...bind('bio')}
          />
        </div>
        {preview && (
          <section className="settings-preview" aria-label="Bio preview">
            {fields.bio.trim() ? (
              <Markdown>{fields.bio}</Markdown>
            ) : (
              <p className="tp-muted">Preview will appear here...</p>
            )}
          </section>
        )}
        <footer className="settings-profile__footer">
          <p className="settings-reputation" data-testid="reputation">
            <span className="tp-muted">REPUTATION</span>{' '}
            <strong className="tp-glow">{user.reputation}</strong> points{' '}
            <RankBadge rank={effectiveRank(user)} />
          </p>
          <FormActions>
            <Link to={PAGES.settingsPassword} className="tp-button tp-button--outline tp-button--md">
              CHANGE PASSWORD
            </Link>
            <Link to={PAGES.settingsTokens} className="tp-button tp-button--outline tp-button--md">
              ACCESS TOKENS
            </Link>
            <Link to={PAGES.settingsKeys} className="tp-button tp-button--outline tp-button--md">
              SSH KEYS
            </Link>
            <Link to={PAGES.settingsAccounts} className="tp-button tp-button--outline tp-button--md">
              LINKED ACCOUNTS
            </Link>
            <Link to={PAGES.settingsAccount} className="tp-button tp-button--outline tp-button--md">
              YOUR DATA
            </Link>
            <Link to={PAGES.settingsPeople} className="tp-button tp-button--outline tp-button--md">
              MUTED AND BLOCKED
            </Link>
            <Link to={PAGES.settingsNotifications} className="tp-button tp-button--outline tp-button--md">
              E-MAIL NOTIFICATIONS
            </Link>
            <Link to={PAGES.settingsWatching} className="tp-button tp-button--outline tp-button--md">
              WATCHING
            </Link>
            <Button type="submit" loading={save.isPending}>
              {save.isPending ? 'SAVING...' : 'SAVE'}
            </Button>
          </FormActions>
        </footer>
      </fieldset>
    </form>
  );
}

/** /settings: avatar upload, read-only account fields, names and bio. */
export function ProfileSettingsScreen() {
  const { user, isLoading } = useCurrentUser();
  if (isLoading) return <Spinner label="Loading profile..." />;
  if (!user) {
    return (
      <Card titleLevel={1} title="PROFILE SETTINGS" className="settings-page">
        <p className="tp-danger">{SETTINGS_TEXTS.notAuthenticated}</p>
      </Card>
    );
  }
  return (
    <Card titleLevel={1} title="PROFILE SETTINGS" className="settings-page">
      <div className="settings-profile">
        <AvatarUpload user={user} />
        <ProfileForm key={user.id} user={user} />
      </div>
    </Card>
  );
}

import { PAGES, TEXTS, USERNAME, usernameSchema } from '@termpaste/contracts';
import { SSO_SCREEN_TEXTS } from '@termpaste/contracts/sso';
import {
  Button,
  Card,
  FormActions,
  FormFields,
  Input,
  Label,
  Spinner,
  toast,
  useCurrentUser,
} from '@termpaste/ui';
import { useId, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { useChooseUsername } from '../api/sso';

/** The username rules of the contracts, as the form states them. */
export const USERNAME_RULES = `${USERNAME.min}–${USERNAME.max} characters: letters, digits, _ and -. Unique, whatever the letter case.`;

function ChooseUsernameForm({ proposed }: { proposed: string }) {
  const ids = { field: useId(), rules: useId(), error: useId() };
  const [username, setUsername] = useState(proposed);
  const [problem, setProblem] = useState<string | null>(null);
  const choose = useChooseUsername();
  const navigate = useNavigate();

  // The name being sent by KEEP (the proposed one) shows its spinner; CONTINUE with another, its own.
  const keeping = choose.isPending && choose.variables === proposed;
  const send = (name: string) => choose.mutate(name, { onSuccess: () => navigate(PAGES.home) });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = usernameSchema.safeParse(username);
    if (!checked.success) {
      const message = checked.error.issues[0]!.message;
      setProblem(message);
      toast({ title: TEXTS.validationTitle, description: message, variant: 'destructive' });
      return;
    }
    setProblem(null);
    send(checked.data);
  };

  return (
    <form onSubmit={submit} noValidate aria-label="Choose your username" className="settings-welcome__form">
      <FormFields disabled={choose.isPending}>
        <div className="tp-field">
          <Label htmlFor={ids.field}>Username</Label>
          <Input
            id={ids.field}
            value={username}
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? `${ids.error} ${ids.rules}` : ids.rules}
            onChange={(event) => {
              setUsername(event.target.value);
              if (problem) setProblem(null);
            }}
          />
          {problem && (
            <p id={ids.error} className="tp-danger settings-hint">
              {problem}
            </p>
          )}
          <p id={ids.rules} className="tp-muted settings-hint">
            {USERNAME_RULES}
          </p>
        </div>
        <FormActions className="settings-welcome__actions">
          <Button variant="outline" loading={keeping} onClick={() => send(proposed)}>
            KEEP <span className="settings-welcome__name">{proposed}</span>
          </Button>
          <Button type="submit" loading={choose.isPending && !keeping}>
            {choose.isPending && !keeping ? 'SAVING...' : 'CONTINUE'}
          </Button>
        </FormActions>
      </FormFields>
    </form>
  );
}

/**
 * /welcome: where a first provider sign-in lands; the proposed username is kept or changed, once; then home.
 */
export function WelcomeScreen() {
  const { user } = useCurrentUser();
  return (
    <Card title="WELCOME" titleLevel={1} className="settings-narrow-page settings-welcome">
      <h2 className="settings-welcome__title">{SSO_SCREEN_TEXTS.welcomeTitle}</h2>
      <p className="tp-prompt settings-intro">{SSO_SCREEN_TEXTS.welcomeIntro}</p>
      {user ? <ChooseUsernameForm key={user.id} proposed={user.username} /> : <Spinner />}
    </Card>
  );
}

import { API, OWNER_SETUP_MESSAGES } from '@termpaste/contracts';
import {
  Button,
  Card,
  FormFields,
  refreshQueries,
  TextField,
  useCurrentUser,
  useFormCall,
  useFormFields,
} from '@termpaste/ui';
import { useQueryClient } from '@tanstack/react-query';
import type { FormEvent } from 'react';

/**
 * `/setup`: where a verified member enters the one-time setup code of the start-up log (or of
 * `npm run admin -- setup-code`) to become the owner, on an installation without OWNER_EMAIL.
 */
export function OwnerSetupPage() {
  const { user } = useCurrentUser();
  const queryClient = useQueryClient();
  const { values, bind, reset } = useFormFields({ code: '' });
  const { call: claim, fail } = useFormCall({
    path: API.ownerClaim,
    body: () => ({ code: values.code }),
    success: { title: 'Ownership Claimed', description: OWNER_SETUP_MESSAGES.claimed },
    failure: { title: 'Claim Failed', fallback: OWNER_SETUP_MESSAGES.invalidCode },
    onSuccess: async () => {
      reset();
      await refreshQueries(queryClient, [API.currentUser]);
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!values.code.trim()) return fail(OWNER_SETUP_MESSAGES.codeRequired);
    claim.mutate();
  };

  if (user?.isOwner) {
    return (
      <Card titleLevel={1} title="OWNER SETUP" className="shell-setup">
        <p className="shell-verify-page__ok">
          <span aria-hidden="true">[OK] </span>You are the owner of this forum.
        </p>
      </Card>
    );
  }
  return (
    <Card titleLevel={1} title="OWNER SETUP" className="shell-setup">
      <p className="shell-muted">
        A new installation has no owner until a member with a verified e-mail address enters the setup code
        printed in the server&apos;s start-up log (<code>npm run admin -- setup-code</code> prints another). It
        works once.
      </p>
      {!user?.emailVerified && <p className="shell-verify-page__fail">{OWNER_SETUP_MESSAGES.verifyFirst}.</p>}
      <form onSubmit={submit} className="shell-form">
        <FormFields disabled={claim.isPending}>
          <TextField
            id="setup-code"
            label="Setup code"
            autoComplete="one-time-code"
            placeholder="XXXX-XXXX-XXXX-XXXX"
            {...bind('code')}
          />
          <Button type="submit" variant="primary" className="shell-form__submit">
            {claim.isPending ? 'CLAIMING...' : 'CLAIM OWNERSHIP'}
          </Button>
        </FormFields>
      </form>
    </Card>
  );
}

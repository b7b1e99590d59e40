import { API, passwordProblem } from '@termpaste/contracts';
import { Button, Card, FormFields, TextField, useFormCall, useFormFields } from '@termpaste/ui';
import type { FormEvent } from 'react';

/** /settings/password: current, new and confirm; the three fields are cleared on success. */
export function ChangePasswordScreen() {
  const { values, bind, reset } = useFormFields({
    currentPassword: '',
    newPassword: '',
    confirmPassword: '',
  });
  const { call: change, fail } = useFormCall({
    path: API.changePassword,
    body: () => ({ currentPassword: values.currentPassword, newPassword: values.newPassword }),
    success: { title: 'Password Changed', description: 'Your password has been updated successfully' },
    failure: { title: 'Change Failed', fallback: 'Failed to change password' },
    onSuccess: reset,
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const problem = passwordProblem(values.newPassword, values.confirmPassword, 'change');
    if (problem) return fail(problem);
    change.mutate();
  };

  return (
    <Card titleLevel={1} title="CHANGE PASSWORD" className="settings-narrow">
      <form onSubmit={submit}>
        <FormFields disabled={change.isPending}>
          <TextField
            label="Current password"
            type="password"
            autoComplete="current-password"
            {...bind('currentPassword')}
          />
          <TextField
            label="New password"
            type="password"
            autoComplete="new-password"
            {...bind('newPassword')}
          />
          <TextField
            label="Confirm new password"
            type="password"
            autoComplete="new-password"
            {...bind('confirmPassword')}
          />
          <Button type="submit" variant="primary">
            {change.isPending ? 'UPDATING...' : 'UPDATE PASSWORD'}
          </Button>
        </FormFields>
      </form>
    </Card>
  );
}

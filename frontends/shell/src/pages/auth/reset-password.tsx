import { API, passwordProblem } from '@termpaste/contracts';
import { Button, FormFields, TextField, useFormCall, useFormFields } from '@termpaste/ui';
import type { FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { AuthLayout } from './auth-layout';

export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const tokenFromLink = params.get('token');
  const { values, bind } = useFormFields({ token: '', newPassword: '', confirmPassword: '' });
  const navigate = useNavigate();

  const { call: reset, fail } = useFormCall({
    path: API.resetPassword,
    body: () => ({ token: tokenFromLink ?? values.token, newPassword: values.newPassword }),
    success: { title: 'Password Reset Successful', description: 'You can now login with your new password' },
    failure: { title: 'Reset Failed', fallback: 'Invalid or expired reset token' },
    onSuccess: () => navigate('/login'),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const problem = passwordProblem(values.newPassword, values.confirmPassword);
    if (problem) return fail(problem);
    reset.mutate();
  };

  return (
    <AuthLayout title="RESET PASSWORD" subtitle="Choose a new password for your account.">
      <form onSubmit={submit} className="shell-form">
        <FormFields disabled={reset.isPending}>
          {!tokenFromLink && (
            <TextField id="reset-token" label="Reset token" autoComplete="one-time-code" {...bind('token')} />
          )}
          <TextField
            id="reset-new"
            label="New password"
            type="password"
            autoComplete="new-password"
            {...bind('newPassword')}
          />
          <TextField
            id="reset-confirm"
            label="Confirm new password"
            type="password"
            autoComplete="new-password"
            {...bind('confirmPassword')}
          />
          <Button type="submit" variant="primary" className="shell-form__submit">
            {reset.isPending ? 'RESETTING...' : 'RESET PASSWORD'}
          </Button>
        </FormFields>
      </form>
      <nav className="shell-auth__links">
        <Link to="/login">Back to login</Link>
      </nav>
    </AuthLayout>
  );
}

import { API, passwordProblem } from '@termpaste/contracts';
import { Button, FormFields, TextField, useFormCall, useFormFields } from '@termpaste/ui';
import type { FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { AuthLayout } from './auth-layout';
import { PasswordFormOnly } from './sign-in-options';

function ResetPasswordForm({ tokenFromLink }: { tokenFromLink: string | null }) {
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
  );
}

/**
 * /reset-password: a new password from the mailed token (in the link, or typed). Under LOCAL_LOGIN=off (no
 * passwords on this site, the server refuses with 403) it says so instead of showing a form that cannot work.
 */
export function ResetPasswordPage() {
  const [params] = useSearchParams();
  return (
    <AuthLayout title="RESET PASSWORD" subtitle="Choose a new password for your account.">
      <PasswordFormOnly>
        <ResetPasswordForm tokenFromLink={params.get('token')} />
      </PasswordFormOnly>
      <nav className="shell-auth__links">
        <Link to="/login">Back to login</Link>
      </nav>
    </AuthLayout>
  );
}

import { API } from '@termpaste/contracts';
import { Button, FormFields, TextField, useFormCall, useFormFields, useSignInOptions } from '@termpaste/ui';
import type { FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { AuthLayout } from './auth-layout';
import { PasswordFormOnly } from './sign-in-options';

function ForgotPasswordForm() {
  const { values, bind } = useFormFields({ email: '' });
  const { call: forgot } = useFormCall({
    path: API.forgotPassword,
    body: () => values,
    success: { title: 'Reset Link Sent', description: 'Check your email for the password reset link' },
    failure: { title: 'Error', fallback: 'Failed to process request' },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    forgot.mutate();
  };

  return forgot.isSuccess ? (
    <div className="shell-form" role="status">
      <p>If an account exists with that email, a password reset link will arrive shortly.</p>
      <Link to="/reset-password" className="tp-button tp-button--primary tp-button--md">
        ENTER RESET TOKEN
      </Link>
    </div>
  ) : (
    <form onSubmit={submit} className="shell-form">
      <FormFields disabled={forgot.isPending}>
        <TextField id="forgot-email" label="Email" type="email" autoComplete="email" {...bind('email')} />
        <Button type="submit" variant="primary" className="shell-form__submit">
          {forgot.isPending ? 'PROCESSING...' : 'SEND RESET LINK'}
        </Button>
      </FormFields>
    </form>
  );
}

/**
 * /forgot-password: asks for a reset link by e-mail. Under LOCAL_LOGIN=off (no passwords on this site, the
 * server refuses with 403) it says so instead of showing a form that cannot work.
 */
export function ForgotPasswordPage() {
  const { localLogin } = useSignInOptions();
  return (
    <AuthLayout
      title="FORGOT PASSWORD"
      subtitle="Request a password reset link. The reset link expires in 1 hour."
    >
      <PasswordFormOnly>
        <ForgotPasswordForm />
      </PasswordFormOnly>
      <nav className="shell-auth__links">
        <Link to="/login">Back to login</Link>
        {localLogin && <Link to="/register">Register</Link>}
      </nav>
    </AuthLayout>
  );
}

import { API } from '@termpaste/contracts';
import { apiRequest, errorMessage, Button, Input, toast } from '@termpaste/ui';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { AuthLayout, Field } from './auth-layout';

export function ForgotPasswordPage() {
  const [email, setEmail] = useState('');
  const forgot = useMutation({
    mutationFn: () => apiRequest('POST', API.forgotPassword, { email }),
    onSuccess: () =>
      toast({ title: 'Reset Link Sent', description: 'Check your email for the password reset link' }),
    onError: (error) =>
      toast({
        title: 'Error',
        description: errorMessage(error, 'Failed to process request'),
        variant: 'destructive',
      }),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    forgot.mutate();
  };

  return (
    <AuthLayout
      title="FORGOT PASSWORD"
      subtitle="Request a password reset link. The reset link expires in 1 hour."
    >
      {forgot.isSuccess ? (
        <div className="shell-form" role="status">
          <p>
            If an account exists with that email, a password reset link will arrive shortly. The reset link
            expires in 1 hour.
          </p>
          <Link to="/reset-password" className="tp-button tp-button--primary">
            ENTER RESET TOKEN
          </Link>
        </div>
      ) : (
        <form onSubmit={submit} className="shell-form">
          <Field id="forgot-email" label="Email">
            <Input
              id="forgot-email"
              type="email"
              autoComplete="email"
              required
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              disabled={forgot.isPending}
            />
          </Field>
          <Button type="submit" variant="primary" disabled={forgot.isPending} className="shell-form__submit">
            {forgot.isPending ? 'PROCESSING...' : 'SEND RESET LINK'}
          </Button>
        </form>
      )}
      <nav className="shell-auth__links">
        <Link to="/login">Back to login</Link>
        <Link to="/register">Register</Link>
      </nav>
    </AuthLayout>
  );
}

import { API } from '@termpaste/contracts';
import { apiRequest, errorMessage, Button, Input, toast } from '@termpaste/ui';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { AuthLayout, Field } from './auth-layout';
import { passwordProblem } from './password-rules';

export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const tokenFromLink = params.get('token');
  const [token, setToken] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const navigate = useNavigate();

  const reset = useMutation({
    mutationFn: () => apiRequest('POST', API.resetPassword, { token: tokenFromLink ?? token, newPassword }),
    onSuccess: () => {
      toast({ title: 'Password Reset Successful', description: 'You can now login with your new password' });
      navigate('/login');
    },
    onError: (error) =>
      toast({
        title: 'Reset Failed',
        description: errorMessage(error, 'Invalid or expired reset token'),
        variant: 'destructive',
      }),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const problem = passwordProblem(newPassword, confirmPassword);
    if (problem) {
      toast({ title: 'Reset Failed', description: problem, variant: 'destructive' });
      return;
    }
    reset.mutate();
  };

  return (
    <AuthLayout title="RESET PASSWORD" subtitle="Choose a new password for your account.">
      <form onSubmit={submit} className="shell-form">
        {!tokenFromLink && (
          <Field id="reset-token" label="Reset token">
            <Input
              id="reset-token"
              required
              autoComplete="one-time-code"
              value={token}
              onChange={(e) => setToken(e.target.value)}
              disabled={reset.isPending}
            />
          </Field>
        )}
        <Field id="reset-new" label="New password">
          <Input
            id="reset-new"
            type="password"
            autoComplete="new-password"
            required
            value={newPassword}
            onChange={(e) => setNewPassword(e.target.value)}
            disabled={reset.isPending}
          />
        </Field>
        <Field id="reset-confirm" label="Confirm new password">
          <Input
            id="reset-confirm"
            type="password"
            autoComplete="new-password"
            required
            value={confirmPassword}
            onChange={(e) => setConfirmPassword(e.target.value)}
            disabled={reset.isPending}
          />
        </Field>
        <Button type="submit" variant="primary" disabled={reset.isPending} className="shell-form__submit">
          {reset.isPending ? 'RESETTING...' : 'RESET PASSWORD'}
        </Button>
      </form>
      <nav className="shell-auth__links">
        <Link to="/login">Back to login</Link>
      </nav>
    </AuthLayout>
  );
}

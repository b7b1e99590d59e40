import { API } from '@termpaste/contracts';
import { apiRequest, Button, errorMessage, toast } from '@termpaste/ui';
import { useMutation } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { AuthLayout, FormFields, TextField, useFormFields } from './auth-layout';
import { passwordProblem } from './password-rules';

export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const tokenFromLink = params.get('token');
  const { values, bind } = useFormFields({ token: '', newPassword: '', confirmPassword: '' });
  const navigate = useNavigate();

  const reset = useMutation({
    mutationFn: () =>
      apiRequest('POST', API.resetPassword, {
        token: tokenFromLink ?? values.token,
        newPassword: values.newPassword,
      }),
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
    const problem = passwordProblem(values.newPassword, values.confirmPassword);
    if (problem) {
      toast({ title: 'Reset Failed', description: problem, variant: 'destructive' });
      return;
    }
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

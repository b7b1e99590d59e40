import { API } from '@termpaste/contracts';
import { Button, FormFields, TextField, useFormCall, useFormFields, useProductName } from '@termpaste/ui';
import { useQueryClient } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { AuthLayout } from './auth-layout';

export function LoginPage() {
  const { values, bind } = useFormFields({ usernameOrEmail: '', password: '' });
  const productName = useProductName();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { call: login } = useFormCall({
    path: API.login,
    body: () => values,
    success: { title: 'Access Granted', description: `Welcome to ${productName}` },
    failure: { title: 'Access Denied', fallback: 'Invalid username/email or password' },
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: [API.currentUser] });
      navigate('/');
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    login.mutate();
  };

  return (
    <AuthLayout title="LOGIN" subtitle="Authenticate to access the terminal.">
      <form onSubmit={submit} className="shell-form">
        <FormFields disabled={login.isPending}>
          <TextField
            id="login-user"
            label="Username or email"
            autoComplete="username"
            {...bind('usernameOrEmail')}
          />
          <TextField
            id="login-password"
            label="Password"
            type="password"
            autoComplete="current-password"
            {...bind('password')}
          />
          <Button type="submit" variant="primary" className="shell-form__submit">
            {login.isPending ? 'AUTHENTICATING...' : 'LOGIN'}
          </Button>
        </FormFields>
      </form>
      <nav className="shell-auth__links">
        <Link to="/forgot-password">Forgot password?</Link>
        <Link to="/register">No account? Register</Link>
      </nav>
    </AuthLayout>
  );
}

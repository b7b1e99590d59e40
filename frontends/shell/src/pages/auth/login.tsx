import { API, PRODUCT_NAME_DEFAULT } from '@termpaste/contracts';
import { apiRequest, errorMessage, Button, Input, toast } from '@termpaste/ui';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { AuthLayout, Field } from './auth-layout';

export function LoginPage() {
  const [usernameOrEmail, setUsernameOrEmail] = useState('');
  const [password, setPassword] = useState('');
  const queryClient = useQueryClient();
  const navigate = useNavigate();

  const login = useMutation({
    mutationFn: () => apiRequest('POST', API.login, { usernameOrEmail, password }),
    onSuccess: async () => {
      toast({ title: 'Access Granted', description: `Welcome to ${PRODUCT_NAME_DEFAULT}` });
      await queryClient.invalidateQueries({ queryKey: [API.currentUser] });
      navigate('/');
    },
    onError: (error) =>
      toast({
        title: 'Access Denied',
        description: errorMessage(error, 'Invalid username/email or password'),
        variant: 'destructive',
      }),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    login.mutate();
  };

  return (
    <AuthLayout title="LOGIN" subtitle="Authenticate to access the terminal.">
      <form onSubmit={submit} className="shell-form">
        <Field id="login-user" label="Username or email">
          <Input
            id="login-user"
            name="usernameOrEmail"
            autoComplete="username"
            required
            value={usernameOrEmail}
            onChange={(e) => setUsernameOrEmail(e.target.value)}
            disabled={login.isPending}
          />
        </Field>
        <Field id="login-password" label="Password">
          <Input
            id="login-password"
            name="password"
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            disabled={login.isPending}
          />
        </Field>
        <Button type="submit" variant="primary" disabled={login.isPending} className="shell-form__submit">
          {login.isPending ? 'AUTHENTICATING...' : 'LOGIN'}
        </Button>
      </form>
      <nav className="shell-auth__links">
        <Link to="/forgot-password">Forgot password?</Link>
        <Link to="/register">No account? Register</Link>
      </nav>
    </AuthLayout>
  );
}

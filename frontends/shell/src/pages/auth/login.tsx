import { API, PRODUCT_NAME_DEFAULT } from '@termpaste/contracts';
import { apiRequest, Button, errorMessage, toast } from '@termpaste/ui';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { AuthLayout, FormFields, TextField, useFormFields } from './auth-layout';

export function LoginPage() {
  const { values, bind } = useFormFields({ usernameOrEmail: '', password: '' });
  const queryClient = useQueryClient();
  const navigate = useNavigate();

  const login = useMutation({
    mutationFn: () => apiRequest('POST', API.login, values),
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

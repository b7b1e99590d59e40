import { API, LIMITS } from '@termpaste/contracts';
import { apiRequest, Button, errorMessage, toast } from '@termpaste/ui';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { AuthLayout, FormFields, TextField, useFormFields } from './auth-layout';
import { passwordProblem } from './password-rules';

export function RegisterPage() {
  const { values, bind } = useFormFields({ username: '', email: '', password: '', confirmPassword: '' });
  const queryClient = useQueryClient();
  const navigate = useNavigate();

  const register = useMutation({
    mutationFn: () =>
      apiRequest('POST', API.register, {
        username: values.username,
        email: values.email,
        password: values.password,
      }),
    onSuccess: async () => {
      toast({ title: 'Registration Successful', description: 'Your account is ready.' });
      await queryClient.invalidateQueries({ queryKey: [API.currentUser] });
      navigate('/');
    },
    onError: (error) =>
      toast({
        title: 'Registration Failed',
        description: errorMessage(error, 'Failed to create account'),
        variant: 'destructive',
      }),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const problem = passwordProblem(values.password, values.confirmPassword);
    if (problem) {
      toast({ title: 'Registration Failed', description: problem, variant: 'destructive' });
      return;
    }
    register.mutate();
  };

  return (
    <AuthLayout title="REGISTER" subtitle="Create an account to join the network.">
      <form onSubmit={submit} className="shell-form">
        <FormFields disabled={register.isPending}>
          <TextField id="reg-username" label="Username" autoComplete="username" {...bind('username')} />
          <TextField id="reg-email" label="Email" type="email" autoComplete="email" {...bind('email')} />
          <TextField
            id="reg-password"
            label="Password"
            type="password"
            autoComplete="new-password"
            minLength={LIMITS.passwordMin}
            {...bind('password')}
          />
          <TextField
            id="reg-confirm"
            label="Confirm password"
            type="password"
            autoComplete="new-password"
            {...bind('confirmPassword')}
          />
          <Button type="submit" variant="primary" className="shell-form__submit">
            {register.isPending ? 'CREATING ACCOUNT...' : 'CREATE ACCOUNT'}
          </Button>
        </FormFields>
      </form>
      <nav className="shell-auth__links">
        <Link to="/login">Already registered? Login</Link>
      </nav>
    </AuthLayout>
  );
}

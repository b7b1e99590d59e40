import { API, LIMITS } from '@termpaste/contracts';
import { apiRequest, errorMessage, Button, Input, toast } from '@termpaste/ui';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { AuthLayout, Field } from './auth-layout';
import { passwordProblem } from './password-rules';

export function RegisterPage() {
  const [form, setForm] = useState({ username: '', email: '', password: '', confirmPassword: '' });
  const queryClient = useQueryClient();
  const navigate = useNavigate();

  const register = useMutation({
    mutationFn: () =>
      apiRequest('POST', API.register, {
        username: form.username,
        email: form.email,
        password: form.password,
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
    const problem = passwordProblem(form.password, form.confirmPassword);
    if (problem) {
      toast({ title: 'Registration Failed', description: problem, variant: 'destructive' });
      return;
    }
    register.mutate();
  };

  const field = (name: keyof typeof form) => ({
    name,
    value: form[name],
    required: true,
    disabled: register.isPending,
    onChange: (e: { target: { value: string } }) => setForm((f) => ({ ...f, [name]: e.target.value })),
  });

  return (
    <AuthLayout title="REGISTER" subtitle="Create an account to join the network.">
      <form onSubmit={submit} className="shell-form">
        <Field id="reg-username" label="Username">
          <Input id="reg-username" autoComplete="username" {...field('username')} />
        </Field>
        <Field id="reg-email" label="Email">
          <Input id="reg-email" type="email" autoComplete="email" {...field('email')} />
        </Field>
        <Field id="reg-password" label="Password">
          <Input
            id="reg-password"
            type="password"
            autoComplete="new-password"
            minLength={LIMITS.passwordMin}
            {...field('password')}
          />
        </Field>
        <Field id="reg-confirm" label="Confirm password">
          <Input id="reg-confirm" type="password" autoComplete="new-password" {...field('confirmPassword')} />
        </Field>
        <Button type="submit" variant="primary" disabled={register.isPending} className="shell-form__submit">
          {register.isPending ? 'CREATING ACCOUNT...' : 'CREATE ACCOUNT'}
        </Button>
      </form>
      <nav className="shell-auth__links">
        <Link to="/login">Already registered? Login</Link>
      </nav>
    </AuthLayout>
  );
}

import { API, passwordProblem } from '@termpaste/contracts';
import { SSO_SCREEN_TEXTS } from '@termpaste/contracts/sso';
import {
  Button,
  FormFields,
  Notice,
  Spinner,
  TextField,
  useFormCall,
  useFormFields,
  useSignInOptions,
} from '@termpaste/ui';
import { useQueryClient } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { AuthLayout } from './auth-layout';
import { ProviderButtons } from './sign-in-options';

function RegisterForm() {
  const { values, bind } = useFormFields({ username: '', email: '', password: '', confirmPassword: '' });
  const queryClient = useQueryClient();
  const navigate = useNavigate();

  const { call: register, fail } = useFormCall({
    path: API.register,
    body: () => ({ username: values.username, email: values.email, password: values.password }),
    success: { title: 'Registration Successful', description: 'Your account is ready.' },
    failure: { title: 'Registration Failed', fallback: 'Failed to create account' },
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: [API.currentUser] });
      navigate('/');
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const problem = passwordProblem(values.password, values.confirmPassword);
    if (problem) return fail(problem);
    register.mutate();
  };

  return (
    <form onSubmit={submit} className="shell-form">
      <FormFields disabled={register.isPending}>
        <TextField id="reg-username" label="Username" autoComplete="username" {...bind('username')} />
        <TextField id="reg-email" label="Email" type="email" autoComplete="email" {...bind('email')} />
        <TextField
          id="reg-password"
          label="Password"
          type="password"
          autoComplete="new-password"
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
  );
}

/**
 * /register: the sign-up form (unless LOCAL_LOGIN=off), then the providers, whose first sign-in makes the
 * account.
 */
export function RegisterPage() {
  const [params] = useSearchParams();
  const { pending, localLogin, providers } = useSignInOptions();

  return (
    <AuthLayout title="REGISTER" subtitle="Create an account to join the network.">
      {pending ? (
        <Spinner />
      ) : (
        <>
          {localLogin ? (
            <RegisterForm />
          ) : (
            <Notice tone="note">
              {providers.length > 0
                ? SSO_SCREEN_TEXTS.registerThroughProvider
                : SSO_SCREEN_TEXTS.signInUnavailable}
            </Notice>
          )}
          <ProviderButtons providers={providers} next={params.get('next')} divider={localLogin} />
        </>
      )}
      <nav className="shell-auth__links">
        <Link to="/login">Already registered? Login</Link>
      </nav>
    </AuthLayout>
  );
}

import { API } from '@termpaste/contracts';
import { safeNextPath, SSO_SCREEN_TEXTS } from '@termpaste/contracts/sso';
import {
  Button,
  FormFields,
  Notice,
  Spinner,
  TextField,
  useFormCall,
  useFormFields,
  useProductName,
  useSignInOptions,
} from '@termpaste/ui';
import { useQueryClient } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { AuthLayout } from './auth-layout';
import { ProviderButtons, SsoError } from './sign-in-options';

/** The username-or-email and password form; after sign-in, the page's `next` (a path of ours) or home. */
function PasswordForm({ next }: { next: string | null }) {
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
      navigate(safeNextPath(next));
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    login.mutate();
  };

  return (
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
  );
}

/**
 * /login: the password form (unless LOCAL_LOGIN=off), then the providers; `?sso_error=` and `?next=` as the
 * server sends them.
 */
export function LoginPage() {
  const [params] = useSearchParams();
  const next = params.get('next');
  const { pending, localLogin, providers } = useSignInOptions();

  return (
    <AuthLayout title="LOGIN" subtitle="Authenticate to access the terminal.">
      <SsoError code={params.get('sso_error')} />
      {pending ? (
        <Spinner />
      ) : (
        <>
          {localLogin && <PasswordForm next={next} />}
          <ProviderButtons providers={providers} next={next} divider={localLogin} />
          {!localLogin && providers.length === 0 && (
            <Notice tone="note">{SSO_SCREEN_TEXTS.signInUnavailable}</Notice>
          )}
          {localLogin && (
            <nav className="shell-auth__links">
              <Link to="/forgot-password">Forgot password?</Link>
              <Link to="/register">No account? Register</Link>
            </nav>
          )}
        </>
      )}
    </AuthLayout>
  );
}

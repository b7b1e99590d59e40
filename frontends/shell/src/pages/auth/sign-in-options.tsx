import { API, type SignInProvider, type SsoRefusal } from '@termpaste/contracts';
import { safeNextPath, ssoErrorMessage, SSO_MESSAGES } from '@termpaste/contracts/sso';
import { getQueryFn, Notice, Spinner, useSignInOptions } from '@termpaste/ui';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';

/** Where a provider button starts: a top-level navigation to the backend, which sends the browser on. */
export function ssoStartHref(provider: string, next: string | null | undefined): string {
  const query = new URLSearchParams({ intent: 'login', next: safeNextPath(next) });
  return `${API.ssoStart(provider)}?${query}`;
}

/** One button per provider, "Continue with {name}", each a plain link; a divider above when a form is. */
export function ProviderButtons({
  providers,
  next,
  divider,
}: {
  providers: SignInProvider[];
  next: string | null | undefined;
  divider: boolean;
}) {
  if (providers.length === 0) return null;
  return (
    <div className="shell-sso">
      {divider && (
        <p className="shell-sso__divider" aria-hidden="true">
          or
        </p>
      )}
      <ul className="shell-sso__providers" aria-label="Sign-in providers">
        {providers.map((provider) => (
          <li key={provider.id}>
            <a
              href={ssoStartHref(provider.id, next)}
              className="tp-button tp-button--outline tp-button--md shell-sso__button"
              data-provider={provider.id}
            >
              <span className="shell-sso__glyph" aria-hidden="true">
                {provider.kind === 'github' ? '[gh]' : '[id]'}
              </span>
              <span>{SSO_MESSAGES.continueWith(provider.name)}</span>
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * The `?sso_error=<code>` a failed provider sign-in came back with, as an alert. A ban's end and reason
 * are not in the address (a hand-made link could put anything there): the server keeps them in the
 * session, and the alert shows them once read, as a password sign-in would.
 */
export function SsoError({ code }: { code: string | null }) {
  const refusal = useQuery({
    queryKey: [API.ssoRefusal],
    queryFn: getQueryFn<SsoRefusal>({ on401: 'returnNull' }),
    enabled: code === 'banned',
    retry: false,
    staleTime: Infinity,
  });
  const message = (code === 'banned' && refusal.data?.message) || ssoErrorMessage(code);
  if (!message) return null;
  return <Notice tone="error">{message}</Notice>;
}

/**
 * A form for passwords (forgot, reset): a spinner until the site is read, then the form, or under
 * LOCAL_LOGIN=off (the server refuses it with 403) a note that passwords are off instead of a form that
 * cannot work.
 */
export function PasswordFormOnly({ children }: { children: ReactNode }) {
  const { pending, localLogin } = useSignInOptions();
  if (pending) return <Spinner />;
  return localLogin ? children : <Notice tone="note">{SSO_MESSAGES.localLoginOff}</Notice>;
}

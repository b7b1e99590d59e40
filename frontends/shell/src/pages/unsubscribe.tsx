import {
  API,
  MAIL_PREFERENCE_MESSAGES,
  PAGES,
  type UnsubscribeResult,
  unsubscribeResultSchema,
} from '@termpaste/contracts';
import { Button, Card, errorMessage, getJson, sendJson, Spinner, useCurrentUser } from '@termpaste/ui';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router-dom';
import { AuthLayout } from './auth/auth-layout';

/**
 * `/unsubscribe?token=…`, opened from a mail's unsubscribe link, signed in or not: says what the link
 * turns off and whose mail it is, and turns it off once confirmed (the token alone authorizes both).
 */
export function UnsubscribePage() {
  const { user } = useCurrentUser();
  const [params] = useSearchParams();
  const token = params.get('token')?.trim() ?? '';
  const address = `${API.unsubscribe}?token=${encodeURIComponent(token)}`;
  const described = useQuery({
    queryKey: [API.unsubscribe, token],
    queryFn: () => getJson(address, unsubscribeResultSchema),
    enabled: token !== '',
    retry: false,
  });
  const confirm = useMutation({
    mutationFn: () => sendJson('POST', address, unsubscribeResultSchema),
  });

  let body;
  if (!token) {
    body = <Outcome ok={false} text={MAIL_PREFERENCE_MESSAGES.tokenMissing} />;
  } else if (described.isPending) {
    body = (
      <p className="shell-verify-page__line" role="status">
        <Spinner /> READING THE LINK...
      </p>
    );
  } else if (described.isError) {
    body = <Outcome ok={false} text={errorMessage(described.error, MAIL_PREFERENCE_MESSAGES.tokenInvalid)} />;
  } else if (confirm.isSuccess || described.data.unsubscribed) {
    body = <Outcome ok text={done(confirm.data ?? described.data)} />;
  } else {
    body = (
      <>
        <p className="shell-unsubscribe__question">
          Stop {described.data.what} for <strong>{described.data.username}</strong>?
        </p>
        {confirm.isError && (
          <Outcome ok={false} text={errorMessage(confirm.error, MAIL_PREFERENCE_MESSAGES.tokenInvalid)} />
        )}
        <div className="shell-auth__links">
          <Button loading={confirm.isPending} onClick={() => confirm.mutate()}>
            {confirm.isPending ? 'UNSUBSCRIBING...' : 'UNSUBSCRIBE'}
          </Button>
        </div>
      </>
    );
  }

  const next = (
    <nav className="shell-auth__links">
      <Link to={PAGES.settingsNotifications}>All your e-mail preferences</Link>
      {user && <Link to={PAGES.home}>cd ~</Link>}
    </nav>
  );

  if (!user) {
    return (
      <AuthLayout title="UNSUBSCRIBE" subtitle="From the e-mails of this site.">
        {body}
        {next}
      </AuthLayout>
    );
  }
  return (
    <Card titleLevel={1} title="UNSUBSCRIBE" className="shell-verify-page">
      {body}
      {next}
    </Card>
  );
}

function done(result: UnsubscribeResult): string {
  return `No more ${result.what} for ${result.username}. You can turn them on again in your settings.`;
}

function Outcome({ ok, text }: { ok: boolean; text: string }) {
  return (
    <p
      className={`shell-verify-page__line ${ok ? 'shell-verify-page__ok' : 'shell-verify-page__fail'}`}
      role="status"
    >
      <span aria-hidden="true">{ok ? '[OK] ' : '[FAIL] '}</span>
      {text}
    </p>
  );
}

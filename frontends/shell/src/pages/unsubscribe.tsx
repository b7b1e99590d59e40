import {
  API,
  MAIL_PREFERENCE_MESSAGES,
  PAGES,
  type UnsubscribeResult,
  unsubscribeResultSchema,
} from '@termpaste/contracts';
import { Button, errorMessage, getJson, sendJson, Spinner, useCurrentUser } from '@termpaste/ui';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router-dom';
import { LinkOutcome, LinkPage } from './link-page';

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
    body = <LinkOutcome ok={false} text={MAIL_PREFERENCE_MESSAGES.tokenMissing} />;
  } else if (described.isPending) {
    body = (
      <p className="shell-verify-page__line" role="status">
        <Spinner /> READING THE LINK...
      </p>
    );
  } else if (described.isError) {
    body = (
      <LinkOutcome ok={false} text={errorMessage(described.error, MAIL_PREFERENCE_MESSAGES.tokenInvalid)} />
    );
  } else if (confirm.isSuccess || described.data.unsubscribed) {
    body = <LinkOutcome ok text={done(confirm.data ?? described.data)} />;
  } else {
    body = (
      <>
        <p className="shell-unsubscribe__question">
          Stop {described.data.what} for <strong>{described.data.username}</strong>?
        </p>
        {confirm.isError && (
          <LinkOutcome ok={false} text={errorMessage(confirm.error, MAIL_PREFERENCE_MESSAGES.tokenInvalid)} />
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

  return (
    <LinkPage title="UNSUBSCRIBE" subtitle="From the e-mails of this site.">
      {body}
      {next}
    </LinkPage>
  );
}

function done(result: UnsubscribeResult): string {
  return `No more ${result.what} for ${result.username}. You can turn them on again in your settings.`;
}

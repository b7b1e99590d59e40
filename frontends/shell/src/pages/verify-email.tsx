import { API, PAGES, VERIFY_MESSAGES } from '@termpaste/contracts';
import { apiRequest, errorMessage, Spinner, useCurrentUser } from '@termpaste/ui';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { LinkOutcome, LinkPage } from './link-page';

/**
 * `/verify-email?token=…`, opened from the verification mail, signed in or not: sends the token once
 * and shows the outcome. A visitor sees it in the sign-in frame, a member inside the signed-in layout
 * (whose banner goes once the current user is fetched again).
 */
export function VerifyEmailPage() {
  const { user } = useCurrentUser();
  const [params] = useSearchParams();
  const token = params.get('token')?.trim() ?? '';
  const queryClient = useQueryClient();
  const verify = useMutation({
    mutationFn: () => apiRequest('POST', API.verifyEmail, { token }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [API.currentUser] }),
  });
  // Once per page: a token is single use, so a second request would only report it used.
  const sent = useRef(false);
  useEffect(() => {
    if (!token || sent.current) return;
    sent.current = true;
    verify.mutate();
  }, [token, verify]);

  const alreadyVerified = verify.isError && user?.emailVerified === true;
  let body;
  if (!token) {
    body = <LinkOutcome ok={false} text={`${VERIFY_MESSAGES.invalidToken}: the link has no token.`} />;
  } else if (verify.isSuccess || alreadyVerified) {
    body = (
      <LinkOutcome ok text={verify.isSuccess ? VERIFY_MESSAGES.verified : VERIFY_MESSAGES.alreadyVerified} />
    );
  } else if (verify.isError) {
    body = <LinkOutcome ok={false} text={errorMessage(verify.error, VERIFY_MESSAGES.invalidToken)} />;
  } else {
    body = (
      <p className="shell-verify-page__line" role="status">
        <Spinner /> VERIFYING...
      </p>
    );
  }

  const failed = !token || (verify.isError && !alreadyVerified);
  const next = user ? (
    <nav className="shell-auth__links">
      <Link to={PAGES.home}>cd ~</Link>
      {failed && !user.emailVerified && (
        <span className="shell-muted">RE-SEND a link from the banner above.</span>
      )}
    </nav>
  ) : (
    <nav className="shell-auth__links">
      <Link to={PAGES.login}>Sign in</Link>
      {failed && <span className="shell-muted">Signed in, you can ask for a new link.</span>}
    </nav>
  );

  return (
    <LinkPage title="VERIFY E-MAIL" subtitle="Checking the link from your mail.">
      {body}
      {next}
    </LinkPage>
  );
}

import { API, VERIFY_MESSAGES, type CurrentUser } from '@termpaste/contracts';
import { Button, siteQuery, useFormCall } from '@termpaste/ui';
import { useQuery } from '@tanstack/react-query';

/**
 * For a signed-in member whose e-mail address is not verified, where the installation requires it
 * (REQUIRE_VERIFIED_EMAIL): what they cannot do yet, and RE-SEND for a new link (429 shows its text).
 */
export function VerifyEmailBanner({ user }: { user: CurrentUser | null }) {
  const site = useQuery(siteQuery);
  const { call: resend } = useFormCall({
    path: API.verifyEmailResend,
    body: () => undefined,
    success: { title: 'Verification Mail Sent', description: VERIFY_MESSAGES.linkSent },
    failure: { title: 'Re-send Failed', fallback: 'Failed to send the verification mail' },
  });
  if (!user || user.emailVerified || site.data?.requireVerifiedEmail === false) return null;
  return (
    <div className="shell-verify" role="status" aria-label="E-mail address not verified">
      <p className="shell-verify__text">
        <span className="shell-verify__tag">[!] UNVERIFIED</span> Open the link we mailed to{' '}
        <strong>{user.email}</strong> to verify your address. Until then you can read, but not post, reply,
        vote, message or chat.
      </p>
      <Button
        size="sm"
        variant="outline"
        className="shell-verify__resend"
        disabled={resend.isPending}
        onClick={() => resend.mutate()}
      >
        {resend.isPending ? 'SENDING...' : 'RE-SEND'}
      </Button>
    </div>
  );
}

import { API, type PasteDetail, SIGNING_TEXTS } from '@termpaste/contracts';
import { Badge } from '@termpaste/ui';
import { ShieldAlert, ShieldCheck } from 'lucide-react';
import './signature.css';

/**
 * A signed paste's mark: VERIFIED with the key's title and fingerprint while its author lists the key that
 * signed it, else a warning. The signature itself is beside the raw text, for `ssh-keygen -Y verify`.
 */
export function SignatureMark({
  signature,
  threadId,
}: {
  signature: NonNullable<PasteDetail['signature']>;
  threadId: PasteDetail['id'];
}) {
  const verified = signature.state === 'verified';
  const Icon = verified ? ShieldCheck : ShieldAlert;
  return (
    <p
      className="forum-signature"
      data-state={signature.state}
      data-testid="paste-signature"
      role={verified ? undefined : 'alert'}
    >
      <Icon size={14} aria-hidden="true" className="forum-signature__icon" />
      <Badge variant={verified ? 'accent' : 'warning'}>
        {verified ? SIGNING_TEXTS.verified : SIGNING_TEXTS.keyRemoved}
      </Badge>
      <span className="forum-signature__detail">
        {verified
          ? SIGNING_TEXTS.verifiedDetail(signature.fingerprint, signature.keyTitle)
          : SIGNING_TEXTS.keyRemovedDetail(signature.fingerprint)}
      </span>
      <a className="forum-signature__raw" href={API.threadRawSignature(threadId)}>
        raw.sig
      </a>
    </p>
  );
}

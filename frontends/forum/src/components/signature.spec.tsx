import { SIGNING_TEXTS } from '@termpaste/contracts';
import { render, screen } from '@testing-library/react';
import { SignatureMark } from './signature';

const FINGERPRINT = 'SHA256:qT1nW0lF9a8t4m0Yw3h5r7JXh0s2Qd0Qv6yD7bC1pE8';

describe('SignatureMark', () => {
  it('says VERIFIED with the key’s title and fingerprint, and links raw.sig', () => {
    render(
      <SignatureMark
        threadId={42}
        signature={{
          state: 'verified',
          fingerprint: FINGERPRINT,
          keyType: 'ssh-ed25519',
          keyTitle: 'laptop',
        }}
      />,
    );
    const mark = screen.getByTestId('paste-signature');
    expect(mark).toHaveTextContent(SIGNING_TEXTS.verified);
    expect(mark).toHaveTextContent(SIGNING_TEXTS.verifiedDetail(FINGERPRINT, 'laptop'));
    expect(screen.getByRole('link', { name: 'raw.sig' })).toHaveAttribute('href', '/api/threads/42/raw.sig');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('warns, as an alert, once the author no longer lists the key', () => {
    render(
      <SignatureMark
        threadId="Zk3q9XyL0aBcDe-FgHi_Lm"
        signature={{ state: 'key-removed', fingerprint: FINGERPRINT, keyType: 'ssh-ed25519', keyTitle: null }}
      />,
    );
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent(SIGNING_TEXTS.keyRemoved);
    expect(alert).toHaveTextContent(SIGNING_TEXTS.keyRemovedDetail(FINGERPRINT));
  });
});

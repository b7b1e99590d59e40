import { Card, useCurrentUser } from '@termpaste/ui';
import type { ComponentProps } from 'react';
import { AuthLayout } from './auth/auth-layout';

/**
 * The frame of a page opened from a mail's link, signed in or not: a visitor sees it in the sign-in
 * frame, a member as a card inside the signed-in layout.
 */
export function LinkPage({ title, subtitle, children }: ComponentProps<typeof AuthLayout>) {
  const { user } = useCurrentUser();
  if (!user) {
    return (
      <AuthLayout title={title} subtitle={subtitle}>
        {children}
      </AuthLayout>
    );
  }
  return (
    <Card titleLevel={1} title={title} className="shell-verify-page">
      {children}
    </Card>
  );
}

/** One outcome line of a link page: `[OK]` or `[FAIL]` and what happened. */
export function LinkOutcome({ ok, text }: { ok: boolean; text: string }) {
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

import { Card, CONTENT_ID } from '@termpaste/ui';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';

/** The frame of the sign-in pages: a centred terminal window under the product mark. */
export function AuthLayout({
  title,
  subtitle,
  children,
}: {
  title: string;
  subtitle: string;
  children: ReactNode;
}) {
  return (
    <main className="shell-auth" id={CONTENT_ID}>
      <Link to="/" className="shell-auth__brand">
        <span aria-hidden="true">&gt;_ </span>TERMPASTE
      </Link>
      <Card titleLevel={1} title={title} className="shell-auth__card">
        <p className="shell-muted shell-auth__subtitle">{subtitle}</p>
        {children}
      </Card>
    </main>
  );
}

import { TEXTS } from '@termpaste/contracts';
import { NOT_FOUND_ART } from '@termpaste/contracts/first-paint';
import { CONTENT_ID } from '@termpaste/ui';
import { Link } from 'react-router-dom';
import { TopBar } from '../layout/top-bar';
import { useTakeOverPaint } from '../paint';

/**
 * The 404 page's content. Inside the signed-in layout it sits in the layout's <main>; a visitor's is
 * wrapped in a <main> of its own (routes.tsx), so a page never has two.
 */
export function NotFoundPage() {
  return (
    <div className="shell-not-found">
      <pre className="shell-not-found__code" aria-hidden="true">
        {NOT_FOUND_ART}
      </pre>
      <h1 className="shell-not-found__title">404 Page Not Found</h1>
      <p className="shell-not-found__text">{TEXTS.notFound}</p>
      <p className="shell-muted">
        <span aria-hidden="true">&gt; </span>
        <Link to="/">cd ~</Link>
      </p>
    </div>
  );
}

/**
 * A visitor's 404 page, on every path but theirs: the top bar without a member, the page in a <main> of
 * its own. The server paints it (first-paint.ts); this takes its painted copy over as it mounts.
 */
export function VisitorNotFound() {
  useTakeOverPaint();
  return (
    <>
      <TopBar user={null} />
      <main id={CONTENT_ID}>
        <NotFoundPage />
      </main>
    </>
  );
}

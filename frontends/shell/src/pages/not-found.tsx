import { TEXTS } from '@termpaste/contracts';
import { Link } from 'react-router-dom';

/**
 * The 404 page's content. Inside the signed-in layout it sits in the layout's <main>; a visitor's is
 * wrapped in a <main> of its own (routes.tsx), so a page never has two.
 */
export function NotFoundPage() {
  return (
    <div className="shell-not-found">
      <pre className="shell-not-found__code" aria-hidden="true">
        {`  _  _    ___   _  _
 | || |  / _ \\ | || |
 | || |_| | | || || |_
 |__   _| |_| ||__   _|
    |_|  \\___/    |_|`}
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

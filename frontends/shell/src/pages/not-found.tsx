import { TEXTS } from '@termpaste/contracts';
import { Link } from 'react-router-dom';

export function NotFoundPage() {
  return (
    <main className="shell-not-found">
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
    </main>
  );
}

import { LANDING, TEXTS } from '@termpaste/contracts';
import { LANDING_BOOT_LINES as BOOT_LINES, LANDING_LOGO as LOGO } from '@termpaste/contracts/first-paint';
import { CONTENT_ID } from '@termpaste/ui';
import { Link } from 'react-router-dom';
import { useTakeOverPaint } from '../paint';
import { useTypewriter } from './use-typewriter';

export function LandingPage() {
  const typed = useTypewriter(TEXTS.landingTagline, LANDING.typeIntervalMs);
  const done = typed.length === TEXTS.landingTagline.length;
  useTakeOverPaint();

  return (
    <main className="shell-landing" id={CONTENT_ID}>
      <div className="shell-landing__window">
        <div className="shell-landing__bar" aria-hidden="true">
          <span className="shell-landing__dot" />
          <span className="shell-landing__dot" />
          <span className="shell-landing__dot" />
          <span className="shell-landing__bar-title">guest@termpaste:~</span>
        </div>
        <div className="shell-landing__body">
          {/* The page's heading, read once; the two drawings of the name below are for the eye. */}
          <h1 className="tp-sr-only">Termpaste</h1>
          <pre className="shell-landing__logo" aria-hidden="true">
            {LOGO}
          </pre>
          <p className="shell-landing__logo-compact" aria-hidden="true">
            &gt;_ TERMPASTE
          </p>
          <ul className="shell-landing__boot" aria-hidden="true">
            {BOOT_LINES.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
          <p className="shell-landing__tagline">
            {/* Read whole, once: a screen reader is not made to follow the typing. */}
            <span className="tp-sr-only">{TEXTS.landingTagline}</span>
            <span className="shell-landing__prompt" aria-hidden="true">
              $&nbsp;
            </span>
            <span data-testid="tagline" aria-hidden="true">
              {typed}
            </span>
            <span
              className="shell-landing__cursor"
              aria-hidden="true"
              style={{ animationDuration: `${LANDING.cursorBlinkMs * 2}ms` }}
            >
              █
            </span>
            {/* The rest, unseen, holds its room: the line wraps as it will once typed, nothing moves. */}
            <span className="shell-landing__untyped" aria-hidden="true">
              {TEXTS.landingTagline.slice(typed.length)}
            </span>
          </p>
          <div className={done ? 'shell-landing__cta shell-landing__cta--ready' : 'shell-landing__cta'}>
            <Link to="/login" className="tp-button tp-button--primary tp-button--lg">
              [ ACCESS TERMINAL ]
            </Link>
          </div>
        </div>
      </div>
    </main>
  );
}

import { LANDING } from './limits.js';
import { TEXTS } from './texts.js';

/**
 * The first paint: the server sends a visitor's landing page with its content already in the HTML, the
 * same markup the shell's LandingPage renders first (a shell test holds them equal), so the page shows
 * before any script runs; the app takes it over when its own page is ready.
 */

/** The element the server's painted page is in: the app removes it when its page mounts. */
export const PAINT_ID = 'tp-paint';
/** A JSON script with the data the app would fetch first (`currentUser`), so it does not. */
export const PAINT_DATA_ID = 'tp-data';
/** A JSON script with remotes.json's content, so the app does not fetch it. */
export const REMOTES_DATA_ID = 'tp-remotes';

/** What a painted page carries for the app: only a visitor's, never a member's data. */
export interface PaintData {
  currentUser: null;
}

/** Text or an attribute value made inert in HTML, escaped as React escapes it. */
export function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => `&${{ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot', "'": '#x27' }[c]};`,
  );
}

/** JSON for a `<script type="application/json">`: nothing in it can close the script or open a comment. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

export const LANDING_LOGO = String.raw`
 _____ _____ ____  __  __ ____   _    ____ _____ _____
|_   _| ____|  _ \|  \/  |  _ \ / \  / ___|_   _| ____|
  | | |  _| | |_) | |\/| | |_) / _ \ \___ \ | | |  _|
  | | | |___|  _ <| |  | |  __/ ___ \ ___) || | | |___
  |_| |_____|_| \_\_|  |_|_| /_/   \_\____/ |_| |_____|`.slice(1); // without the newline after the backtick

export const LANDING_BOOT_LINES = [
  '[ OK ] mounting /dev/pastes',
  '[ OK ] starting live chat daemon',
  '[ OK ] reputation engine online',
];

/** The landing page as the shell's LandingPage renders it first (the tagline not typed yet). */
export function landingPageHtml(contentId: string): string {
  const e = escapeHtml;
  return (
    `<main class="shell-landing" id="${e(contentId)}"><div class="shell-landing__window">` +
    `<div class="shell-landing__bar" aria-hidden="true"><span class="shell-landing__dot"></span>` +
    `<span class="shell-landing__dot"></span><span class="shell-landing__dot"></span>` +
    `<span class="shell-landing__bar-title">guest@termpaste:~</span></div>` +
    `<div class="shell-landing__body"><h1 class="tp-sr-only">Termpaste</h1>` +
    `<pre class="shell-landing__logo" aria-hidden="true">${e(LANDING_LOGO)}</pre>` +
    `<p class="shell-landing__logo-compact" aria-hidden="true">&gt;_ TERMPASTE</p>` +
    `<ul class="shell-landing__boot" aria-hidden="true">${LANDING_BOOT_LINES.map((line) => `<li>${e(line)}</li>`).join('')}</ul>` +
    `<p class="shell-landing__tagline"><span class="tp-sr-only">${e(TEXTS.landingTagline)}</span>` +
    `<span class="shell-landing__prompt" aria-hidden="true">$\u00a0</span>` +
    `<span data-testid="tagline" aria-hidden="true"></span>` +
    `<span class="shell-landing__cursor" aria-hidden="true" style="animation-duration: ${LANDING.cursorBlinkMs * 2}ms;">█</span>` +
    `<span class="shell-landing__untyped" aria-hidden="true">${e(TEXTS.landingTagline)}</span></p>` +
    `<div class="shell-landing__cta"><a class="tp-button tp-button--primary tp-button--lg" href="/login" data-discover="true">[ ACCESS TERMINAL ]</a></div>` +
    `</div></div></main>`
  );
}

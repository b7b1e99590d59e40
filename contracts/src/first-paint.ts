import { LANDING } from './limits.js';
import { PAGES } from './routes.js';
import { TEXTS } from './texts.js';

export { PAINT_DATA_ID, PAINT_ID, PAINT_QUERIES_ID, REMOTES_DATA_ID } from './paint-ids.js';

/**
 * The first paint: the server sends a visitor's landing page with its content already in the HTML, the
 * same markup the shell's LandingPage renders first (a shell test holds them equal), so the page shows
 * before any script runs; the app takes it over when its own page is ready.
 */

export type PaintedQuery = [key: unknown[], data: unknown];

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

/** The paths a visitor's app draws a page of its own on: every other path is their 404 page. */
export const VISITOR_PAGE_PATHS: readonly string[] = [
  PAGES.landing,
  PAGES.login,
  PAGES.register,
  PAGES.forgotPassword,
  PAGES.resetPassword,
  PAGES.verifyEmail,
  PAGES.unsubscribe,
];

export const NOT_FOUND_ART = `  _  _    ___   _  _
 | || |  / _ \\ | || |
 | || |_| | | || || |_
 |__   _| |_| ||__   _|
    |_|  \\___/    |_|`;

/** The house icon of the top bar's home link (lucide's Home, as React renders it). */
const HOME_ICON =
  '<svg xmlns="http://www.w3.org/2000/svg" width="18" height="18" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" class="lucide lucide-house lucide-home" aria-hidden="true"><path d="M15 21v-8a1 1 0 0 0-1-1h-4a1 1 0 0 0-1 1v8"></path><path d="M3 10a2 2 0 0 1 .709-1.528l7-6a2 2 0 0 1 2.582 0l7 6A2 2 0 0 1 21 10v9a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2z"></path></svg>';

/** A visitor's 404 page as the shell renders it (the top bar without a member, then the page). */
export function notFoundPageHtml(contentId: string): string {
  const e = escapeHtml;
  return (
    `<header class="shell-topbar"><a class="shell-topbar__home" aria-label="termpaste home" href="/" data-discover="true">` +
    `${HOME_ICON}<span class="shell-topbar__brand">termpaste</span></a>` +
    `<nav class="shell-topbar__actions"><button type="button" class="tp-button tp-button--primary tp-button--sm">ACCESS</button></nav></header>` +
    `<main id="${e(contentId)}"><div class="shell-not-found">` +
    `<pre class="shell-not-found__code" aria-hidden="true">${e(NOT_FOUND_ART)}</pre>` +
    `<h1 class="shell-not-found__title">404 Page Not Found</h1>` +
    `<p class="shell-not-found__text">${e(TEXTS.notFound)}</p>` +
    `<p class="shell-muted"><span aria-hidden="true">&gt; </span><a href="/" data-discover="true">cd ~</a></p>` +
    `</div></main>`
  );
}

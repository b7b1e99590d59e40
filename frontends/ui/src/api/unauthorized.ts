import { API, REDIRECT_DELAY_MS, TEXTS } from '@termpaste/contracts';
import { toast } from '../components/toast-store.js';
import { whenToastsCanShow } from '../components/toaster.js';

let redirecting = false;

/**
 * The unauthorized rule: toast, then /api/login after 0.5 s; many failing calls at once still redirect once.
 */
export function redirectToLogin(
  navigate: (url: string) => void = (url) => window.location.assign(url),
): void {
  if (redirecting) return;
  redirecting = true;
  toast({ title: TEXTS.unauthorized, description: TEXTS.loggedOut, variant: 'destructive' });
  // The 0.5 s are for reading the toast: counted from when it can show (a page's first toast fetches
  // the toasts' code).
  whenToastsCanShow(() =>
    setTimeout(() => {
      redirecting = false;
      navigate(API.login);
    }, REDIRECT_DELAY_MS),
  );
}

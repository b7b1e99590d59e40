import { PAGES, SIGNED_IN_ROUTES } from '@termpaste/contracts';
import { Spinner, useCurrentUser } from '@termpaste/ui';
import { lazy, Suspense } from 'react';
import { Route, Routes } from 'react-router-dom';
import { AppLayout } from './layout/app-layout';
import { NotFoundPage, VisitorNotFound } from './pages/not-found';
import { RemoteScreen } from './remotes/remote-screen';

/** One of the visitors' pages, all fetched as one chunk (pages/public-pages.ts) when the first is shown. */
const publicPage = (name: keyof typeof import('./pages/public-pages')) =>
  lazy(() => import('./pages/public-pages').then((pages) => ({ default: pages[name] })));
const LandingPage = publicPage('LandingPage');
const LoginPage = publicPage('LoginPage');
const RegisterPage = publicPage('RegisterPage');
const ForgotPasswordPage = publicPage('ForgotPasswordPage');
const ResetPasswordPage = publicPage('ResetPasswordPage');
const VerifyEmailPage = lazy(() =>
  import('./pages/verify-email').then((m) => ({ default: m.VerifyEmailPage })),
);
const UnsubscribePage = lazy(() =>
  import('./pages/unsubscribe').then((m) => ({ default: m.UnsubscribePage })),
);
const OwnerSetupPage = lazy(() => import('./pages/owner-setup').then((m) => ({ default: m.OwnerSetupPage })));

/**
 * While the current user is loading: nothing yet, rather than the landing or the 404 page for a member
 * who is about to get home or the page they opened (they would flash for the time of one request).
 */
function Loading() {
  return (
    <div className="shell-boot" role="status" aria-label="Loading">
      <Spinner />
    </div>
  );
}

/**
 * Routing by auth state: visitors get the public routes; while the user loads, `/` and the members'
 * paths wait instead of showing the landing or 404.
 */
export function AppRoutes() {
  const { user, isLoading } = useCurrentUser();

  if (isLoading || !user) {
    const pending = isLoading ? <Loading /> : null;
    return (
      // The landing and sign-in pages are fetched for visitors only: the spinner stays meanwhile.
      <Suspense fallback={<Loading />}>
        <Routes>
          <Route path="/" element={pending ?? <LandingPage />} />
          <Route path="/login" element={<LoginPage />} />
          <Route path="/register" element={<RegisterPage />} />
          <Route path="/forgot-password" element={<ForgotPasswordPage />} />
          <Route path="/reset-password" element={<ResetPasswordPage />} />
          <Route path={PAGES.verifyEmail} element={pending ?? <VerifyEmailPage />} />
          <Route path={PAGES.unsubscribe} element={pending ?? <UnsubscribePage />} />
          <Route path="*" element={pending ?? <VisitorNotFound />} />
        </Routes>
      </Suspense>
    );
  }

  return (
    <Routes>
      <Route element={<AppLayout />}>
        {SIGNED_IN_ROUTES.map((route) => (
          <Route
            key={route.path}
            path={route.path}
            element={
              <RemoteScreen
                key={`${route.remote}/${route.screen}`}
                remote={route.remote}
                screen={route.screen}
              />
            }
          />
        ))}
        <Route
          path={PAGES.verifyEmail}
          element={
            <Suspense fallback={<Loading />}>
              <VerifyEmailPage />
            </Suspense>
          }
        />
        <Route
          path={PAGES.unsubscribe}
          element={
            <Suspense fallback={<Loading />}>
              <UnsubscribePage />
            </Suspense>
          }
        />
        <Route
          path={PAGES.ownerSetup}
          element={
            <Suspense fallback={<Loading />}>
              <OwnerSetupPage />
            </Suspense>
          }
        />
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}

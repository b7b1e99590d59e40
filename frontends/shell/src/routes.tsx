import { SIGNED_IN_ROUTES } from '@termpaste/contracts';
import { useCurrentUser } from '@termpaste/ui';
import { Route, Routes } from 'react-router-dom';
import { AppLayout } from './layout/app-layout';
import { TopBar } from './layout/top-bar';
import { ForgotPasswordPage } from './pages/auth/forgot-password';
import { LoginPage } from './pages/auth/login';
import { RegisterPage } from './pages/auth/register';
import { ResetPasswordPage } from './pages/auth/reset-password';
import { LandingPage } from './pages/landing';
import { NotFoundPage } from './pages/not-found';
import { RemoteScreen } from './remotes/remote-screen';

/** Routing by auth state (SPEC §2): visitors, and members while the current user is loading, get the public routes. */
export function AppRoutes() {
  const { user, isLoading } = useCurrentUser();

  if (isLoading || !user) {
    return (
      <Routes>
        <Route path="/" element={<LandingPage />} />
        <Route path="/login" element={<LoginPage />} />
        <Route path="/register" element={<RegisterPage />} />
        <Route path="/forgot-password" element={<ForgotPasswordPage />} />
        <Route path="/reset-password" element={<ResetPasswordPage />} />
        <Route
          path="*"
          element={
            <>
              <TopBar user={null} />
              <NotFoundPage />
            </>
          }
        />
      </Routes>
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
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}

import { SIGNED_IN_ROUTES, type RemoteName } from '@termpaste/contracts';
import type { ComponentType } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter, Route, Routes } from 'react-router-dom';
import { createQueryClient } from './api/client.js';
import { useCurrentUser } from './api/current-user.js';
import { UiProvider } from './components/ui-provider.js';

function StandaloneRoutes({
  remote,
  screens,
}: {
  remote: RemoteName;
  screens: Record<string, ComponentType>;
}) {
  const { user, isLoading } = useCurrentUser();
  if (isLoading) return null;
  if (!user) {
    return (
      <p className="tp-muted" style={{ padding: '2rem' }}>
        {remote} (standalone): sign in through the shell first, then reload.
      </p>
    );
  }
  return (
    <main style={{ padding: '2rem' }}>
      <Routes>
        {SIGNED_IN_ROUTES.filter((route) => route.remote === remote).map((route) => {
          const Screen = screens[route.screen];
          return Screen ? <Route key={route.path} path={route.path} element={<Screen />} /> : null;
        })}
      </Routes>
    </main>
  );
}

/** Runs a remote on its own dev server, outside the shell, with its own router and query client. */
export function mountStandalone(remote: RemoteName, screens: Record<string, ComponentType>) {
  createRoot(document.getElementById('root')!).render(
    <UiProvider queryClient={createQueryClient()}>
      <BrowserRouter>
        <StandaloneRoutes remote={remote} screens={screens} />
      </BrowserRouter>
    </UiProvider>,
  );
}

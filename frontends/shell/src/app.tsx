import {
  createQueryClient,
  currentUserQuery,
  KeyboardShortcuts,
  siteQuery,
  SkipLink,
  UiProvider,
  useCurrentUser,
} from '@termpaste/ui';
import type { ReactNode } from 'react';
import { BrowserRouter, useNavigate } from 'react-router-dom';
import { paintData, paintedQueries, usePaintRelease } from './paint';
import { AppRoutes } from './routes';

// The shell owns the single QueryClient; every remote reads it through the shared react-query singleton.
const queryClient = createQueryClient();
// A page the server painted says who is reading (a visitor): the routes need not wait for the request.
const painted = paintData();
if (painted) queryClient.setQueryData(currentUserQuery.queryKey, painted.currentUser);
// A member's painted page: what it was drawn from (who they are, the screen's data), read once.
for (const [key, data] of paintedQueries()) queryClient.setQueryData(key, data);
// Read at start beside the current user: the sign-in pages need it to know which ways in to show.
void queryClient.prefetchQuery(siteQuery);

/** The keyboard shortcuts, for members: a visitor's pages have no lists and no search box. */
function Keyboard({ children }: { children: ReactNode }) {
  const { user } = useCurrentUser();
  const navigate = useNavigate();
  usePaintRelease();
  return (
    <KeyboardShortcuts navigate={navigate} enabled={user !== null}>
      {children}
    </KeyboardShortcuts>
  );
}

export function App() {
  return (
    <UiProvider queryClient={queryClient}>
      <BrowserRouter>
        <SkipLink />
        <Keyboard>
          <AppRoutes />
        </Keyboard>
      </BrowserRouter>
    </UiProvider>
  );
}

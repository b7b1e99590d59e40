import { createQueryClient, siteQuery, UiProvider } from '@termpaste/ui';
import { BrowserRouter } from 'react-router-dom';
import { AppRoutes } from './routes';

// The shell owns the single QueryClient; every remote reads it through the shared react-query singleton.
const queryClient = createQueryClient();
// Read at start beside the current user: the sign-in pages need it to know which ways in to show.
void queryClient.prefetchQuery(siteQuery);

export function App() {
  return (
    <UiProvider queryClient={queryClient}>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </UiProvider>
  );
}

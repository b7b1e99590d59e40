import { createQueryClient, UiProvider } from '@termpaste/ui';
import { BrowserRouter } from 'react-router-dom';
import { AppRoutes } from './routes';

// The shell owns the single QueryClient; every remote reads it through the shared react-query singleton.
const queryClient = createQueryClient();

export function App() {
  return (
    <UiProvider queryClient={queryClient}>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </UiProvider>
  );
}

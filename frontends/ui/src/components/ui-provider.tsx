import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { LiveEventsProvider } from '../api/live.js';
import { ConfirmProvider } from './confirm.js';
import { SecretWarningProvider } from './secret-warning.js';
import { Toaster } from './toaster.js';
import { TooltipProvider } from './tooltip.js';

export interface UiProviderProps {
  queryClient: QueryClient;
  children: ReactNode;
}

/**
 * Wraps an app once (the shell, or a remote running standalone): data, the tab's one live socket,
 * tooltips, confirmations, the secret warning, toasts.
 */
export function UiProvider({ queryClient, children }: UiProviderProps) {
  return (
    <QueryClientProvider client={queryClient}>
      <LiveEventsProvider>
        <TooltipProvider>
          <ConfirmProvider>
            <SecretWarningProvider>
              {children}
              <Toaster />
            </SecretWarningProvider>
          </ConfirmProvider>
        </TooltipProvider>
      </LiveEventsProvider>
    </QueryClientProvider>
  );
}

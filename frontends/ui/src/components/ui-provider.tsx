import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { ConfirmProvider } from './confirm.js';
import { Toaster } from './toaster.js';
import { TooltipProvider } from './tooltip.js';

export interface UiProviderProps {
  queryClient: QueryClient;
  children: ReactNode;
}

/** Wraps an app once (the shell, or a remote running standalone): data, tooltips, confirmations, toasts. */
export function UiProvider({ queryClient, children }: UiProviderProps) {
  return (
    <QueryClientProvider client={queryClient}>
      <TooltipProvider>
        <ConfirmProvider>
          {children}
          <Toaster />
        </ConfirmProvider>
      </TooltipProvider>
    </QueryClientProvider>
  );
}

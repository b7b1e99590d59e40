import { useMutation } from '@tanstack/react-query';
import { toast } from '../components/toast-store.js';
import { apiRequest, errorMessage, isUnauthorizedError } from './client.js';

/**
 * One form's call (SPEC §8): sends the body, toasts the success, or toasts the failure under its title
 * with the server's message or the fallback text. `fail` reports a client-side check the same way.
 */
export function useFormCall(options: {
  method?: 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  body: () => unknown;
  success: { title: string; description: string };
  failure: { title: string; fallback: string };
  onSuccess?: () => unknown;
}) {
  const fail = (description: string) =>
    toast({ title: options.failure.title, description, variant: 'destructive' });
  const call = useMutation({
    mutationFn: () => apiRequest(options.method ?? 'POST', options.path, options.body()),
    onSuccess: async () => {
      toast(options.success);
      await options.onSuccess?.();
    },
    onError: (error) => {
      // A session that is gone gets the unauthorized rule (the query client's), not a form error.
      if (!isUnauthorizedError(error)) fail(errorMessage(error, options.failure.fallback));
    },
  });
  return { call, fail };
}

import { useMutation } from '@tanstack/react-query';
import { toast } from '../components/toast-store.js';
import { apiRequest, errorMessage, isUnauthorizedError } from './client.js';
import { isSecretWarningDismissed } from './secrets.js';

/**
 * SPEC §8 'Other errors' for a write (a mutation's onError): the server's message, else `fallback`, in a
 * destructive toast titled `title`. A 401 is left to the query client's unauthorized rule (toast, then
 * /api/login), not toasted as an error; nor is EDIT in the secret warning (SecretWarningDismissed).
 */
export const toastError =
  (fallback: string, title = 'Error') =>
  (error: unknown): void => {
    if (isUnauthorizedError(error) || isSecretWarningDismissed(error)) return;
    toast({ title, description: errorMessage(error, fallback), variant: 'destructive' });
  };

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
    onError: toastError(options.failure.fallback, options.failure.title),
  });
  return { call, fail };
}

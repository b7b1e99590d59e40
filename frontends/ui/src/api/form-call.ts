import { useMutation } from '@tanstack/react-query';
import { toast } from '../components/toast-store.js';
import { apiRequest, errorMessage, isUnauthorizedError } from './client.js';
import { isSecretWarningDismissed } from './secrets.js';

/**
 * A write's error toast: the server's message, else `fallback`, titled `title`. A 401 is left to the
 * unauthorized rule, and EDIT in the secret warning (SecretWarningDismissed) is no error.
 */
export const toastError =
  (fallback: string, title = 'Error') =>
  (error: unknown): void => {
    if (isUnauthorizedError(error) || isSecretWarningDismissed(error)) return;
    toast({ title, description: errorMessage(error, fallback), variant: 'destructive' });
  };

/**
 * One form's call: sends the body, toasts the success or the failure (server's message or fallback); `fail`
 * for client checks.
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

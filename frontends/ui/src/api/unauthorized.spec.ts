import { act, renderHook } from '@testing-library/react';
import { resetToastsForTests, useToast } from '../components/toast-store.js';
import { whenToastsCanShow } from '../components/toaster.js';
import { createQueryClient } from './client.js';
import { redirectToLogin } from './unauthorized.js';

describe('the unauthorized rule', () => {
  // The toasts' code as it is once a first toast fetched it (the test below covers the moment before).
  beforeAll(() => new Promise<void>((resolve) => whenToastsCanShow(resolve)));

  beforeEach(() => {
    jest.useFakeTimers();
    resetToastsForTests();
  });
  afterEach(() => jest.useRealTimers());

  it('toasts, then goes to /api/login after 0.5 s, once for many failures', () => {
    const toasts = renderHook(() => useToast());
    const navigate = jest.fn();
    act(() => {
      redirectToLogin(navigate);
      redirectToLogin(navigate);
    });
    expect(toasts.result.current.toasts).toEqual([
      expect.objectContaining({
        title: 'Unauthorized',
        description: 'You are logged out. Logging in again...',
        variant: 'destructive',
      }),
    ]);
    act(() => jest.advanceTimersByTime(499));
    expect(navigate).not.toHaveBeenCalled();
    act(() => jest.advanceTimersByTime(1));
    expect(navigate).toHaveBeenCalledTimes(1);
    expect(navigate).toHaveBeenCalledWith('/api/login');
  });

  it('is what the query client does when a call finds the session gone, and only then', async () => {
    const toasts = renderHook(() => useToast());
    const client = createQueryClient();
    const run = (message: string) =>
      act(async () => {
        const mutation = client
          .getMutationCache()
          .build(client, { mutationFn: () => Promise.reject(new Error(message)) });
        await mutation.execute(undefined).catch(() => undefined);
      });
    await run('401: {"statusCode":401,"message":"Invalid username/email or password"}');
    expect(toasts.result.current.toasts).toEqual([]);
    await run('401: {"statusCode":401,"message":"Unauthorized"}');
    expect(toasts.result.current.toasts).toEqual([expect.objectContaining({ title: 'Unauthorized' })]);
    // jsdom cannot navigate: it reports the attempt, which is what we want to see.
    const jsdomError = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    act(() => jest.advanceTimersByTime(500));
    expect(String(jsdomError.mock.calls[0]?.[0])).toContain('Not implemented: navigation');
    jsdomError.mockRestore();
  });
});

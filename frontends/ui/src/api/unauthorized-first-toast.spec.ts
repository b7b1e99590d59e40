import { act } from '@testing-library/react';
import { resetToastsForTests } from '../components/toast-store.js';
import { whenToastsCanShow } from '../components/toaster.js';
import { redirectToLogin } from './unauthorized.js';

// A file of its own: the toasts' code is not fetched yet, as on a page that has shown no toast.
describe('the unauthorized rule on a page that has shown no toast yet', () => {
  afterEach(() => {
    jest.useRealTimers();
    act(() => resetToastsForTests());
  });

  it('counts the 0.5 s from when the toast can show', async () => {
    jest.useFakeTimers();
    const navigate = jest.fn();
    act(() => redirectToLogin(navigate));
    act(() => jest.advanceTimersByTime(1000));
    expect(navigate).not.toHaveBeenCalled();

    await act(() => new Promise<void>((resolve) => whenToastsCanShow(resolve)));
    act(() => jest.advanceTimersByTime(499));
    expect(navigate).not.toHaveBeenCalled();
    act(() => jest.advanceTimersByTime(1));
    expect(navigate).toHaveBeenCalledWith('/api/login');
  });
});

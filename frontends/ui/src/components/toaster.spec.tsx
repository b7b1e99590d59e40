import { act, render, screen, waitFor } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { TOASTS } from '@termpaste/contracts';
import { resetToastsForTests, toast, useToast } from './toast-store.js';
import ToastList from './toast-list.js';
import { Toaster } from './toaster.js';

/** The toasts on screen (Radix also announces each toast in a hidden live region; that is not counted). */
const shownToasts = () => Array.from(document.querySelectorAll<HTMLElement>('.tp-toast'));
/** jsdom runs no exit animation, so a closing toast may already be gone. */
const openToasts = () => shownToasts().filter((el) => el.dataset.state === 'open');

afterEach(() => {
  act(() => resetToastsForTests());
  jest.useRealTimers();
});

describe('ToastList', () => {
  it('shows a toast with title and description', () => {
    render(<ToastList />);
    act(() => {
      toast({ title: 'Access Granted', description: 'Welcome to Termpaste' });
    });

    const [shown] = shownToasts();
    expect(shownToasts()).toHaveLength(1);
    expect(shown).toHaveTextContent('Access Granted');
    expect(shown).toHaveTextContent('Welcome to Termpaste');
    expect(shown).not.toHaveClass('tp-toast--destructive');
  });

  it('shows one toast at a time: a second replaces the first', () => {
    render(<ToastList />);
    act(() => {
      toast({ title: 'Reply posted' });
    });
    act(() => {
      toast({ title: 'Error', description: 'Failed to send message', variant: 'destructive' });
    });

    expect(TOASTS.limit).toBe(1);
    expect(shownToasts()).toHaveLength(1);
    expect(shownToasts()[0]).toHaveTextContent('Failed to send message');
    expect(shownToasts()[0]).toHaveClass('tp-toast--destructive');
    expect(shownToasts()[0]).not.toHaveTextContent('Reply posted');
  });

  it('closes after 5000 ms', () => {
    jest.useFakeTimers();
    render(<ToastList />);
    act(() => {
      toast({ title: 'Paste created' });
    });

    act(() => jest.advanceTimersByTime(TOASTS.durationMs - 100));
    expect(shownToasts()[0]).toHaveAttribute('data-state', 'open');
    act(() => jest.advanceTimersByTime(200));
    act(() => jest.advanceTimersByTime(1000));
    expect(shownToasts()).toHaveLength(0);
  });

  it('closes with its close button, and can be dismissed through its handle', async () => {
    render(<ToastList />);
    act(() => {
      toast({ title: 'Message sent' });
    });
    await userEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(openToasts()).toHaveLength(0);

    let handle: ReturnType<typeof toast> | undefined;
    act(() => {
      handle = toast({ title: 'User banned' });
    });
    expect(shownToasts()[0]).toHaveAttribute('data-state', 'open');
    act(() => handle!.dismiss());
    expect(openToasts()).toHaveLength(0);
  });

  it('has a viewport reachable with F8', () => {
    render(<ToastList />);
    expect(screen.getByRole('region', { name: /Notifications \(F8\)/ })).toBeInTheDocument();
  });
});

describe('useToast', () => {
  function Probe() {
    const { toasts } = useToast();
    return <output>{toasts.map((t) => `${String(t.title)}:${t.open ? 'open' : 'closed'}`).join(',')}</output>;
  }

  it('reads the one store that toast() writes, keeping only the newest toast', () => {
    render(<Probe />);
    act(() => {
      toast({ title: 'one' });
      toast({ title: 'two' });
    });
    expect(screen.getByRole('status')).toHaveTextContent(/^two:open$/);
  });

  it('updates a toast through its handle', () => {
    render(<Probe />);
    act(() => {
      const handle = toast({ title: 'UPLOADING...' });
      handle.update({ title: 'Avatar Updated' });
    });
    expect(screen.getByRole('status')).toHaveTextContent(/^Avatar Updated:open$/);
  });
});

describe('Toaster', () => {
  it('fetches the toast list with the first toast, then shows every toast', async () => {
    const { container } = render(<Toaster />);
    expect(container).toBeEmptyDOMElement();
    expect(document.querySelector('.tp-toast-viewport')).toBeNull();

    act(() => {
      toast({ title: 'Paste created' });
    });
    await waitFor(() => expect(shownToasts()).toHaveLength(1));
    expect(shownToasts()[0]).toHaveTextContent('Paste created');

    act(() => {
      toast({ title: 'Reply posted' });
    });
    expect(openToasts()[0]).toHaveTextContent('Reply posted');
  });
});

import { act, fireEvent, render, screen } from '@testing-library/react';
import { CopyButton } from './copy-button.js';
import { stubClipboard } from '../testing/clipboard.js';
import { resetToastsForTests } from './toast-store.js';
import { Toaster } from './toaster.js';

/** Lets the clipboard promise settle and React apply the state it sets. */
const settle = () => act(async () => {});

afterEach(() => {
  act(() => resetToastsForTests());
  jest.useRealTimers();
});

describe('CopyButton', () => {
  it('copies its text, reads COPIED, then goes back to its label', async () => {
    jest.useFakeTimers();
    const writeText = stubClipboard(jest.fn(() => Promise.resolve()));
    render(<CopyButton text="ssh root@10.0.0.1" label="COPY PASTE" aria-label="Copy paste" />);
    const button = screen.getByRole('button', { name: 'Copy paste' });
    expect(button).toHaveTextContent('COPY PASTE');
    expect(button).toHaveClass('tp-button--ghost', 'tp-button--sm');

    fireEvent.click(button);
    await settle();
    expect(writeText).toHaveBeenCalledWith('ssh root@10.0.0.1');
    expect(button).toHaveTextContent('COPIED');
    expect(button).not.toHaveTextContent('COPY PASTE');

    act(() => jest.advanceTimersByTime(1400));
    expect(button).toHaveTextContent('COPIED');
    act(() => jest.advanceTimersByTime(200));
    expect(button).toHaveTextContent('COPY PASTE');
  });

  it('reads COPY by default and a text function at click time', async () => {
    const writeText = stubClipboard(jest.fn(() => Promise.resolve()));
    let value = 'first';
    render(<CopyButton text={() => value} />);
    const button = screen.getByRole('button', { name: 'COPY' });
    value = 'second';
    fireEvent.click(button);
    await settle();
    expect(writeText).toHaveBeenCalledWith('second');
    expect(button).toHaveTextContent('COPIED');
  });

  it('shows an error toast when the clipboard refuses, and stays on its label', async () => {
    stubClipboard(jest.fn(() => Promise.reject(new Error('NotAllowedError'))));
    render(
      <>
        <CopyButton text="secret" />
        <Toaster />
      </>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'COPY' }));
    await settle();
    const toast = document.querySelector('.tp-toast');
    expect(toast).toHaveTextContent('Error');
    expect(toast).toHaveTextContent('Could not copy to the clipboard');
    expect(toast).toHaveClass('tp-toast--destructive');
    expect(screen.getByRole('button', { name: 'COPY' })).not.toHaveTextContent('COPIED');
  });
});

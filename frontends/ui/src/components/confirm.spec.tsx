import { render, screen, waitFor } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { useState } from 'react';
import { ConfirmProvider, useConfirm, type ConfirmOptions } from './confirm.js';

function Harness({ options }: { options: ConfirmOptions }) {
  const confirm = useConfirm();
  const [result, setResult] = useState('none');
  return (
    <>
      <button type="button" onClick={() => void confirm(options).then((ok) => setResult(String(ok)))}>
        ask
      </button>
      <output>{result}</output>
    </>
  );
}

function setup(options: ConfirmOptions = { title: 'Ban this user?' }) {
  render(
    <ConfirmProvider>
      <Harness options={options} />
    </ConfirmProvider>,
  );
  return userEvent.setup();
}

describe('confirm()', () => {
  it('resolves true on the confirm button', async () => {
    const user = setup({
      title: 'Delete this paste?',
      description: 'This cannot be undone.',
      destructive: true,
    });
    await user.click(screen.getByRole('button', { name: 'ask' }));

    const dialog = await screen.findByRole('alertdialog', { name: 'Delete this paste?' });
    expect(dialog).toHaveAccessibleDescription('This cannot be undone.');
    const confirmButton = screen.getByRole('button', { name: 'CONFIRM' });
    expect(confirmButton).toHaveClass('tp-button--danger');

    await user.click(confirmButton);
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('true'));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
  });

  it('resolves false on the cancel button, with custom labels', async () => {
    const user = setup({ title: 'Unban?', confirmLabel: 'UNBAN', cancelLabel: 'KEEP BANNED' });
    await user.click(screen.getByRole('button', { name: 'ask' }));
    expect(screen.getByRole('button', { name: 'UNBAN' })).toHaveClass('tp-button--primary');

    await user.click(screen.getByRole('button', { name: 'KEEP BANNED' }));
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('false'));
  });

  it('resolves false on Escape and returns focus to the page', async () => {
    const user = setup();
    await user.click(screen.getByRole('button', { name: 'ask' }));
    await screen.findByRole('alertdialog');

    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('false'));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(screen.getByRole('button', { name: 'ask' })).toHaveFocus();
  });

  it('traps focus in the dialog, starting on cancel', async () => {
    const user = setup();
    await user.click(screen.getByRole('button', { name: 'ask' }));
    await screen.findByRole('alertdialog');

    expect(screen.getByRole('button', { name: 'CANCEL' })).toHaveFocus();
    await user.tab();
    expect(screen.getByRole('button', { name: 'CONFIRM' })).toHaveFocus();
    await user.tab();
    expect(screen.getByRole('button', { name: 'CANCEL' })).toHaveFocus();
  });

  it('cancels a prompt still open when a new one is asked', async () => {
    let first: Promise<boolean> | undefined;
    let second: Promise<boolean> | undefined;
    function Double() {
      const confirm = useConfirm();
      return (
        <button
          type="button"
          onClick={() => {
            first = confirm({ title: 'first' });
            second = confirm({ title: 'second' });
          }}
        >
          twice
        </button>
      );
    }
    render(
      <ConfirmProvider>
        <Double />
      </ConfirmProvider>,
    );
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'twice' }));

    await expect(first).resolves.toBe(false);
    expect(await screen.findByRole('alertdialog', { name: 'second' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'CONFIRM' }));
    await expect(second).resolves.toBe(true);
  });

  it('needs a ConfirmProvider', () => {
    const spy = jest.spyOn(console, 'error').mockImplementation(() => {});
    expect(() => render(<Harness options={{ title: 'x' }} />)).toThrow(/ConfirmProvider/);
    spy.mockRestore();
  });
});

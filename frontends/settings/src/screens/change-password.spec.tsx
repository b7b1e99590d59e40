import { createQueryClient, UiProvider } from '@termpaste/ui';
import { render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { ChangePasswordScreen } from './change-password';

async function submit(current: string, next: string, confirmation: string) {
  render(
    <UiProvider queryClient={createQueryClient()}>
      <ChangePasswordScreen />
    </UiProvider>,
  );
  const user = userEvent.setup();
  await user.type(screen.getByLabelText('Current password'), current);
  await user.type(screen.getByLabelText('New password'), next);
  await user.type(screen.getByLabelText('Confirm new password'), confirmation);
  await user.click(screen.getByRole('button', { name: 'UPDATE PASSWORD' }));
}

describe('change password form', () => {
  const fetchSpy = jest.fn();
  beforeEach(() => {
    fetchSpy.mockReset();
    globalThis.fetch = fetchSpy;
  });

  it('refuses new passwords that do not match, without calling the server', async () => {
    await submit('old-password', 'new-password-1', 'new-password-2');
    expect(await screen.findByText('New passwords do not match')).toBeInTheDocument();
    expect(screen.getByText('Change Failed')).toBeInTheDocument();
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it('refuses a new password under 8 characters, without calling the server', async () => {
    await submit('old-password', 'short', 'short');
    expect(await screen.findByText('New password must be at least 8 characters')).toBeInTheDocument();
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it('requires all three fields', () => {
    render(
      <UiProvider queryClient={createQueryClient()}>
        <ChangePasswordScreen />
      </UiProvider>,
    );
    for (const label of ['Current password', 'New password', 'Confirm new password']) {
      expect(screen.getByLabelText(label)).toBeRequired();
    }
  });
});

import { createQueryClient, UiProvider } from '@termpaste/ui';
import { render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { RegisterPage } from './register';

function renderRegister() {
  render(
    <UiProvider queryClient={createQueryClient()}>
      <MemoryRouter>
        <RegisterPage />
      </MemoryRouter>
    </UiProvider>,
  );
}

async function fill(password: string, confirmation: string) {
  const user = userEvent.setup();
  // The form shows once the site is read (here it cannot be: password sign-in, no provider).
  await screen.findByLabelText('Username');
  await user.type(screen.getByLabelText('Username'), 'neo');
  await user.type(screen.getByLabelText('Email'), 'neo@zion.example');
  await user.type(screen.getByLabelText('Password'), password);
  await user.type(screen.getByLabelText('Confirm password'), confirmation);
  await user.click(screen.getByRole('button', { name: 'CREATE ACCOUNT' }));
}

describe('register form', () => {
  const fetchSpy = jest.fn();
  beforeEach(() => {
    fetchSpy.mockReset();
    globalThis.fetch = fetchSpy;
  });

  it('refuses passwords that do not match, without calling the server', async () => {
    renderRegister();
    await fill('password1', 'password2');
    expect(await screen.findByText('Passwords do not match')).toBeInTheDocument();
    expect(screen.getByText('Registration Failed')).toBeInTheDocument();
    expect(fetchSpy.mock.calls.filter(([url]) => url !== '/api/site')).toEqual([]);
  });

  it('refuses a password under 8 characters, without calling the server', async () => {
    renderRegister();
    await fill('short', 'short');
    expect(await screen.findByText('Password must be at least 8 characters')).toBeInTheDocument();
    expect(fetchSpy.mock.calls.filter(([url]) => url !== '/api/site')).toEqual([]);
  });

  it('marks every field required and the e-mail as an e-mail field', async () => {
    renderRegister();
    await screen.findByLabelText('Username');
    for (const label of ['Username', 'Email', 'Password', 'Confirm password']) {
      expect(screen.getByLabelText(label)).toBeRequired();
    }
    expect(screen.getByLabelText('Email')).toHaveAttribute('type', 'email');
  });
});

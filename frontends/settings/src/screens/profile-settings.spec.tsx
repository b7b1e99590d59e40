import { API, type CurrentUser } from '@termpaste/contracts';
import { sampleCurrentUser } from '@termpaste/contracts/testing';
import { createQueryClient, preloadMarkdown, UiProvider } from '@termpaste/ui';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import {
  deferred,
  errorBody,
  expectLoginRedirect,
  expectToast,
  FakeXhr,
  pending,
  reads,
  renderScreen,
  sampleFile,
  stubFetch,
  writes,
  type FetchAnswer,
  type FetchCall,
  type FetchHandler,
} from '../testing';
import { ProfileSettingsScreen } from './profile-settings';

/** What `POST /api/objects/upload` answers: the presigned PUT address the screen uses, and the form. */
const TICKET = {
  uploadURL: '/api/uploads/pending/7/a1b2c3?expires=1800000000&signature=deadbeef',
  method: 'PUT',
  form: {
    url: '/api/uploads',
    method: 'POST',
    fields: {
      key: 'pending/7/a1b2c3',
      'Content-Type': 'application/octet-stream',
      expires: '1800000000',
      max: '10485760',
      signature: 'deadbeef',
    },
  },
  objectURL: '/api/uploads/pending/7/a1b2c3',
} as const;
const UPLOAD_URL = TICKET.uploadURL;
const AVATAR_URL = '/api/uploads/avatars/7/d4e5f6';

const neo = (overrides: Partial<CurrentUser> = {}) =>
  sampleCurrentUser({ bio: 'I know **kung fu**.', reputation: 42, ...overrides });

/**
 * The API as the settings screen sees it: GET /api/auth/user answers `state.user`; writes go to
 * `onWrite`. Every call, and every PUT to the storage, is logged in order as 'METHOD url'.
 */
function server(state: { user: CurrentUser }, onWrite: FetchHandler = () => ({})) {
  const log: string[] = [];
  const calls = stubFetch((call) => {
    log.push(`${call.method} ${call.url}`);
    if (call.method === 'GET') {
      return call.url === API.currentUser ? { body: state.user } : { status: 404, body: 'not stubbed' };
    }
    return onWrite(call);
  });
  const sendXhr = FakeXhr.onSend;
  FakeXhr.onSend = (xhr) => {
    log.push(`${xhr.method} ${xhr.url}`);
    sendXhr?.(xhr);
  };
  return { calls, log };
}

function renderSettings(user: CurrentUser | null = neo()) {
  return renderScreen(<ProfileSettingsScreen />, { path: '/settings', user });
}

const field = (name: string) => screen.getByRole('textbox', { name });
const saveButton = () => screen.getByRole('button', { name: /^(SAVE|SAVING\.\.\.)$/ });
const fileInput = () => screen.getByLabelText<HTMLInputElement>('Avatar image');
const uploadButton = () => screen.getByRole('button', { name: /UPLOAD AVATAR|UPLOADING\.\.\./ });

// The Markdown renderer is fetched on demand: once per file, so a findBy does not wait for jest to load it.
beforeAll(() => preloadMarkdown());

describe('profile settings (/settings)', () => {
  it('shows a spinner while the member loads', () => {
    stubFetch(pending);
    render(
      <UiProvider queryClient={createQueryClient()}>
        <MemoryRouter>
          <ProfileSettingsScreen />
        </MemoryRouter>
      </UiProvider>,
    );
    expect(screen.getByRole('status')).toHaveTextContent('Loading profile...');
    expect(screen.queryByRole('form', { name: 'Profile' })).not.toBeInTheDocument();
  });

  it('says Not authenticated without a member', () => {
    renderSettings(null);
    expect(screen.getByText('Not authenticated')).toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Profile' })).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Avatar image')).not.toBeInTheDocument();
  });

  it('shows the account read-only and the profile fields filled in', () => {
    renderSettings();
    expect(screen.getByRole('heading', { name: 'PROFILE SETTINGS' })).toBeInTheDocument();

    const username = field('Username');
    expect(username).toHaveValue('neo');
    expect(username).toHaveAttribute('readonly');
    expect(username).toHaveAccessibleDescription('Username cannot be changed');
    expect(screen.getByText('Username cannot be changed')).toBeInTheDocument();
    const email = field('Email');
    expect(email).toHaveValue('neo@zion.example');
    expect(email).toHaveAttribute('readonly');

    expect(field('First name')).toHaveValue('Thomas');
    expect(field('Last name')).toHaveValue('Anderson');
    expect(field('Bio')).toHaveValue('I know **kung fu**.');
    for (const name of ['First name', 'Last name']) expect(field(name)).toHaveAttribute('maxLength', '64');
    expect(field('Bio')).toHaveAttribute('maxLength', '5000');
    expect(screen.getByTestId('bio-counter')).toHaveTextContent('19/5000');

    expect(screen.getByTestId('reputation')).toHaveTextContent('REPUTATION 42 points');
    expect(screen.getByRole('link', { name: 'CHANGE PASSWORD' })).toHaveAttribute(
      'href',
      '/settings/password',
    );
    expect(screen.getByRole('link', { name: 'ACCESS TOKENS' })).toHaveAttribute('href', '/settings/tokens');
    expect(screen.getByRole('link', { name: 'LINKED ACCOUNTS' })).toHaveAttribute(
      'href',
      '/settings/accounts',
    );
    expect(saveButton()).toHaveTextContent('SAVE');
    expect(saveButton()).toBeEnabled();
  });

  it('starts with empty fields for a member who has not filled them in', () => {
    renderSettings(neo({ firstName: null, lastName: null, bio: null }));
    expect(field('First name')).toHaveValue('');
    expect(field('Last name')).toHaveValue('');
    expect(field('Bio')).toHaveValue('');
  });

  it('shows and hides a Markdown preview of the bio', async () => {
    const { user } = renderSettings();
    expect(screen.queryByRole('region', { name: 'Bio preview' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'SHOW PREVIEW' }));
    const preview = screen.getByRole('region', { name: 'Bio preview' });
    expect((await within(preview).findByText('kung fu')).tagName).toBe('STRONG');

    await user.clear(field('Bio'));
    expect(screen.getByRole('region', { name: 'Bio preview' })).toHaveTextContent(
      'Preview will appear here...',
    );
    await user.click(screen.getByRole('button', { name: 'HIDE PREVIEW' }));
    expect(screen.queryByRole('region', { name: 'Bio preview' })).not.toBeInTheDocument();
  });

  describe('saving', () => {
    it('PUTs the three fields, is disabled while pending, toasts and refetches the member', async () => {
      const state = { user: neo() };
      const answer = deferred();
      const { calls } = server(state, (call) => {
        state.user = { ...state.user, ...(call.body as Partial<CurrentUser>) };
        return answer.promise;
      });
      const { user } = renderSettings();

      await user.clear(field('First name'));
      await user.type(field('First name'), 'Neo');
      await user.clear(field('Last name'));
      await user.type(field('Bio'), ' Whoa.');
      await user.click(saveButton());

      await waitFor(() => expect(saveButton()).toHaveTextContent('SAVING...'));
      expect(saveButton()).toBeDisabled();
      expect(field('First name')).toBeDisabled();
      expect(writes(calls)).toEqual([
        {
          method: 'PUT',
          url: '/api/user/profile',
          body: { firstName: 'Neo', lastName: '', bio: 'I know **kung fu**. Whoa.' },
        },
      ]);

      // The server trims and clears: the form shows what it saved.
      await act(async () => answer.resolve({ body: { ...state.user, lastName: null } }));
      await expectToast('Profile Updated', 'Your profile has been saved successfully');
      expect(saveButton()).toHaveTextContent('SAVE');
      expect(saveButton()).toBeEnabled();
      expect(field('First name')).toHaveValue('Neo');
      expect(field('Last name')).toHaveValue('');
      await waitFor(() => expect(reads(calls, API.currentUser)).toHaveLength(1));
    });

    it('sends whatever is typed: no client-side checks', async () => {
      const { calls } = server({ user: neo() }, () => ({ body: neo() }));
      const { user } = renderSettings(neo({ firstName: null, lastName: null, bio: null }));
      await user.type(field('First name'), '   ');
      await user.click(saveButton());
      await expectToast('Profile Updated');
      expect(writes(calls)[0]!.body).toEqual({ firstName: '   ', lastName: '', bio: '' });
    });

    it("toasts the server's refusal", async () => {
      server({ user: neo() }, () => ({
        status: 400,
        body: errorBody(400, 'First name must be at most 64 characters'),
      }));
      const { user } = renderSettings();
      await user.click(saveButton());
      await expectToast('Update Failed', 'First name must be at most 64 characters');
      expect(document.querySelector('.tp-toast')).toHaveClass('tp-toast--destructive');
      expect(saveButton()).toBeEnabled();
      expect(field('First name')).toHaveValue('Thomas');
    });

    it('says Failed to update profile when the server gives no message', async () => {
      server({ user: neo() }, () => ({ status: 500, body: '' }));
      const { user } = renderSettings();
      await user.click(saveButton());
      await expectToast('Update Failed', 'Failed to update profile');
    });

    it('sends the member to sign in again when the session is gone', async () => {
      server({ user: neo() }, () => ({ status: 401, body: errorBody(401, 'Unauthorized') }));
      const { user } = renderSettings();
      await user.click(saveButton());
      await expectLoginRedirect();
    });
  });

  describe('avatar upload', () => {
    /** POST objects/upload answers the form; PUT user/avatar answers the member with the avatar. */
    const uploadApi =
      (state: { user: CurrentUser }, overrides: Partial<Record<string, FetchAnswer>> = {}) =>
      (call: FetchCall): FetchAnswer => {
        const override = overrides[`${call.method} ${call.url}`];
        if (override) return override;
        if (call.url === API.objectsUpload) return { body: TICKET };
        if (call.url === API.userAvatar) {
          state.user = { ...state.user, avatarUrl: AVATAR_URL };
          return { body: state.user };
        }
        return { status: 404, body: 'not stubbed' };
      };

    it('shows the hint and takes one image', () => {
      renderSettings();
      expect(screen.getByText('Max 10MB, JPG/PNG/GIF')).toBeInTheDocument();
      expect(fileInput()).toHaveAttribute('accept', 'image/png,image/jpeg,image/gif,image/webp');
      expect(fileInput()).not.toHaveAttribute('multiple');
      expect(uploadButton()).toHaveTextContent('UPLOAD AVATAR');
      expect(screen.getByRole('img', { name: 'Thomas Anderson' })).toHaveTextContent('TA');
    });

    it('gets an address, PUTs the file to it with progress, claims the upload, toasts and refetches', async () => {
      const state = { user: neo() };
      const { calls, log } = server(state, uploadApi(state));
      const { user } = renderSettings();
      const file = sampleFile();

      await user.upload(fileInput(), file);
      await waitFor(() => expect(FakeXhr.sent).toHaveLength(1));
      const xhr = FakeXhr.sent[0]!;
      expect(xhr).toMatchObject({ method: 'PUT', url: UPLOAD_URL });
      expect(xhr.body).toBe(file);
      expect(uploadButton()).toHaveTextContent('UPLOADING...');
      expect(uploadButton()).toBeDisabled();
      const bar = screen.getByRole('progressbar', { name: 'Upload progress' });
      expect(bar).toHaveAttribute('aria-valuenow', '0');

      xhr.progress(40, 100);
      expect(bar).toHaveAttribute('aria-valuenow', '40');
      expect(screen.getByText('40%')).toBeInTheDocument();
      xhr.progress(100, 100);
      expect(bar).toHaveAttribute('aria-valuenow', '100');
      xhr.respond(200);

      await expectToast('Avatar Updated', 'Your avatar has been uploaded successfully');
      expect(log.slice(0, 3)).toEqual([
        `POST ${API.objectsUpload}`,
        `PUT ${UPLOAD_URL}`,
        `PUT ${API.userAvatar}`,
      ]);
      expect(writes(calls)).toEqual([
        { method: 'POST', url: API.objectsUpload, body: undefined },
        { method: 'PUT', url: API.userAvatar, body: { avatarURL: TICKET.objectURL } },
      ]);
      await waitFor(() => expect(reads(calls, API.currentUser)).toHaveLength(1));
      expect(screen.getByRole('img', { name: 'Thomas Anderson' })).toHaveAttribute('src', AVATAR_URL);
      expect(uploadButton()).toHaveTextContent('UPLOAD AVATAR');
      expect(screen.queryByRole('progressbar', { name: 'Upload progress' })).not.toBeInTheDocument();
    });

    it('refuses a file over 10,485,760 bytes without any request', async () => {
      const { calls } = server({ user: neo() });
      const { user } = renderSettings();
      await user.upload(fileInput(), sampleFile({ size: 10_485_761 }));
      await expectToast('Upload Failed', 'File is too large (max 10MB)');
      expect(calls).toHaveLength(0);
      expect(FakeXhr.sent).toHaveLength(0);
      expect(uploadButton()).toHaveTextContent('UPLOAD AVATAR');
    });

    it('refuses a file that is not an image without any request', async () => {
      const { calls } = server({ user: neo() });
      renderSettings();
      // A file picker's "all files" option gets past the accept list.
      fireEvent.change(fileInput(), {
        target: { files: [sampleFile({ name: 'notes.txt', type: 'text/plain' })] },
      });
      await expectToast('Upload Failed', 'Only PNG, JPEG, GIF or WebP images can be uploaded');
      expect(calls).toHaveLength(0);
      expect(FakeXhr.sent).toHaveLength(0);
    });

    it('refuses more than one file without any request', async () => {
      const { calls } = server({ user: neo() });
      renderSettings();
      fireEvent.change(fileInput(), { target: { files: [sampleFile(), sampleFile({ name: 'b.png' })] } });
      await expectToast('Upload Failed', 'Choose one image only');
      expect(calls).toHaveLength(0);
    });

    it("says 'Request has expired' when the form has expired (403), and sets no avatar", async () => {
      const state = { user: neo() };
      const { calls } = server(state, uploadApi(state));
      FakeXhr.onSend = (xhr) =>
        setTimeout(() => xhr.respond(403, { statusCode: 403, message: 'Request has expired' }));
      const { user } = renderSettings();
      await user.upload(fileInput(), sampleFile());
      await expectToast('Upload Failed', 'Request has expired');
      expect(FakeXhr.sent).toHaveLength(1);
      expect(writes(calls).map((call) => call.url)).toEqual([API.objectsUpload]);
      expect(uploadButton()).toBeEnabled();
    });

    it('tries a 503 again and then succeeds', async () => {
      const state = { user: neo() };
      const { log } = server(state, uploadApi(state));
      let tries = 0;
      const storage = (xhr: FakeXhr) =>
        setTimeout(() => (tries++ === 0 ? xhr.respond(503, 'Service Unavailable') : xhr.respond(200)));
      const logSend = FakeXhr.onSend!;
      FakeXhr.onSend = (xhr) => {
        logSend(xhr);
        storage(xhr);
      };
      const { user } = renderSettings();
      await user.upload(fileInput(), sampleFile());
      await expectToast('Avatar Updated', 'Your avatar has been uploaded successfully');
      expect(FakeXhr.sent).toHaveLength(2);
      expect(log.slice(0, 4)).toEqual([
        `POST ${API.objectsUpload}`,
        `PUT ${UPLOAD_URL}`,
        `PUT ${UPLOAD_URL}`,
        `PUT ${API.userAvatar}`,
      ]);
    });

    it("toasts the server's message when no upload address is given", async () => {
      const state = { user: neo() };
      server(
        state,
        uploadApi(state, {
          [`POST ${API.objectsUpload}`]: { status: 503, body: errorBody(503, 'Storage is offline') },
        }),
      );
      const { user } = renderSettings();
      await user.upload(fileInput(), sampleFile());
      await expectToast('Upload Failed', 'Storage is offline');
      expect(FakeXhr.sent).toHaveLength(0);
    });

    it('says Failed to update avatar when setting it fails without a message', async () => {
      const state = { user: neo() };
      server(state, uploadApi(state, { [`PUT ${API.userAvatar}`]: { status: 500, body: '' } }));
      FakeXhr.onSend = (xhr) => setTimeout(() => xhr.respond(200));
      const { user } = renderSettings();
      await user.upload(fileInput(), sampleFile());
      await expectToast('Upload Failed', 'Failed to update avatar');
      expect(screen.getByRole('img', { name: 'Thomas Anderson' })).not.toHaveAttribute('src');
    });

    it('sends the member to sign in again when the session is gone', async () => {
      server({ user: neo() }, () => ({ status: 401, body: errorBody(401, 'Unauthorized') }));
      const { user } = renderSettings();
      await user.upload(fileInput(), sampleFile());
      await expectLoginRedirect();
      expect(FakeXhr.sent).toHaveLength(0);
    });
  });
});

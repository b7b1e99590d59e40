import { type PasteDetail, VISIBILITY_TEXTS } from '@termpaste/contracts';
import { sampleCurrentUser } from '@termpaste/contracts/testing';
import { createQueryClient, preloadMarkdown } from '@termpaste/ui';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import { pasteQuery } from '../api/pastes';
import { PasteCard } from '../components/paste-card';
import {
  renderScreen,
  sampleCard,
  samplePaste,
  stubClipboard,
  stubFetch,
  type FetchAnswer,
} from '../testing';
import { NewPasteScreen } from './new-paste';
import { PasteScreen } from './paste';

const KEY = 'Ab3_-Ab3_-Ab3_-Ab3_-Ab';
const robots = () => document.head.querySelector('meta[name="robots"]');

function renderPaste(thread: PasteDetail, path = `/thread/${thread.id}`) {
  const client = createQueryClient();
  client.setQueryData(pasteQuery(String(thread.id)).queryKey, thread);
  stubFetch((call) => (call.url === '/api/auth/user' ? { body: sampleCurrentUser() } : { body: thread }));
  return renderScreen(<PasteScreen />, { path, route: '/thread/:id', client });
}

beforeAll(() => preloadMarkdown());

describe('visibility in the add-paste form', () => {
  it('offers public, unlisted and private, each with what it means, public chosen', () => {
    renderScreen(<NewPasteScreen />, { path: '/thread/new' });
    const group = screen.getByRole('group', { name: 'Visibility' });
    const radios = within(group).getAllByRole('radio');
    expect(radios).toHaveLength(3);
    expect(within(group).getByRole('radio', { name: /PUBLIC/ })).toBeChecked();
    expect(group).toHaveTextContent('listed on home, in search and on your profile');
    expect(group).toHaveTextContent('anyone with the link can read it; listed nowhere');
    expect(group).toHaveTextContent('only you can read it');
  });

  it('sends the choice, and opens the new paste by its key', async () => {
    let answer: (value: FetchAnswer) => void = () => undefined;
    const calls = stubFetch((call) =>
      call.method === 'POST'
        ? new Promise<FetchAnswer>((resolve) => (answer = resolve))
        : { body: sampleCurrentUser() },
    );
    const { user } = renderScreen(<NewPasteScreen />, { path: '/thread/new' });
    await user.type(screen.getByRole('textbox', { name: 'Title' }), 'secret notes');
    await user.type(screen.getByRole('textbox', { name: 'Content' }), 'mine');
    await user.click(screen.getByRole('radio', { name: /UNLISTED/ }));
    await user.click(screen.getByRole('button', { name: 'ADD PASTE' }));
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]).toEqual({
      method: 'POST',
      url: '/api/threads',
      body: { title: 'secret notes', content: 'mine', visibility: 'unlisted' },
    });
    await act(async () => answer({ status: 201, body: { id: KEY } }));
    expect(await screen.findByRole('status', { name: 'location' })).toHaveTextContent(`/thread/${KEY}`);
  });
});

describe('a keyed paste on its page', () => {
  afterEach(() => robots()?.remove());

  it('shows [UNLISTED], a COPY LINK of its key, and says noindex until the page is left', async () => {
    const paste = samplePaste({ id: KEY, visibility: 'unlisted' });
    const { user } = renderPaste(paste);
    const card = screen.getByRole('region', { name: 'PASTE' });
    expect(within(card).getByText('UNLISTED')).toHaveAttribute('title', VISIBILITY_TEXTS.unlisted);
    const writeText = stubClipboard(jest.fn(() => Promise.resolve()));
    await user.click(within(card).getByRole('button', { name: 'Copy the link' }));
    expect(writeText).toHaveBeenCalledWith(`${window.location.origin}/thread/${KEY}`);
    expect(robots()).toHaveAttribute('content', 'noindex');
    cleanup();
    expect(robots()).toBeNull();
  });

  it('shows [PRIVATE] on a private one', () => {
    renderPaste(samplePaste({ id: KEY, visibility: 'private' }));
    expect(within(screen.getByRole('region', { name: 'PASTE' })).getByText('PRIVATE')).toBeInTheDocument();
  });

  it('a public paste has no badge, no COPY LINK and no noindex', () => {
    renderPaste(samplePaste());
    expect(screen.queryByText('UNLISTED')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Copy the link' })).not.toBeInTheDocument();
    expect(robots()).toBeNull();
  });

  it('a route that names no paste (neither a number nor a key) is not found', () => {
    stubFetch(() => ({ body: sampleCurrentUser() }));
    renderScreen(<PasteScreen />, { path: '/thread/not-a-key', route: '/thread/:id' });
    expect(screen.getByText(/not found/i)).toBeInTheDocument();
  });
});

describe('a card of a keyed paste', () => {
  it('links by its key and wears its badge', () => {
    renderScreen(<PasteCard thread={sampleCard({ id: KEY, title: 'my notes', visibility: 'private' })} />, {
      path: '/user/3',
    });
    expect(screen.getByRole('link', { name: 'my notes' })).toHaveAttribute('href', `/thread/${KEY}`);
    expect(screen.getByText('PRIVATE')).toBeInTheDocument();
  });
});

describe('visibility in the edit form', () => {
  const trinity = sampleCurrentUser({ id: 3, username: 'trinity' });
  const admin = sampleCurrentUser({ id: 1, username: 'root', isAdmin: true });

  function renderEdit(viewer: typeof trinity) {
    const thread = samplePaste();
    const client = createQueryClient();
    client.setQueryData(pasteQuery('5').queryKey, thread);
    const calls = stubFetch((call) => {
      if (call.url === '/api/auth/user') return { body: viewer };
      if (call.method === 'PATCH') {
        return {
          body: {
            id: KEY,
            visibility: 'private',
            expiresAt: null,
            burnAfterReading: false,
            tags: [],
            title: thread.title,
            content: thread.content,
            language: null,
            editedAt: null,
            revisions: 1,
            secretVersions: [],
          },
        };
      }
      if (call.url === '/api/threads/5') return { body: thread };
      return { body: { ...thread, id: KEY, visibility: 'private' } };
    });
    const rendered = renderScreen(<PasteScreen />, {
      path: '/thread/5',
      route: '/thread/:id',
      client,
      user: viewer,
    });
    return { ...rendered, calls };
  }

  it('lets the author make the paste private, sending that alone, and moves to its new link', async () => {
    const { user, calls } = renderEdit(trinity);
    await user.click(
      within(screen.getByRole('region', { name: 'PASTE' })).getByRole('button', { name: 'EDIT' }),
    );
    const form = screen.getByRole('form', { name: 'Edit paste' });
    expect(within(form).getByRole('radio', { name: /PUBLIC/ })).toBeChecked();
    await user.click(within(form).getByRole('radio', { name: /PRIVATE/ }));
    await user.click(within(form).getByRole('button', { name: 'SAVE' }));
    await waitFor(() =>
      expect(calls.filter((call) => call.method === 'PATCH')).toEqual([
        { method: 'PATCH', url: '/api/threads/5', body: { visibility: 'private' } },
      ]),
    );
    // Now at its key: the page of the private paste (read at /api/threads/{key}).
    expect(await screen.findByText('PRIVATE')).toBeInTheDocument();
    expect(calls.some((call) => call.url === `/api/threads/${KEY}`)).toBe(true);
  });

  it("offers no visibility choice to an admin editing another member's paste", async () => {
    const { user } = renderEdit(admin);
    await user.click(
      within(screen.getByRole('region', { name: 'PASTE' })).getByRole('button', { name: 'EDIT' }),
    );
    const form = screen.getByRole('form', { name: 'Edit paste' });
    expect(within(form).queryByRole('group', { name: 'Visibility' })).not.toBeInTheDocument();
  });
});

import { API, type BookmarksPage, type PasteWatchState, WATCHING_TEXTS } from '@termpaste/contracts';
import { screen, waitFor } from '@testing-library/react';
import { BookmarksScreen } from '../screens/bookmarks';
import {
  expectToast,
  minutesAgo,
  renderScreen,
  sampleAuthor,
  samplePaste,
  stubApi,
  writes,
} from '../testing';
import { FollowButton, PasteWatchBar, WatchTagButton } from './watch-controls';

const paste = samplePaste({ id: 42, title: 'A paste' });
const state = (overrides: Partial<PasteWatchState> = {}): PasteWatchState => ({
  watching: false,
  pasteBookmark: false,
  replyBookmarks: [],
  ...overrides,
});

describe('watching controls', () => {
  it('WATCH on a paste: PUT, then UNWATCH', async () => {
    let watching = false;
    const calls = stubApi(
      (url) => (url === API.threadWatch(42) ? state({ watching }) : undefined),
      () => {
        watching = true;
        return { status: 204, body: '' };
      },
    );
    const { user } = renderScreen(<PasteWatchBar thread={paste} />);
    await user.click(await screen.findByRole('button', { name: WATCHING_TEXTS.watch }));
    await expectToast(WATCHING_TEXTS.watchingToast);
    expect(writes(calls).map((c) => `${c.method} ${c.url}`)).toEqual([`PUT ${API.threadWatch(42)}`]);
    expect(await screen.findByRole('button', { name: WATCHING_TEXTS.unwatch })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
  });

  it('shows nothing to a visitor, and reads nothing', async () => {
    const calls = stubApi(() => undefined);
    renderScreen(<PasteWatchBar thread={paste} />, { user: null });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.queryByRole('button')).toBeNull();
    expect(calls.filter((c) => c.url.includes('/watch'))).toEqual([]);
  });

  it('bookmarks a paste with a note, and removes it', async () => {
    let saved: string | null | false = false;
    const calls = stubApi(
      (url) => (url === API.threadWatch(42) ? state({ pasteBookmark: saved }) : undefined),
      (call) => {
        saved = call.method === 'PUT' ? (call.body as { note: string }).note : false;
        return { status: 204, body: '' };
      },
    );
    const { user } = renderScreen(<PasteWatchBar thread={paste} />);
    await user.click(await screen.findByRole('button', { name: `${WATCHING_TEXTS.bookmark} paste A paste` }));
    await user.type(await screen.findByLabelText(WATCHING_TEXTS.noteLabel), 'read later');
    await user.click(screen.getByRole('button', { name: WATCHING_TEXTS.saveNote }));
    await expectToast(WATCHING_TEXTS.bookmarkedToast);
    const bookmarked = await screen.findByRole('button', {
      name: `${WATCHING_TEXTS.bookmarked}: paste A paste`,
    });
    await user.click(bookmarked);
    expect(await screen.findByLabelText(WATCHING_TEXTS.noteLabel)).toHaveValue('read later');
    await user.click(screen.getByRole('button', { name: WATCHING_TEXTS.removeBookmark }));
    await expectToast(WATCHING_TEXTS.unbookmarkedToast);
    expect(writes(calls)).toEqual([
      { method: 'PUT', url: API.bookmark('paste', 42), body: { note: 'read later' } },
      { method: 'DELETE', url: API.bookmark('paste', 42), body: undefined },
    ]);
  });

  it('FOLLOW on a profile, never on one’s own', async () => {
    const calls = stubApi(
      (url) => (url === API.userFollow(3) ? { following: false } : undefined),
      () => ({ status: 204, body: '' }),
    );
    const { user } = renderScreen(<FollowButton member={{ id: 3, username: 'trinity' }} />);
    await user.click(await screen.findByRole('button', { name: WATCHING_TEXTS.follow }));
    await expectToast(WATCHING_TEXTS.followingToast('trinity'));
    expect(writes(calls).map((c) => `${c.method} ${c.url}`)).toEqual([`PUT ${API.userFollow(3)}`]);
  });

  it('WATCH TAG on a tag page', async () => {
    const calls = stubApi(
      (url) => (url === API.tagWatch('rust') ? { watching: true } : undefined),
      () => ({ status: 204, body: '' }),
    );
    const { user } = renderScreen(<WatchTagButton name="rust" />);
    await user.click(await screen.findByRole('button', { name: WATCHING_TEXTS.unwatchTag }));
    await expectToast(WATCHING_TEXTS.tagUnwatchedToast('rust'));
    await waitFor(() =>
      expect(writes(calls).map((c) => `${c.method} ${c.url}`)).toEqual([`DELETE ${API.tagWatch('rust')}`]),
    );
  });
});

describe('/bookmarks', () => {
  const page: BookmarksPage = {
    nextCursor: null,
    bookmarks: [
      {
        id: 2,
        kind: 'reply',
        target: 9,
        note: null,
        createdAt: minutesAgo(1),
        paste: {
          ref: 42,
          title: 'A paste',
          language: null,
          author: sampleAuthor(),
          createdAt: minutesAgo(60),
        },
        reply: { id: 9, excerpt: 'A wise reply', author: sampleAuthor(), createdAt: minutesAgo(30) },
      },
      {
        id: 1,
        kind: 'paste',
        target: 42,
        note: 'read later',
        createdAt: minutesAgo(2),
        paste: {
          ref: 42,
          title: 'A paste',
          language: null,
          author: sampleAuthor(),
          createdAt: minutesAgo(60),
        },
        reply: null,
      },
    ],
  };

  it('lists the bookmarks newest first, with the reply’s excerpt and the note', async () => {
    stubApi((url) => (url === API.bookmarks ? page : undefined));
    renderScreen(<BookmarksScreen />, { path: '/bookmarks' });
    expect(await screen.findByRole('link', { name: WATCHING_TEXTS.replyIn('A paste') })).toHaveAttribute(
      'href',
      '/thread/42#reply-9',
    );
    expect(screen.getByText('A wise reply')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'A paste' })).toHaveAttribute('href', '/thread/42');
    expect(screen.getByText('› read later')).toBeInTheDocument();
    expect(screen.getAllByRole('listitem').map((item) => item.getAttribute('aria-label'))).toEqual([
      'reply in A paste',
      'A paste',
    ]);
  });

  it('says when there are none', async () => {
    stubApi((url) => (url === API.bookmarks ? { bookmarks: [], nextCursor: null } : undefined));
    renderScreen(<BookmarksScreen />, { path: '/bookmarks' });
    expect(await screen.findByText(WATCHING_TEXTS.noBookmarks)).toBeInTheDocument();
  });
});

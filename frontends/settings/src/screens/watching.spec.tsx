import { API, WATCHING_TEXTS, type WatchingList } from '@termpaste/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { expectToast, minutesAgo, reads, renderScreen, sampleAuthor, stubApi, writes } from '../testing';
import { WatchingScreen } from './watching';

const trinity = sampleAuthor();
const list = (overrides: Partial<WatchingList> = {}): WatchingList => ({
  autoWatch: true,
  pastes: [
    {
      ref: 12,
      title: 'Watched paste',
      language: 'python',
      author: trinity,
      createdAt: minutesAgo(30),
      watchedAt: minutesAgo(5),
    },
  ],
  members: [{ member: trinity, followedAt: minutesAgo(8) }],
  tags: [{ name: 'rust', pasteCount: 3, watchedAt: minutesAgo(9) }],
  ...overrides,
});

describe('/settings/watching', () => {
  it('lists the watched pastes, followed members and watched tags, each with its undo', async () => {
    stubApi((url) => (url === API.userWatching ? list() : undefined));
    renderScreen(<WatchingScreen />, { path: '/settings/watching' });
    const pastes = await screen.findByRole('list', { name: WATCHING_TEXTS.pastesTitle });
    expect(within(pastes).getByRole('link', { name: 'Watched paste' })).toHaveAttribute('href', '/thread/12');
    expect(
      within(pastes).getByRole('button', { name: `${WATCHING_TEXTS.unwatch} Watched paste` }),
    ).toBeVisible();
    const members = screen.getByRole('list', { name: WATCHING_TEXTS.membersTitle });
    expect(within(members).getByRole('button', { name: `${WATCHING_TEXTS.unfollow} trinity` })).toBeVisible();
    const tags = screen.getByRole('list', { name: WATCHING_TEXTS.tagsTitle });
    expect(within(tags).getByRole('link', { name: '#rust' })).toHaveAttribute('href', '/tag/rust');
    expect(screen.getByRole('checkbox', { name: WATCHING_TEXTS.autoWatch })).toBeChecked();
  });

  it('says when a list is empty', async () => {
    stubApi((url) => (url === API.userWatching ? list({ pastes: [], members: [], tags: [] }) : undefined));
    renderScreen(<WatchingScreen />, { path: '/settings/watching' });
    expect(await screen.findByText(WATCHING_TEXTS.noPastes)).toBeInTheDocument();
    expect(screen.getByText(WATCHING_TEXTS.noMembers)).toBeInTheDocument();
    expect(screen.getByText(WATCHING_TEXTS.noTags)).toBeInTheDocument();
  });

  it('UNFOLLOW and UNWATCH call DELETE, toast, and read the list again', async () => {
    const calls = stubApi(
      (url) => (url === API.userWatching ? list() : undefined),
      () => ({ status: 204, body: '' }),
    );
    const { user } = renderScreen(<WatchingScreen />, { path: '/settings/watching' });
    await user.click(await screen.findByRole('button', { name: `${WATCHING_TEXTS.unfollow} trinity` }));
    await expectToast(WATCHING_TEXTS.unfollowedToast('trinity'));
    await user.click(screen.getByRole('button', { name: `${WATCHING_TEXTS.unwatch} rust` }));
    await expectToast(WATCHING_TEXTS.tagUnwatchedToast('rust'));
    await user.click(screen.getByRole('button', { name: `${WATCHING_TEXTS.unwatch} Watched paste` }));
    await expectToast(WATCHING_TEXTS.unwatchedToast);
    expect(writes(calls).map((call) => `${call.method} ${call.url}`)).toEqual([
      `DELETE ${API.userFollow(trinity.id)}`,
      `DELETE ${API.tagWatch('rust')}`,
      `DELETE ${API.threadWatch(12)}`,
    ]);
    await waitFor(() => expect(reads(calls, API.userWatching).length).toBeGreaterThanOrEqual(2));
  });

  it('turns watching what the member posts off', async () => {
    const calls = stubApi(
      (url) => (url === API.userWatching ? list() : undefined),
      () => ({ body: { autoWatch: false } }),
    );
    const { user } = renderScreen(<WatchingScreen />, { path: '/settings/watching' });
    await user.click(await screen.findByRole('checkbox', { name: WATCHING_TEXTS.autoWatch }));
    await waitFor(() =>
      expect(writes(calls)).toEqual([{ method: 'PUT', url: API.userWatching, body: { autoWatch: false } }]),
    );
  });
});

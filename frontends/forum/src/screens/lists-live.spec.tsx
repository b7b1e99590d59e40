import type { RecentPastesPage, PasteCard } from '@termpaste/contracts';
import { createQueryClient } from '@termpaste/ui';
import { screen, waitFor, within } from '@testing-library/react';
import { featuredPastesQuery, recentPastesQuery } from '../api/pastes';
import { connectedSocket, installFakeWebSocket, renderScreen, sampleCard, stubFetch, urls } from '../testing';
import { HardestScreen } from './hardest';
import { HomeScreen } from './home';

installFakeWebSocket();

const card = (id: number, overrides: Partial<PasteCard> = {}) =>
  sampleCard({ id, title: `paste ${id}`, ...overrides });

const row = (table: string, title: string) =>
  within(screen.getByRole('table', { name: table }))
    .getByRole('link', { name: title })
    .closest('tr')!;
const cells = (element: HTMLElement) =>
  within(element)
    .getAllByRole('cell')
    .map((cell) => cell.textContent);

async function renderHome(server: { page: RecentPastesPage }) {
  const client = createQueryClient();
  client.setQueryData(recentPastesQuery.queryKey, { pages: [server.page], pageParams: [null] });
  const calls = stubFetch((call) =>
    call.url === '/api/threads/recent' ? { body: server.page } : { status: 404, body: 'not stubbed' },
  );
  const rendered = renderScreen(<HomeScreen />, { client });
  const socket = await connectedSocket();
  return { ...rendered, calls, socket };
}

describe('home, live', () => {
  it('watches the lists and its cards; counts new pastes above the table without moving it; SHOW shows them', async () => {
    const server = {
      page: {
        pinned: [card(9, { isPinned: true })],
        threads: [card(2), card(1)],
        nextCursor: null,
        total: 3,
      },
    };
    const { socket, calls, user } = await renderHome(server);
    expect(socket.url).toBe('ws://localhost/ws/chat?scope=public');
    await waitFor(() =>
      expect(JSON.parse(socket.sent.at(-1)!)).toEqual({
        type: 'watch',
        thread: null,
        cards: [9, 2, 1],
        lists: true,
      }),
    );
    const before = urls(calls).length;

    socket.serverSend({ type: 'paste_added', threadId: 3 });
    expect(await screen.findByText(/1 new paste/)).toBeInTheDocument();
    socket.serverSend({ type: 'paste_added', threadId: 4 });
    socket.serverSend({ type: 'paste_added', threadId: 4 });
    await screen.findByText(/2 new pastes/);
    // Nothing moved: the table is as it was, and nothing was read.
    expect(within(screen.getByRole('table', { name: 'Recent pastes' })).getAllByRole('row')).toHaveLength(3);
    expect(urls(calls)).toHaveLength(before);

    // A paste deleted before it was shown is news no more.
    socket.serverSend({ type: 'paste_deleted', threadId: 4 });
    await screen.findByText(/1 new paste/);

    server.page = { ...server.page, threads: [card(3), card(2), card(1)], total: 4 };
    await user.click(screen.getByRole('button', { name: 'SHOW' }));
    await waitFor(() => expect(row('Recent pastes', 'paste 3')).toBeInTheDocument());
    expect(screen.queryByText(/new paste/)).not.toBeInTheDocument();
    expect(screen.getByText('Showing 4 of 4 total pastes')).toBeInTheDocument();
  });

  it('reads the list again while it lacks what SHOW announced (a cache in front had an older one)', async () => {
    const server = { page: { pinned: [], threads: [card(1)], nextCursor: null, total: 1 } };
    const { socket, calls, user } = await renderHome(server);
    await waitFor(() => expect(JSON.parse(socket.sent.at(-1)!)).toMatchObject({ type: 'watch' }));
    socket.serverSend({ type: 'paste_added', threadId: 2 });
    await screen.findByText(/1 new paste/);
    const before = urls(calls).length;
    await user.click(screen.getByRole('button', { name: 'SHOW' }));
    // The first read lacks it; the one a moment later has it, and that is the last.
    await waitFor(() => expect(urls(calls)).toHaveLength(before + 1));
    server.page = { ...server.page, threads: [card(2), card(1)], total: 2 };
    await waitFor(() => expect(row('Recent pastes', 'paste 2')).toBeInTheDocument(), { timeout: 3000 });
    expect(urls(calls)).toHaveLength(before + 2);
  });

  it('does not count a paste heard of while SHOW reads the list, once the list shows it', async () => {
    let release = () => {};
    const page = (threads: PasteCard[]): RecentPastesPage => ({
      pinned: [],
      threads,
      nextCursor: null,
      total: threads.length,
    });
    const client = createQueryClient();
    client.setQueryData(recentPastesQuery.queryKey, { pages: [page([card(1)])], pageParams: [null] });
    stubFetch(async (call) => {
      if (call.url !== '/api/threads/recent') return { status: 404, body: 'not stubbed' };
      // The read SHOW starts waits until paste 3 has been heard of.
      await new Promise<void>((resolve) => (release = resolve));
      return { body: page([card(3), card(2), card(1)]) };
    });
    const { user } = renderScreen(<HomeScreen />, { client });
    const socket = await connectedSocket();
    socket.serverSend({ type: 'paste_added', threadId: 2 });
    await screen.findByText(/1 new paste/);
    await user.click(screen.getByRole('button', { name: 'SHOW' }));
    socket.serverSend({ type: 'paste_added', threadId: 3 });
    await screen.findByText(/1 new paste/);
    release();
    await waitFor(() => expect(row('Recent pastes', 'paste 3')).toBeInTheDocument());
    expect(screen.queryByText(/new paste/)).not.toBeInTheDocument();
  });

  it("moves a card's counts, flags and title in place", async () => {
    const { socket } = await renderHome({
      page: { pinned: [], threads: [card(2, { replyCount: 2 }), card(1)], nextCursor: null, total: 2 },
    });
    socket.serverSend({
      type: 'reply_added',
      threadId: 2,
      replyId: 50,
      parentId: null,
      authorId: 3,
      replyCount: 3,
    });
    socket.serverSend({
      type: 'paste_flags',
      threadId: 2,
      isPinned: false,
      isLocked: true,
      isFeatured: false,
    });
    socket.serverSend({
      type: 'paste_edited',
      threadId: 1,
      title: 'paste one, renamed',
      editedAt: '2026-01-01T00:00:00Z',
    });
    await waitFor(() => expect(cells(row('Recent pastes', 'paste 2'))[1]).toBe('3'));
    expect(within(row('Recent pastes', 'paste 2')).getByLabelText('Locked')).toBeInTheDocument();
    expect(row('Recent pastes', 'paste one, renamed')).toBeInTheDocument();
    expect(screen.queryByText(/new paste/)).not.toBeInTheDocument();
  });
});

describe('/hardest, live', () => {
  it('counts pastes featured since it loaded; SHOW reads the list again', async () => {
    const server = { featured: [card(7, { isFeatured: true })] };
    const client = createQueryClient();
    client.setQueryData(featuredPastesQuery.queryKey, server.featured);
    stubFetch((call) =>
      call.url === '/api/threads/featured' ? { body: server.featured } : { status: 404, body: 'not stubbed' },
    );
    const { user } = renderScreen(<HardestScreen />, { client, path: '/hardest' });
    const socket = await connectedSocket();
    await waitFor(() =>
      expect(JSON.parse(socket.sent.at(-1)!)).toEqual({
        type: 'watch',
        thread: null,
        cards: [7],
        lists: true,
      }),
    );
    socket.serverSend({
      type: 'paste_flags',
      threadId: 8,
      isPinned: false,
      isLocked: false,
      isFeatured: true,
    });
    // Pinning a paste, or featuring one already listed, is no news here.
    socket.serverSend({
      type: 'paste_flags',
      threadId: 9,
      isPinned: true,
      isLocked: false,
      isFeatured: false,
    });
    socket.serverSend({
      type: 'paste_flags',
      threadId: 7,
      isPinned: true,
      isLocked: false,
      isFeatured: true,
    });
    expect(await screen.findByText(/1 new paste/)).toBeInTheDocument();
    server.featured = [card(8, { isFeatured: true }), card(7, { isFeatured: true })];
    await user.click(screen.getByRole('button', { name: 'SHOW' }));
    await waitFor(() => expect(row('Featured pastes', 'paste 8')).toBeInTheDocument());
    expect(screen.getByText('2 featured')).toBeInTheDocument();
    expect(screen.queryByText(/new paste/)).not.toBeInTheDocument();
  });
});

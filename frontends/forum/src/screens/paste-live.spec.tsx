import type { PasteDetail } from '@termpaste/contracts';
import { sampleCurrentUser } from '@termpaste/contracts/testing';
import { createQueryClient, preloadMarkdown } from '@termpaste/ui';
import { act, screen, waitFor, within } from '@testing-library/react';
import { pasteQuery } from '../api/pastes';
import {
  connectedSocket,
  installFakeWebSocket,
  renderScreen,
  sampleAuthor,
  sampleReply,
  samplePaste,
  stubFetch,
  urls,
  type FakeWebSocket,
  type FetchCall,
} from '../testing';
import { PasteScreen } from './paste';

installFakeWebSocket();

const member = sampleCurrentUser();
const morpheus = sampleAuthor({ id: 8, username: 'morpheus' });

/** The paste page, its socket open, with a server whose paste the test changes (`state.thread`). */
async function renderLivePaste(thread: PasteDetail = samplePaste()) {
  const state = { thread };
  const calls = stubFetch((call) => {
    if (call.method === 'GET' && call.url.startsWith(`/api/threads/${state.thread.id}`)) {
      return { body: state.thread };
    }
    return { status: 404, body: 'not stubbed' };
  });
  const client = createQueryClient();
  client.setQueryData(pasteQuery(String(thread.id)).queryKey, thread);
  const rendered = renderScreen(<PasteScreen />, {
    path: `/thread/${thread.id}`,
    route: '/thread/:id',
    client,
  });
  const socket = await connectedSocket();
  return { ...rendered, state, calls, socket };
}

const replyItems = () =>
  within(screen.getByRole('region', { name: /^\d+ REPL(Y|IES)$/ })).getAllByRole('listitem');
/** The live reads (the page's own first read, on mount, counts a view as any visit does). */
const refreshes = (calls: FetchCall[]) => urls(calls).filter((url) => url.endsWith('?refresh=true'));
const names = () => replyItems().map((item) => item.getAttribute('aria-label'));

/** A new reply from morpheus under reply 11: the server has it, and tells the page. */
function replyArrives(
  live: { state: { thread: PasteDetail }; socket: FakeWebSocket },
  { id = 15, authorId = morpheus.id }: { id?: number; authorId?: number } = {},
) {
  const reply = sampleReply({
    id,
    parentId: 11,
    author: sampleAuthor({ id: authorId, username: 'morpheus' }),
  });
  live.state.thread = {
    ...live.state.thread,
    replyCount: live.state.thread.replyCount + 1,
    replies: [...live.state.thread.replies, reply],
  };
  live.socket.serverSend({
    type: 'reply_added',
    threadId: live.state.thread.id,
    replyId: id,
    parentId: 11,
    authorId,
    replyCount: live.state.thread.replyCount,
  });
}

let scrolled: Element[] = [];

beforeAll(() => preloadMarkdown());

beforeEach(() => {
  scrolled = [];
  Element.prototype.scrollIntoView = function (this: Element) {
    scrolled.push(this);
  };
});

afterEach(() => {
  jest.restoreAllMocks();
});

describe('a paste page, live', () => {
  it("watches its paste on the tab's socket, a visitor's or a member's alike", async () => {
    const { socket } = await renderLivePaste();
    expect(socket.url).toBe('ws://localhost/ws/chat?scope=public');
    expect(socket.sent.map((frame) => JSON.parse(frame) as unknown)).toEqual([
      { type: 'watch', thread: 5, cards: [], lists: false },
    ]);
  });

  it('puts an arriving reply in its place in the tree, keeping the draft and its reply target; no view counted', async () => {
    const live = await renderLivePaste();
    const { user, calls } = live;
    await user.click(
      within(screen.getByRole('listitem', { name: 'Reply by tank' })).getByRole('button', { name: 'REPLY' }),
    );
    const box = screen.getByRole('textbox', { name: 'Your reply' });
    await user.type(box, 'half-written thoughts');

    replyArrives(live);
    await waitFor(() => expect(replyItems()).toHaveLength(5));
    expect(names()).toEqual([
      'Reply by morpheus',
      'Reply by trinity',
      'Reply by tank',
      'Reply by morpheus',
      'Reply by Anonymous',
    ]);
    expect(replyItems()[3]!.dataset.depth).toBe('1');
    expect(screen.getByRole('region', { name: '5 REPLIES' })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Your reply' })).toHaveValue('half-written thoughts');
    expect(screen.getByRole('form', { name: 'Reply' })).toHaveTextContent('Replying to tank');
    expect(refreshes(calls)).toEqual(['/api/threads/5?refresh=true']);
  });

  it('shows "1 new reply" for a reply that arrived out of view, "2 new replies" for two, and scrolls to the first', async () => {
    const live = await renderLivePaste();
    // jsdom lays nothing out: every box is at 0,0 with no height, so above the window, out of view.
    replyArrives(live, { id: 15 });
    const pill = await screen.findByRole('button', { name: /1 new reply$/ });
    expect(pill).toHaveTextContent('↓ 1 new reply');
    replyArrives(live, { id: 16 });
    await screen.findByRole('button', { name: /2 new replies$/ });
    await live.user.click(screen.getByRole('button', { name: /2 new replies$/ }));
    expect(scrolled).toEqual([document.getElementById('reply-15')]);
    expect(screen.queryByRole('button', { name: /new repl/ })).not.toBeInTheDocument();
  });

  it('shows no pill for a reply in view, nor for the reader’s own from another tab', async () => {
    const live = await renderLivePaste();
    jest
      .spyOn(Element.prototype, 'getBoundingClientRect')
      .mockReturnValue({ top: 100, bottom: 200, left: 0, right: 0, width: 0, height: 100 } as DOMRect);
    replyArrives(live, { id: 15 });
    await waitFor(() => expect(replyItems()).toHaveLength(5));
    jest.restoreAllMocks();
    replyArrives(live, { id: 16, authorId: member.id });
    await waitFor(() => expect(replyItems()).toHaveLength(6));
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(screen.queryByRole('button', { name: /new repl/ })).not.toBeInTheDocument();
  });

  it('drops a pending arrival from the pill once it is scrolled into view', async () => {
    const live = await renderLivePaste();
    replyArrives(live, { id: 15 });
    await screen.findByRole('button', { name: /1 new reply$/ });
    jest
      .spyOn(Element.prototype, 'getBoundingClientRect')
      .mockReturnValue({ top: 100, bottom: 200, left: 0, right: 0, width: 0, height: 100 } as DOMRect);
    act(() => {
      document.dispatchEvent(new Event('scroll'));
    });
    await waitFor(() => expect(screen.queryByRole('button', { name: /new repl/ })).not.toBeInTheDocument());
  });

  it('writes scores, flags, deletions and the readers count in place, without reading the paste again', async () => {
    const { socket, calls } = await renderLivePaste();
    socket.serverSend({ type: 'thread_readers', threadId: 5, count: 2 });
    expect(await screen.findByText(/2 reading/)).toBeInTheDocument();
    socket.serverSend({ type: 'vote_score', threadId: 5, replyId: null, voteScore: 9 });
    socket.serverSend({ type: 'vote_score', threadId: 5, replyId: 14, voteScore: 4 });
    socket.serverSend({
      type: 'paste_flags',
      threadId: 5,
      isPinned: true,
      isLocked: true,
      isFeatured: false,
    });
    // Another paste's event changes nothing here.
    socket.serverSend({ type: 'vote_score', threadId: 6, replyId: null, voteScore: 100 });
    const paste = screen.getByRole('region', { name: 'PASTE' });
    await waitFor(() =>
      expect(
        within(within(paste).getByRole('group', { name: 'Vote on this paste' })).getByTestId('score'),
      ).toHaveTextContent('+9'),
    );
    expect(
      within(screen.getByRole('listitem', { name: 'Reply by Anonymous' })).getByTestId('score'),
    ).toHaveTextContent('+4');
    expect(within(paste).getByLabelText('Pinned')).toBeInTheDocument();
    expect(within(paste).getByLabelText('Locked')).toBeInTheDocument();
    // Locked: a member may no longer reply.
    expect(screen.getByText('This paste is locked: new replies are closed.')).toBeInTheDocument();

    // Its author's delete takes reply 12 alone: a placeholder over tank's.
    socket.serverSend({ type: 'reply_deleted', threadId: 5, replyId: 12, replyCount: 3, alone: true });
    await waitFor(() =>
      expect(names()).toEqual(['Reply by morpheus', 'Deleted reply', 'Reply by tank', 'Reply by Anonymous']),
    );
    socket.serverSend({ type: 'reply_deleted', threadId: 5, replyId: 11, replyCount: 1 });
    await waitFor(() => expect(names()).toEqual(['Reply by Anonymous']));
    expect(screen.getByRole('region', { name: '1 REPLY' })).toBeInTheDocument();

    socket.serverSend({ type: 'paste_deleted', threadId: 5 });
    expect(await screen.findByRole('alert')).toHaveTextContent('This paste was deleted.');
    expect(refreshes(calls)).toEqual([]);
  });

  it('says so when a paste gone from under the reader was hidden pending review', async () => {
    const hidden = { value: false };
    stubFetch((call) =>
      hidden.value && call.url === '/api/threads/5'
        ? { status: 404, body: { statusCode: 404, message: 'This paste is hidden pending review' } }
        : { body: samplePaste() },
    );
    const client = createQueryClient();
    client.setQueryData(pasteQuery('5').queryKey, samplePaste());
    renderScreen(<PasteScreen />, { path: '/thread/5', route: '/thread/:id', client });
    const socket = await connectedSocket();
    hidden.value = true;
    socket.serverSend({ type: 'paste_deleted', threadId: 5 });
    await waitFor(() =>
      expect(screen.getByRole('alert')).toHaveTextContent(
        'This paste is hidden pending review now. What you are writing stays here until you leave the page.',
      ),
    );
  });

  it('reads the paste again for an edit, and after a reconnection', async () => {
    const live = await renderLivePaste();
    live.state.thread = {
      ...live.state.thread,
      title: 'nmap cheatsheet v2',
      editedAt: '2026-01-01T00:00:00.000Z',
    };
    live.socket.serverSend({
      type: 'paste_edited',
      threadId: 5,
      title: 'nmap cheatsheet v2',
      editedAt: '2026-01-01T00:00:00.000Z',
    });
    expect(await screen.findByRole('heading', { level: 1, name: /nmap cheatsheet v2/ })).toBeInTheDocument();
    expect(refreshes(live.calls)).toEqual(['/api/threads/5?refresh=true']);

    // The socket drops and comes back: what it missed is read again.
    live.state.thread = { ...live.state.thread, voteScore: 42 };
    live.socket.serverClose();
    const again = await connectedSocket(1);
    expect(JSON.parse(again.sent[0]!)).toEqual({ type: 'watch', thread: 5, cards: [], lists: false });
    const paste = screen.getByRole('region', { name: 'PASTE' });
    await waitFor(() => expect(within(paste).getAllByTestId('score')[0]).toHaveTextContent('+42'));
    expect(refreshes(live.calls)).toHaveLength(2);
  });
});

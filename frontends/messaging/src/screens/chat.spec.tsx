import { sampleCurrentUser } from '@termpaste/contracts/testing';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { chatClock } from '../lib/time';
import {
  FakeWebSocket,
  chatApi,
  connectedSocket,
  deferred,
  errorBody,
  expectLoginRedirect,
  expectToast,
  neo,
  reads,
  renderScreen,
  sampleAuthor,
  sampleChat,
  stubFetch,
  writes,
} from '../testing';
import { ChatScreen } from './chat';

/** The newest first, as the API sends it. */
const history = () => [
  sampleChat({ id: 43, content: 'third', author: sampleAuthor({ activePremiumRank: 'Elite Hacker' }) }),
  sampleChat({ id: 42, content: 'second **not bold**\nand a second line', author: null }),
  sampleChat({ id: 41, content: 'first', author: neo() }),
];

const server = chatApi('/api/chat/messages');

function renderChat(options: Parameters<typeof renderScreen>[1] = {}) {
  const rendered = renderScreen(<ChatScreen />, { path: '/chat', ...options });
  return {
    ...rendered,
    box: () => screen.getByRole('textbox', { name: 'Message' }),
    send: () => screen.getByRole('button', { name: /^(SEND|SENDING\.\.\.)$/ }),
    lines: () => screen.queryAllByTestId('chat-line'),
  };
}

/** Each line's text, without its FLAG button. */
const lineTexts = () =>
  screen.queryAllByTestId('chat-line').map((line) =>
    [...line.childNodes]
      .filter((node) => !(node instanceof HTMLButtonElement))
      .map((node) => node.textContent)
      .join(''),
  );

beforeEach(() => {
  // No jitter in the reconnect backoff: the first retry comes after exactly one second.
  jest.spyOn(Math, 'random').mockReturnValue(0);
});
afterEach(() => jest.restoreAllMocks());

describe('global chat page (/chat)', () => {
  it('says only that signing in is needed when signed out, with no call and no socket', async () => {
    const calls = server({ history: history() });
    renderChat({ user: null });
    expect(screen.getByText('You must be logged in to access the global chat.')).toBeInTheDocument();
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
    expect(screen.queryByRole('log')).not.toBeInTheDocument();
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(calls).toHaveLength(0);
    expect(FakeWebSocket.instances).toHaveLength(0);
  });

  it('shows a loading state, then the empty state', async () => {
    const answer = deferred();
    stubFetch(() => answer.promise);
    renderChat();
    expect(screen.getByRole('region', { name: 'GLOBAL CHAT' })).toBeInTheDocument();
    const log = screen.getByRole('log', { name: 'Chat messages' });
    // New messages are announced as they arrive.
    expect(log).toHaveAttribute('aria-live', 'polite');
    expect(log).toHaveAttribute('aria-relevant', 'additions');
    expect(within(log).getByRole('status')).toHaveTextContent('Loading messages...');
    await act(async () => answer.resolve({ body: [] }));
    expect(
      await within(log).findByText('No messages yet. Be the first to start the conversation!'),
    ).toBeInTheDocument();
  });

  it('lists the history oldest first: time, author with the premium rank, text as written', async () => {
    server({ history: history() });
    renderChat();
    await waitFor(() => expect(lineTexts()).toHaveLength(3));
    const [first, second, third] = screen.getAllByTestId('chat-line');
    expect(first).toHaveTextContent(/first$/);
    expect(first).toHaveClass('msg-chat-line--own');
    expect(third).toHaveTextContent(`${chatClock(history()[0]!.createdAt)} trinity [Elite Hacker] > third`);

    // The premium rank in brackets after the name, styled by rank-<lower-cased-hyphenated>.
    expect(within(third!).getByText('[Elite Hacker]')).toHaveClass('rank-elite-hacker');
    expect(within(third!).getByText('trinity')).toHaveClass('rank-elite-hacker');
    expect(within(third!).getByRole('link', { name: 'trinity' })).toHaveAttribute('href', '/profile/3');
    expect(within(first!).queryByText(/\[/)).not.toBeInTheDocument();

    // Plain text, line breaks kept: no Markdown.
    expect(within(second!).getByText('Anonymous')).toBeInTheDocument();
    const text = second!.querySelector('.msg-chat-line__text')!;
    expect(text.textContent).toBe('second **not bold**\nand a second line');
    expect(second!.querySelector('strong')).toBeNull();
  });

  it('shows terminal colours in a line, drops other escapes, and keeps hostile text as text', async () => {
    const content =
      '\x1b[1;31mFAIL\x1b[0m <img src=x onerror=alert(1)> \x1b]8;;https://evil.example\x07link\x1b]8;;\x07\x1b[2K';
    server({ history: [sampleChat({ id: 50, content, author: neo() })] });
    renderChat();
    const fail = await screen.findByText('FAIL');
    expect(fail).toHaveStyle({ fontWeight: 700 });
    expect(fail.style.color).toBe('var(--tp-ansi-red)');
    const text = fail.closest('.msg-chat-line__text')!;
    expect(text.textContent).toBe('FAIL <img src=x onerror=alert(1)> link');
    expect(text.querySelector('img, a')).toBeNull();
  });

  it('lays out a 500 px pane and a textarea at least 80 px high', async () => {
    server({ history: [] });
    const { box } = renderChat();
    expect(screen.getByRole('log')).toHaveStyle({ height: '500px' });
    expect(box()).toHaveStyle({ minHeight: '80px' });
  });

  it('shows the live status: CONNECTING..., then LIVE', async () => {
    server({ history: [] });
    renderChat();
    const card = screen.getByRole('region', { name: 'GLOBAL CHAT' });
    expect(within(card).getByText('CONNECTING...')).toBeInTheDocument();
    const socket = await connectedSocket();
    expect(socket.url).toBe('ws://localhost/ws/chat');
    expect(within(card).getByText('LIVE')).toHaveClass('tp-live--open');
  });

  it('sends on Enter, trimmed, to POST /api/chat/messages, then clears the box', async () => {
    const state = { history: history() };
    const calls = server(state, (call) => ({
      status: 201,
      body: sampleChat({ id: 44, content: (call.body as { content: string }).content, author: neo() }),
    }));
    const { user, box } = renderChat();
    await waitFor(() => expect(lineTexts()).toHaveLength(3));

    await user.type(box(), '  hello all  {Enter}');
    await waitFor(() => expect(box()).toHaveValue(''));
    expect(writes(calls)).toEqual([
      { method: 'POST', url: '/api/chat/messages', body: { content: 'hello all' } },
    ]);
    await expectToast('Message sent');
    // The sent line joins the bottom at once.
    expect(lineTexts().at(-1)).toMatch(/neo > hello all$/);
    expect(screen.getByTestId('chat-counter')).toHaveTextContent('0/500');
  });

  it('adds a line on Shift+Enter and sends both lines', async () => {
    const calls = server({ history: [] }, () => ({ status: 201, body: sampleChat({ id: 50 }) }));
    const { user, box } = renderChat();
    await user.type(box(), 'line one{Shift>}{Enter}{/Shift}line two');
    expect(box()).toHaveValue('line one\nline two');
    expect(writes(calls)).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'SEND' }));
    await waitFor(() => expect(writes(calls)).toHaveLength(1));
    expect(writes(calls)[0]!.body).toEqual({ content: 'line one\nline two' });
  });

  it('sends nothing for a blank or whitespace-only message', async () => {
    const calls = server({ history: [] });
    const { user, box, send } = renderChat();
    expect(send()).toBeDisabled();
    await user.type(box(), '   {Enter}');
    await user.type(box(), '{Shift>}{Enter}{/Shift}  {Enter}');
    expect(send()).toBeDisabled();
    fireEvent.submit(box().closest('form')!);
    expect(writes(calls)).toHaveLength(0);
  });

  it('holds a message to 500 characters, counted live', async () => {
    server({ history: [] });
    const { user, box } = renderChat();
    expect(box()).toHaveAttribute('maxLength', '500');
    await user.type(box(), 'abc');
    expect(screen.getByTestId('chat-counter')).toHaveTextContent('3/500');
    await user.clear(box());
    await user.click(box());
    await user.paste('x'.repeat(600));
    expect(box()).toHaveValue('x'.repeat(500));
    expect(screen.getByTestId('chat-counter')).toHaveTextContent('500/500');
  });

  it('blocks sending while a send is pending', async () => {
    const answer = deferred();
    const calls = server({ history: [] }, () => answer.promise);
    const { user, box, send } = renderChat();
    await user.type(box(), 'one{Enter}');
    await waitFor(() => expect(send()).toHaveTextContent('SENDING...'));
    expect(send()).toBeDisabled();
    await user.type(box(), '{Backspace}{Backspace}{Backspace}two{Enter}');
    expect(writes(calls)).toHaveLength(1);

    await act(async () => answer.resolve({ status: 201, body: sampleChat({ id: 60, content: 'one' }) }));
    // The member typed on meanwhile: their new text stays.
    await waitFor(() => expect(send()).toHaveTextContent('SEND'));
    expect(box()).toHaveValue('two');
  });

  it("toasts the server's message when a send is refused, and keeps the text", async () => {
    const tooFast = 'You are sending messages too fast. Try again in 3 seconds.';
    server({ history: [] }, () => ({ status: 429, body: errorBody(429, tooFast) }));
    const { user, box } = renderChat();
    await user.type(box(), 'spam{Enter}');
    await expectToast('Error', tooFast);
    expect(document.querySelector('.tp-toast')).toHaveClass('tp-toast--destructive');
    expect(box()).toHaveValue('spam');
  });

  it("toasts 'Failed to send message' when the server gives no message", async () => {
    server({ history: [] }, () => ({ status: 500, body: { statusCode: 500 } }));
    const { user, box } = renderChat();
    await user.type(box(), 'hello{Enter}');
    await expectToast('Error', 'Failed to send message');
  });

  it('sends the member to sign in again when the session is gone', async () => {
    server({ history: [] }, () => ({ status: 401, body: errorBody(401, 'Unauthorized') }));
    const { user, box } = renderChat();
    await user.type(box(), 'hello{Enter}');
    await expectLoginRedirect();
  });

  it('puts a new_message at the bottom at once (once), then reads the list again', async () => {
    const state = { history: history() };
    const calls = server(state);
    renderChat();
    await waitFor(() => expect(lineTexts()).toHaveLength(3));
    const socket = await connectedSocket();
    expect(reads(calls, '/api/chat/messages')).toHaveLength(1);

    const arrived = sampleChat({ id: 44, content: 'just in', author: sampleAuthor({ username: 'tank' }) });
    // The refetch stays pending until the test answers: what shows first is the event's message.
    const refetch = deferred();
    const readLater = jest.fn();
    stubFetch((call) => {
      readLater(call.url);
      return call.url === '/api/chat/messages' ? refetch.promise : { body: sampleCurrentUser() };
    });
    socket.serverSend({ type: 'new_message', message: arrived });
    socket.serverSend({ type: 'new_message', message: arrived });
    // The popover's shape of the same news is not the page's business.
    socket.serverSend({ type: 'chat_message', message: sampleChat({ id: 99, content: 'popover shape' }) });
    await waitFor(() => expect(lineTexts()).toHaveLength(4));
    expect(lineTexts().at(-1)).toMatch(/tank > just in$/);
    expect(readLater).toHaveBeenCalledWith('/api/chat/messages');

    state.history = [sampleChat({ id: 45, content: 'also new' }), arrived, ...state.history];
    await act(async () => refetch.resolve({ body: state.history }));
    await waitFor(() => expect(lineTexts()).toHaveLength(5));
    expect(lineTexts().at(-1)).toMatch(/also new$/);
  });

  it('follows new lines to the bottom of the pane', async () => {
    const state = { history: history() };
    server(state);
    renderChat();
    await waitFor(() => expect(lineTexts()).toHaveLength(3));
    const log = screen.getByRole('log');
    Object.defineProperty(log, 'scrollHeight', { configurable: true, value: 900 });
    Object.defineProperty(log, 'clientHeight', { configurable: true, value: 500 });
    Object.defineProperty(log, 'scrollTop', { configurable: true, writable: true, value: 400 });
    const socket = await connectedSocket();
    state.history = [sampleChat({ id: 44, content: 'newest' }), ...state.history];
    socket.serverSend({ type: 'new_message', message: state.history[0]! });
    await waitFor(() => expect(log.scrollTop).toBe(900));

    // Scrolled back up to read: a new line leaves the reader where they are.
    log.scrollTop = 100;
    fireEvent.scroll(log);
    Object.defineProperty(log, 'scrollHeight', { configurable: true, value: 1000 });
    state.history = [sampleChat({ id: 45, content: 'newer still' }), ...state.history];
    socket.serverSend({ type: 'new_message', message: state.history[0]! });
    await waitFor(() => expect(lineTexts()).toHaveLength(5));
    expect(log.scrollTop).toBe(100);
  });

  it('reconnects after a drop, says so, and reads the list again', async () => {
    const calls = server({ history: history() });
    renderChat();
    const socket = await connectedSocket();
    await waitFor(() => expect(reads(calls, '/api/chat/messages')).toHaveLength(1));

    socket.serverClose();
    expect(screen.getByText('RECONNECTING...')).toHaveClass('tp-live--reconnecting');
    const again = await connectedSocket(1);
    expect(again.url).toBe('ws://localhost/ws/chat');
    expect(screen.getByText('LIVE')).toBeInTheDocument();
    await waitFor(() => expect(reads(calls, '/api/chat/messages')).toHaveLength(2));
  });
});

describe('members online', () => {
  it('shows how many members are online, as the server counts them, once it said', async () => {
    server({ history: history() });
    renderChat();
    const socket = await connectedSocket();
    expect(screen.queryByTestId('presence-count')).not.toBeInTheDocument();
    socket.serverSend({ type: 'online_count', count: 3 });
    expect(await screen.findByTestId('presence-count')).toHaveTextContent('3 online');
    expect(screen.getByRole('status', { name: 'Members online now: 3' })).toBeInTheDocument();
    socket.serverSend({ type: 'online_count', count: 1 });
    await waitFor(() => expect(screen.getByTestId('presence-count')).toHaveTextContent('1 online'));
  });
});

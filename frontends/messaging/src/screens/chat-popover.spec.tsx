import { act, screen, waitFor, within } from '@testing-library/react';
import {
  FakeWebSocket,
  chatApi,
  connectedSocket,
  deferred,
  errorBody,
  expectToast,
  neo,
  openSockets,
  reads,
  renderScreen,
  sampleAuthor,
  sampleChat,
  writes,
  type FetchAnswer,
} from '../testing';
import { ChatPanelLoading, ChatPopover } from './chat-popover';

const server = chatApi('/api/chat');

const toggle = () => screen.getByRole('button', { name: 'Open global chat' });
const panel = () => screen.getByRole('dialog', { name: 'GLOBAL CHAT' });
/** Each line's text, without its FLAG button. */
const lineTexts = () =>
  screen.queryAllByTestId('chat-line').map((line) =>
    [...line.childNodes]
      .filter((node) => !(node instanceof HTMLButtonElement))
      .map((node) => node.textContent)
      .join(''),
  );
/** Gives timers and pending promises a moment: enough for a socket or a fetch that was going to start. */
const settle = () => act(() => new Promise((resolve) => setTimeout(resolve, 50)));

function renderPopover(options: Parameters<typeof renderScreen>[1] = {}) {
  const rendered = renderScreen(<ChatPopover />, { path: '/', ...options });
  return {
    ...rendered,
    input: () => within(panel()).getByRole('textbox', { name: 'Message' }),
    send: () => within(panel()).getByRole('button', { name: 'SEND' }),
  };
}

async function openPanel(user: ReturnType<typeof renderPopover>['user']) {
  await user.click(toggle());
  return panel();
}

// The panel's contents are fetched when it first opens: loaded once for the file, so no test waits on jest.
beforeAll(() => import('../components/chat-panel'));

describe('global chat popover (home)', () => {
  it('renders nothing when signed out', async () => {
    const calls = server({ history: [] });
    renderPopover({ user: null });
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
    await settle();
    expect(calls).toHaveLength(0);
    expect(FakeWebSocket.instances).toHaveLength(0);
  });

  it('is a round button at first: no history read, no live connection', async () => {
    const calls = server({ history: [] });
    renderPopover();
    expect(toggle()).toHaveAttribute('aria-expanded', 'false');
    expect(toggle().querySelector('svg')).not.toBeNull();
    // The Dock and DockButton of @termpaste/ui, the look the shell's facade of it has too.
    expect(toggle()).toHaveClass('tp-dock__button');
    expect(toggle().closest('.tp-dock')).toHaveClass('msg-popover');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await settle();
    expect(calls).toHaveLength(0);
    expect(FakeWebSocket.instances).toHaveLength(0);
  });

  it('opens a 600x600 GLOBAL CHAT panel with the live badge and the history, oldest first', async () => {
    const calls = server({
      history: [
        sampleChat({ id: 43, content: 'newest', author: sampleAuthor({ activePremiumRank: 'Cyber Ghost' }) }),
        sampleChat({ id: 42, content: 'oldest', author: null }),
      ],
    });
    const { user } = renderPopover();
    const shown = await openPanel(user);
    expect(toggle()).toHaveAttribute('aria-expanded', 'true');
    expect(toggle()).toHaveAttribute('aria-controls', shown.id);
    expect(shown.closest('.msg-popover')).toHaveStyle({ '--msg-popover-size': '600px' });
    expect(within(shown).getByRole('heading', { name: 'GLOBAL CHAT' })).toBeInTheDocument();
    expect(await within(shown).findByText('CONNECTING...')).toBeInTheDocument();

    await waitFor(() => expect(lineTexts()).toHaveLength(2));
    expect(lineTexts()[0]).toMatch(/Anonymous > oldest$/);
    expect(lineTexts()[1]).toMatch(/trinity \[Cyber Ghost\] > newest$/);
    expect(within(shown).getByText('[Cyber Ghost]')).toHaveClass('rank-cyber-ghost');
    expect(reads(calls, '/api/chat')).toHaveLength(1);

    const socket = await connectedSocket();
    expect(socket.url).toBe('ws://localhost/ws/chat');
    expect(within(shown).getByText('LIVE')).toBeInTheDocument();
  });

  it('holds the live connection only while open, and reads the history on each opening', async () => {
    const calls = server({ history: [sampleChat()] });
    const { user } = renderPopover();
    await openPanel(user);
    await connectedSocket();
    expect(openSockets()).toHaveLength(1);

    await user.click(toggle());
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(toggle()).toHaveAttribute('aria-expanded', 'false');
    expect(openSockets()).toHaveLength(0);
    await settle();
    expect(FakeWebSocket.instances).toHaveLength(1);
    expect(reads(calls, '/api/chat')).toHaveLength(1);

    await openPanel(user);
    await connectedSocket(1);
    expect(openSockets()).toHaveLength(1);
    await waitFor(() => expect(reads(calls, '/api/chat')).toHaveLength(2));
  });

  it('closes on Escape and on its close button, giving the focus back to the round button', async () => {
    server({ history: [] });
    const { user, input } = renderPopover();
    await openPanel(user);
    await waitFor(() => expect(input()).toHaveFocus());
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(toggle()).toHaveFocus();
    expect(openSockets()).toHaveLength(0);

    await openPanel(user);
    await user.click(within(panel()).getByRole('button', { name: 'Close global chat' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(toggle()).toHaveFocus();
  });

  it('opens at once when the shell mounts it from its facade (defaultOpen); Escape closes it onto its button', async () => {
    const calls = server({ history: [sampleChat({ content: 'hello' })] });
    const { user } = renderScreen(<ChatPopover defaultOpen />, { path: '/' });
    const shown = panel();
    expect(toggle()).toHaveAttribute('aria-expanded', 'true');
    expect(toggle()).toHaveAttribute('aria-controls', shown.id);
    // As after a click on the button itself: the panel's input takes the focus (chat-popover-open.spec.tsx
    // has the moment before, on the button).
    await waitFor(() => expect(within(panel()).getByRole('textbox', { name: 'Message' })).toHaveFocus());
    await waitFor(() => expect(lineTexts()).toHaveLength(1));
    expect(reads(calls, '/api/chat')).toHaveLength(1);

    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(toggle()).toHaveFocus();
    expect(toggle()).toHaveAttribute('aria-expanded', 'false');
  });

  it('reads the history again on a chat_message event', async () => {
    const state = { history: [sampleChat({ id: 41, content: 'hello' })] };
    const calls = server(state);
    const { user } = renderPopover();
    await openPanel(user);
    const socket = await connectedSocket();
    await waitFor(() => expect(lineTexts()).toHaveLength(1));

    // The page's shape of the news is not the popover's business.
    socket.serverSend({ type: 'new_message', message: sampleChat({ id: 42 }) });
    await settle();
    expect(reads(calls, '/api/chat')).toHaveLength(1);

    const arrived = sampleChat({ id: 42, content: 'from afar', author: sampleAuthor({ username: 'tank' }) });
    state.history = [arrived, ...state.history];
    socket.serverSend({ type: 'chat_message', message: arrived });
    await waitFor(() => expect(lineTexts()).toHaveLength(2));
    expect(lineTexts()[1]).toMatch(/tank > from afar$/);
    expect(reads(calls, '/api/chat')).toHaveLength(2);
  });

  it('sends with POST /api/chat {message}, then clears the input', async () => {
    const calls = server({ history: [] }, (call) => ({
      status: 201,
      body: sampleChat({ id: 50, content: (call.body as { message: string }).message, author: neo() }),
    }));
    const { user, input, send } = renderPopover();
    await openPanel(user);
    expect(input()).toHaveAttribute('maxLength', '500');
    expect(send()).toBeDisabled();
    await user.type(input(), '   ');
    expect(send()).toBeDisabled();

    await user.type(input(), ' wake up {Enter}');
    await waitFor(() => expect(input()).toHaveValue(''));
    expect(writes(calls)).toEqual([{ method: 'POST', url: '/api/chat', body: { message: 'wake up' } }]);
    await expectToast('Message sent');
    expect(lineTexts()).toEqual([expect.stringMatching(/neo > wake up$/)]);
  });

  it('stops the input at 500 characters', async () => {
    server({ history: [] });
    const { user, input } = renderPopover();
    await openPanel(user);
    await user.click(input());
    await user.paste('y'.repeat(501));
    expect(input()).toHaveValue('y'.repeat(500));
  });

  it('disables Send while a send is pending', async () => {
    const answer = deferred();
    const calls = server({ history: [] }, () => answer.promise);
    const { user, input, send } = renderPopover();
    await openPanel(user);
    await user.type(input(), 'one{Enter}');
    await waitFor(() => expect(send()).toBeDisabled());
    await user.type(input(), '{Enter}');
    expect(writes(calls)).toHaveLength(1);
    await act(async () => answer.resolve({ status: 201, body: sampleChat({ id: 51, content: 'one' }) }));
    await waitFor(() => expect(input()).toHaveValue(''));
  });

  it("toasts the server's message, or 'Failed to send message'", async () => {
    let answer: FetchAnswer = { status: 400, body: errorBody(400, 'Message cannot be empty') };
    server({ history: [] }, () => answer);
    const { user, input } = renderPopover();
    await openPanel(user);
    await user.type(input(), 'x{Enter}');
    await expectToast('Error', 'Message cannot be empty');
    expect(input()).toHaveValue('x');

    answer = { status: 502, body: '' };
    await user.type(input(), '{Enter}');
    await expectToast('Error', 'Failed to send message');
  });

  it('while its contents are fetched, shows the panel with its title, a spinner and a working close button', async () => {
    const onClose = jest.fn();
    const { user } = renderScreen(<ChatPanelLoading onClose={onClose} />);
    expect(screen.getByRole('heading', { name: 'GLOBAL CHAT' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Loading...');
    await user.click(screen.getByRole('button', { name: 'Close global chat' }));
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});

describe('members online in the popover', () => {
  it('shows the count the chat socket is told', async () => {
    server({ history: [] });
    const { user } = renderPopover();
    const open = await openPanel(user);
    const socket = await connectedSocket();
    socket.serverSend({ type: 'online_count', count: 2 });
    expect(await within(open).findByTestId('presence-count')).toHaveTextContent('2 online');
  });
});

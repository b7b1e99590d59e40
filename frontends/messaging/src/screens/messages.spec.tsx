import { API, type MessagesPage, type PrivateMessage } from '@termpaste/contracts';
import { createQueryClient } from '@termpaste/ui';
import { act, screen, waitFor, within } from '@testing-library/react';
import {
  deferred,
  errorBody,
  expectLoginRedirect,
  expectToast,
  neo,
  reads,
  renderScreen,
  sampleAuthor,
  sampleMessage,
  stubApi,
  writes,
  type FetchAnswer,
  type FetchCall,
  type FetchHandler,
} from '../testing';
import { MessagesScreen, replySubject } from './messages';

const morpheus = () => sampleAuthor({ id: 8, username: 'morpheus', activePremiumRank: 'Digital Phantom' });

const inbox = (): PrivateMessage[] => [
  sampleMessage(),
  sampleMessage({
    id: 20,
    sender: morpheus(),
    subject: 'the oracle',
    content: 'She is expecting you.',
    isRead: true,
  }),
];
const sent = (): PrivateMessage[] => [
  sampleMessage({
    id: 19,
    sender: neo(),
    recipient: sampleAuthor(),
    subject: 'about the spoon',
    isRead: false,
  }),
];

const page = (messages: PrivateMessage[], nextCursor: string | null = null): MessagesPage => ({
  messages,
  nextCursor,
});

interface State {
  inbox: MessagesPage;
  sent: MessagesPage;
  more?: Record<string, MessagesPage>;
}

/** Answers the inbox, the sent list and their `?cursor=` pages from `state.more`. */
const server = (state: State, onWrite?: FetchHandler) =>
  stubApi((url) => {
    if (url === API.messages) return state.inbox;
    if (url === API.messagesSent) return state.sent;
    const cursor = /\?cursor=(.*)$/.exec(url)?.[1];
    return cursor ? state.more?.[cursor] : undefined;
  }, onWrite);

/** PATCH …/read answers the message, read. */
const readAnswer = (call: FetchCall): FetchAnswer => {
  const id = Number(/\/api\/messages\/(\d+)\/read/.exec(call.url)?.[1]);
  const message = [...inbox(), ...sent()].find((m) => m.id === id)!;
  return { body: { ...message, isRead: true } };
};

function renderMessages(path = '/messages') {
  return renderScreen(<MessagesScreen />, { path });
}

const rows = () => screen.queryAllByTestId('message-row');
const row = (subject: string) => rows().find((r) => r.textContent?.includes(subject))!;
const hint = () => screen.queryByText('Select a message to view or compose a new one');
const detail = () => screen.getByRole('region', { name: 'MESSAGE' });
const form = () => screen.getByRole('form', { name: 'Compose message' });
const field = (name: 'To' | 'Subject' | 'Message') => within(form()).getByRole('textbox', { name });

describe('messages (/messages)', () => {
  it('lists the inbox: sender, NEW while unread, subject, time, in a 600 px pane; hints at the right', async () => {
    server({ inbox: page(inbox()), sent: page([]) });
    renderMessages();
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(screen.getByRole('tab', { name: 'INBOX' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tabpanel')).toHaveStyle({ height: '600px' });

    const unread = row('meet at the construct');
    expect(unread).toHaveTextContent('trinity');
    expect(within(unread).getByText('NEW')).toHaveClass('tp-badge');
    expect(within(unread).getByText('about 2 hours ago').tagName).toBe('TIME');

    const read = row('the oracle');
    expect(within(read).getByText('morpheus')).toHaveClass('rank-digital-phantom');
    expect(within(read).queryByText('NEW')).not.toBeInTheDocument();

    expect(hint()).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'COMPOSE' })).toBeInTheDocument();
  });

  it("says 'No messages yet' for an empty inbox", async () => {
    server({ inbox: page([]), sent: page([]) });
    renderMessages();
    expect(await screen.findByText('No messages yet')).toBeInTheDocument();
  });

  it('opens a message (subject, From, time, Markdown) and marks it read, updating the list', async () => {
    const answer = deferred();
    const calls = server({ inbox: page(inbox()), sent: page([]) }, () => answer.promise);
    const { user } = renderMessages();
    await waitFor(() => expect(rows()).toHaveLength(2));
    await user.click(row('meet at the construct'));

    const shown = detail();
    expect(within(shown).getByRole('heading', { level: 3 })).toHaveTextContent('meet at the construct');
    expect(within(shown).getByText('From').nextElementSibling).toContainElement(
      within(shown).getByRole('link', { name: /trinity/ }),
    );
    expect(within(shown).getByRole('link', { name: /trinity/ })).toHaveAttribute('href', '/profile/3');
    expect(within(shown).getByText('about 2 hours ago')).toBeInTheDocument();
    // The Markdown renderer is loaded with the first Markdown on screen.
    expect((await within(shown).findByText('red')).tagName).toBe('STRONG');
    expect(hint()).not.toBeInTheDocument();
    expect(row('meet at the construct')).toHaveAttribute('aria-current', 'true');

    expect(writes(calls)).toEqual([{ method: 'PATCH', url: '/api/messages/21/read', body: undefined }]);
    expect(within(row('meet at the construct')).getByText('NEW')).toBeInTheDocument();
    await act(async () => answer.resolve({ body: { ...sampleMessage(), isRead: true } }));
    await waitFor(() =>
      expect(within(row('meet at the construct')).queryByText('NEW')).not.toBeInTheDocument(),
    );
    // No reload of the list for it.
    expect(reads(calls, API.messages)).toHaveLength(1);

    // A read message opens without a call; CLOSE brings the hint back.
    await user.click(row('the oracle'));
    expect(within(detail()).getByRole('heading', { level: 3 })).toHaveTextContent('the oracle');
    expect(writes(calls)).toHaveLength(1);
    await user.click(within(detail()).getByRole('button', { name: 'CLOSE' }));
    expect(hint()).toBeInTheDocument();
  });

  it("has the top bar's unread count read again once a message is read (its notification is too)", async () => {
    server({ inbox: page(inbox()), sent: page([]) }, readAnswer);
    const client = createQueryClient();
    client.setQueryData([API.notificationsUnreadCount], 3);
    const { user } = renderScreen(<MessagesScreen />, { path: '/messages', client });
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(client.getQueryState([API.notificationsUnreadCount])?.isInvalidated).toBe(false);
    await user.click(row('meet at the construct'));
    await waitFor(() =>
      expect(client.getQueryState([API.notificationsUnreadCount])?.isInvalidated).toBe(true),
    );
  });

  it('lists the sent messages on SENT, with the recipient and no read call on opening', async () => {
    const calls = server({ inbox: page(inbox()), sent: page(sent()) }, readAnswer);
    const { user } = renderMessages();
    await waitFor(() => expect(rows()).toHaveLength(2));
    await user.click(screen.getByRole('tab', { name: 'SENT' }));
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(screen.getByRole('tab', { name: 'SENT' })).toHaveAttribute('aria-selected', 'true');
    expect(rows()[0]).toHaveTextContent('To trinity');
    expect(within(rows()[0]!).queryByText('NEW')).not.toBeInTheDocument();
    expect(reads(calls, API.messagesSent)).toHaveLength(1);

    await user.click(rows()[0]!);
    expect(within(detail()).getByRole('heading', { level: 3 })).toHaveTextContent('about the spoon');
    expect(within(detail()).queryByRole('button', { name: 'REPLY' })).not.toBeInTheDocument();
    expect(writes(calls)).toHaveLength(0);
  });

  it('shows a message sent to an e-mail address by the address as typed, in the list and opened', async () => {
    const typed = 'Trinity@Zion.example';
    const toAddress = sampleMessage({ id: 18, sender: neo(), recipient: null, recipientAddress: typed });
    server({ inbox: page(inbox()), sent: page([toAddress]) });
    const { user } = renderMessages();
    await waitFor(() => expect(rows()).toHaveLength(2));
    await user.click(screen.getByRole('tab', { name: 'SENT' }));
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(rows()[0]).toHaveTextContent(`To ${typed}`);
    expect(rows()[0]).not.toHaveTextContent('Anonymous');
    await user.click(rows()[0]!);
    const to = within(detail()).getByText('To').nextElementSibling as HTMLElement;
    expect(to).toHaveTextContent(typed);
    expect(within(to).queryByRole('link')).not.toBeInTheDocument();
  });

  it('reads the next page on LOAD MORE', async () => {
    const calls = server({
      inbox: page(inbox(), 'c2'),
      sent: page([]),
      more: { c2: page([sampleMessage({ id: 5, subject: 'an old one', isRead: true })]) },
    });
    const { user } = renderMessages();
    await waitFor(() => expect(rows()).toHaveLength(2));
    await user.click(screen.getByRole('button', { name: 'LOAD MORE' }));
    await waitFor(() => expect(rows()).toHaveLength(3));
    expect(reads(calls, '/api/messages?cursor=c2')).toHaveLength(1);
    expect(screen.queryByRole('button', { name: 'LOAD MORE' })).not.toBeInTheDocument();
  });

  it('composes: TO email or username, SUBJECT counted to 200, MESSAGE, CANCEL', async () => {
    server({ inbox: page([]), sent: page([]) });
    const { user } = renderMessages();
    await user.click(screen.getByRole('button', { name: 'COMPOSE' }));
    expect(field('To')).toHaveAttribute('placeholder', 'email or username');
    expect(field('To')).toHaveFocus();
    expect(field('Subject')).toHaveAttribute('maxLength', '200');
    const counter = screen.getByTestId('subject-counter');
    expect(counter).toHaveTextContent('0/200');
    await user.type(field('Subject'), 'hi');
    expect(counter).toHaveTextContent('2/200');
    await user.click(field('Subject'));
    await user.paste('z'.repeat(250));
    expect(field('Subject')).toHaveValue(`hi${'z'.repeat(198)}`);
    expect(counter).toHaveTextContent('200/200');

    await user.click(within(form()).getByRole('button', { name: 'CANCEL' }));
    expect(screen.queryByRole('form')).not.toBeInTheDocument();
    expect(hint()).toBeInTheDocument();
  });

  it.each([
    ['no recipient', '', 'subject', 'content'],
    ['a blank subject', 'trinity', '   ', 'content'],
    ['a blank message', 'trinity', 'subject', ' \n '],
    ['nothing', '', '', ''],
  ])('refuses %s with a validation toast and sends nothing', async (_, to, subject, content) => {
    const calls = server({ inbox: page([]), sent: page([]) });
    const { user } = renderMessages();
    await user.click(screen.getByRole('button', { name: 'COMPOSE' }));
    if (to) await user.type(field('To'), to);
    if (subject) await user.type(field('Subject'), subject);
    if (content) await user.type(field('Message'), content);
    await user.click(within(form()).getByRole('button', { name: 'SEND' }));
    await expectToast('Validation Error', 'Please fill in all fields');
    expect(writes(calls)).toHaveLength(0);
    expect(form()).toBeInTheDocument();
  });

  it('sends: SENDING... while pending, then the toast, the form closes and the sent list is read again', async () => {
    const answer = deferred();
    const calls = server({ inbox: page([]), sent: page([]) }, () => answer.promise);
    const { user } = renderMessages();
    await user.click(screen.getByRole('tab', { name: 'SENT' }));
    await waitFor(() => expect(reads(calls, API.messagesSent)).toHaveLength(1));
    await user.click(screen.getByRole('button', { name: 'COMPOSE' }));
    await user.type(field('To'), '  trinity@zion.example ');
    await user.type(field('Subject'), ' hello ');
    await user.type(field('Message'), '  indented **text**');
    await user.click(within(form()).getByRole('button', { name: 'SEND' }));

    const sending = within(form()).getByRole('button', { name: 'SENDING...' });
    expect(sending).toBeDisabled();
    expect(field('To')).toBeDisabled();
    expect(writes(calls)).toEqual([
      {
        method: 'POST',
        url: '/api/messages',
        body: { recipientEmail: 'trinity@zion.example', subject: 'hello', content: '  indented **text**' },
      },
    ]);

    await act(async () =>
      answer.resolve({
        status: 201,
        body: sampleMessage({ id: 90, sender: neo(), recipient: sampleAuthor() }),
      }),
    );
    await expectToast('Message sent', 'To trinity@zion.example');
    expect(screen.queryByRole('form')).not.toBeInTheDocument();
    expect(hint()).toBeInTheDocument();
    await waitFor(() => expect(reads(calls, API.messagesSent)).toHaveLength(2));
  });

  it("toasts the server's refusal and keeps the form", async () => {
    server({ inbox: page([]), sent: page([]) }, () => ({
      status: 404,
      body: errorBody(404, 'User not found'),
    }));
    const { user } = renderMessages();
    await user.click(screen.getByRole('button', { name: 'COMPOSE' }));
    await user.type(field('To'), 'nobody');
    await user.type(field('Subject'), 'hello');
    await user.type(field('Message'), 'anyone?');
    await user.click(within(form()).getByRole('button', { name: 'SEND' }));
    await expectToast('Error', 'User not found');
    expect(document.querySelector('.tp-toast')).toHaveClass('tp-toast--destructive');
    expect(field('To')).toHaveValue('nobody');
    expect(within(form()).getByRole('button', { name: 'SEND' })).toBeEnabled();
  });

  it("replies: compose addressed to the sender with 'Re: subject'", async () => {
    server({ inbox: page(inbox()), sent: page([]) }, readAnswer);
    const { user } = renderMessages();
    await waitFor(() => expect(rows()).toHaveLength(2));
    await user.click(row('the oracle'));
    await user.click(within(detail()).getByRole('button', { name: 'REPLY' }));
    expect(field('To')).toHaveValue('morpheus');
    expect(field('Subject')).toHaveValue('Re: the oracle');
    expect(field('Message')).toHaveFocus();
    expect(replySubject('Re: re: the oracle')).toBe('Re: the oracle');
    expect(replySubject('x'.repeat(200))).toHaveLength(200);
  });

  it('opens compose addressed from ?to=', async () => {
    server({ inbox: page(inbox()), sent: page([]) });
    renderMessages('/messages?to=morpheus');
    expect(field('To')).toHaveValue('morpheus');
    expect(field('Subject')).toHaveFocus();
    expect(hint()).not.toBeInTheDocument();
  });

  it('sends the member to sign in again when the session is gone', async () => {
    server({ inbox: page(inbox()), sent: page([]) }, () => ({
      status: 401,
      body: errorBody(401, 'Unauthorized'),
    }));
    const { user } = renderMessages();
    await waitFor(() => expect(rows()).toHaveLength(2));
    await user.click(row('meet at the construct'));
    await expectLoginRedirect();
  });
});

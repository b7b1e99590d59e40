import { type PasteDetail } from '@termpaste/contracts';
import { MODERATION_MESSAGES, MODERATION_TEXTS } from '@termpaste/contracts/moderation';
import { sampleCurrentUser } from '@termpaste/contracts/testing';
import { createQueryClient, preloadMarkdown } from '@termpaste/ui';
import { screen, waitFor, within } from '@testing-library/react';
import { pasteQuery } from '../api/pastes';
import {
  expectToast,
  renderScreen,
  sampleProfile,
  sampleReply,
  samplePaste,
  stubFetch,
  type FetchCall,
  type RenderScreenOptions,
} from '../testing';
import { profileQuery } from '../api/pastes';
import { ProfileScreen } from './profile';
import { PasteScreen } from './paste';

const trinity = sampleCurrentUser({ id: 3, username: 'trinity' });

/** Paste 5 seen by neo (7) unless told, with the member's flags answered from `mine`. */
function renderPaste({
  thread = samplePaste(),
  mine = [] as Array<{ targetType: string; targetId: number }>,
  status,
  ...options
}: RenderScreenOptions & {
  thread?: PasteDetail;
  mine?: Array<{ targetType: string; targetId: number }>;
  status?: number;
} = {}) {
  const calls = stubFetch((call) => {
    if (call.url === '/api/flags/mine') {
      return {
        body: {
          flags: mine.map((flag, i) => ({
            id: i + 1,
            reason: 'spam',
            note: null,
            status: 'open',
            createdAt: '2026-11-27T10:00:00.000Z',
            ...flag,
          })),
        },
      };
    }
    if (call.method === 'POST' && call.url === '/api/flags') return { status: 201, body: {} };
    const version = {
      n: 2,
      createdAt: '2026-11-27T10:00:00.000Z',
      editor: null,
      linesAdded: 1,
      linesRemoved: 0,
      title: null,
      removed: false,
    };
    if (call.url === '/api/replies/11/revisions') return { body: { revisions: [version], pruned: [] } };
    if (call.url === '/api/replies/11/revisions/2') {
      return { body: { ...version, content: 'my own words', language: null } };
    }
    if (status) return { status, body: { statusCode: status, message: MODERATION_MESSAGES.pasteHidden } };
    return { body: thread };
  });
  const client = createQueryClient();
  if (!status) client.setQueryData(pasteQuery(String(thread.id)).queryKey, thread);
  const rendered = renderScreen(<PasteScreen />, {
    path: '/thread/5',
    route: '/thread/:id',
    client,
    ...options,
  });
  return { ...rendered, calls };
}

const pasteCard = () => screen.getByRole('region', { name: 'PASTE' });
const replyItem = (name: string) => screen.getByRole('listitem', { name: `Reply by ${name}` });
const flagPosts = (calls: FetchCall[]) => calls.filter((call) => call.method === 'POST');

beforeAll(() => preloadMarkdown());

describe('FLAG on a paste, its replies and a profile', () => {
  it("is on others' paste and replies, not on the member's own", async () => {
    renderPaste({ user: trinity });
    await screen.findByRole('heading', { name: /nmap cheatsheet/ });
    expect(within(pasteCard()).queryByRole('button', { name: /^FLAG/ })).not.toBeInTheDocument();
    expect(within(replyItem('trinity')).queryByRole('button', { name: /^FLAG/ })).toBeNull();
    expect(
      await within(replyItem('morpheus')).findByRole('button', { name: 'FLAG reply by morpheus' }),
    ).toBeEnabled();
  });

  it('is not shown to a visitor', async () => {
    renderPaste({ user: null });
    await screen.findByRole('heading', { name: /nmap cheatsheet/ });
    expect(screen.queryByRole('button', { name: /^FLAG/ })).not.toBeInTheDocument();
  });

  it('reads FLAGGED on what the member flagged, from GET /api/flags/mine', async () => {
    renderPaste({
      mine: [
        { targetType: 'reply', targetId: 13 },
        { targetType: 'paste', targetId: 5 },
      ],
    });
    expect(
      await within(pasteCard()).findByRole('button', { name: 'FLAGGED paste nmap cheatsheet' }),
    ).toBeDisabled();
    expect(within(replyItem('tank')).getByRole('button', { name: 'FLAGGED reply by tank' })).toBeDisabled();
    expect(
      within(replyItem('morpheus')).getByRole('button', { name: 'FLAG reply by morpheus' }),
    ).toBeEnabled();
  });

  it('flags the paste from its page', async () => {
    const { user, calls } = renderPaste();
    await user.click(await within(pasteCard()).findByRole('button', { name: 'FLAG paste nmap cheatsheet' }));
    const dialog = await screen.findByRole('dialog', { name: 'Flag for the staff' });
    await user.click(within(dialog).getByRole('radio', { name: 'Spam' }));
    await user.click(within(dialog).getByRole('button', { name: 'SEND' }));
    await expectToast(MODERATION_TEXTS.flagSent);
    expect(flagPosts(calls).map((call) => call.body)).toEqual([
      { targetType: 'paste', targetId: 5, reason: 'spam' },
    ]);
  });

  it("is on another member's profile, not on one's own", async () => {
    stubFetch((call) => (call.url === '/api/flags/mine' ? { body: { flags: [] } } : { body: {} }));
    const client = createQueryClient();
    client.setQueryData(profileQuery('3').queryKey, sampleProfile());
    renderScreen(<ProfileScreen />, { path: '/profile/3', route: '/profile/:id', client });
    expect(await screen.findByRole('button', { name: 'FLAG member trinity' })).toBeEnabled();
  });

  it('is not on your own profile', async () => {
    stubFetch(() => ({ body: { flags: [] } }));
    const client = createQueryClient();
    client.setQueryData(profileQuery('3').queryKey, sampleProfile());
    renderScreen(<ProfileScreen />, { path: '/profile/3', route: '/profile/:id', client, user: trinity });
    await screen.findByRole('heading', { name: /trinity/ });
    expect(screen.queryByRole('button', { name: /^FLAG/ })).not.toBeInTheDocument();
  });
});

describe('hidden pending review', () => {
  it('shows others a card of its own, not the 404', async () => {
    renderPaste({ status: 404 });
    expect(await screen.findByText('[hidden pending review]')).toBeInTheDocument();
    expect(screen.getByText(/This paste is hidden pending review/)).toBeInTheDocument();
    expect(screen.queryByText('Thread not found [404]')).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Open the review queue' })).not.toBeInTheDocument();
  });

  it('links staff to the review queue from the hidden card', async () => {
    renderPaste({ status: 404, user: sampleCurrentUser({ id: 1, isAdmin: true }) });
    expect(await screen.findByRole('link', { name: 'Open the review queue' })).toHaveAttribute(
      'href',
      '/admin/review',
    );
  });

  it('tells the author of a hidden paste, who can still edit it', async () => {
    renderPaste({ user: trinity, thread: samplePaste({ hidden: true }) });
    expect(await screen.findByText(MODERATION_TEXTS.hiddenOwn)).toBeInTheDocument();
    expect(within(pasteCard()).getByRole('button', { name: 'EDIT' })).toBeInTheDocument();
  });

  it('shows others a hidden reply as its placeholder, without FLAG or REPLY', async () => {
    const thread = samplePaste({
      replies: [
        sampleReply({ id: 11, hidden: true, content: '' }),
        sampleReply({ id: 13, author: sampleCurrentUser({ id: 9, username: 'tank' }) }),
      ],
    });
    renderPaste({ thread });
    const hidden = await waitFor(() => replyItem('trinity'));
    expect(hidden).toHaveTextContent('[hidden pending review]');
    expect(within(hidden).queryByRole('button', { name: /^FLAG/ })).toBeNull();
    expect(within(hidden).queryByRole('button', { name: 'REPLY' })).toBeNull();
  });

  it("gives the hidden reply's author the banner and EDIT", async () => {
    const thread = samplePaste({ replies: [sampleReply({ id: 11, hidden: true, content: '' })] });
    const { user } = renderPaste({ thread, user: trinity });
    const own = await waitFor(() => replyItem('trinity'));
    expect(own).toHaveTextContent(MODERATION_TEXTS.hiddenOwn);
    // Its text, which the shared page does not carry, from its newest version.
    // Shown as written first, then drawn: an element found early may be replaced, so ask for the text.
    await waitFor(() => expect(own).toHaveTextContent('my own words'));
    await user.click(within(own).getByRole('button', { name: 'EDIT' }));
    expect(within(own).getByRole('textbox', { name: 'Reply content' })).toHaveValue('my own words');
  });
});

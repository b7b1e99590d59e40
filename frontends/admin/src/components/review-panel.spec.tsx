import type { ReviewItem } from '@termpaste/contracts/moderation';
import { screen, waitFor, within } from '@testing-library/react';
import { AdminScreen } from '../screens/admin';
import {
  adminViewer,
  expectToast,
  minutesAgo,
  renderScreen,
  sampleAuthor,
  stubFetch,
  type FetchCall,
} from '../testing';
import { agreeBody } from './agree-dialog';
import { codeFence } from './review-item';
import { filterOf } from './review-panel';

const spammer = sampleAuthor({ id: 20, username: 'spammer' });
const neo = sampleAuthor({ id: 7, username: 'neo' });
const tank = sampleAuthor({ id: 9, username: 'tank' });

function item(overrides: Partial<ReviewItem> = {}): ReviewItem {
  return {
    id: 2,
    kind: 'flagged',
    targetType: 'paste',
    targetId: 40,
    status: 'open',
    score: 3,
    hidden: true,
    signals: [],
    target: {
      title: 'cheap pills',
      content: '## BUY NOW\n\nat pills.example',
      language: null,
      threadRef: 40,
      parentId: null,
      createdAt: minutesAgo(30),
      gone: false,
    },
    author: spammer,
    history: {
      joinedAt: '2026-11-27T00:00:00.000Z',
      pastes: 4,
      replies: 1,
      flagsAgreed: 2,
      suspensions: 1,
      bannedUntil: null,
      isBanned: false,
      silencedUntil: null,
    },
    flags: [
      {
        id: 11,
        reason: 'spam',
        note: null,
        flagger: neo,
        weight: 1,
        createdAt: minutesAgo(20),
      },
      {
        id: 12,
        reason: 'other',
        note: 'a phishing link',
        flagger: tank,
        weight: 1.5,
        createdAt: minutesAgo(10),
      },
    ],
    createdAt: minutesAgo(20),
    updatedAt: minutesAgo(10),
    ...overrides,
  };
}

const held = () =>
  item({
    id: 3,
    kind: 'held',
    targetType: 'reply',
    targetId: null,
    hidden: false,
    score: 0,
    signals: ['duplicate', 'first-posts'],
    flags: [],
    target: {
      title: 'nmap cheatsheet',
      content: 'same text everywhere',
      language: null,
      threadRef: 5,
      parentId: null,
      createdAt: minutesAgo(5),
      gone: false,
    },
  });

/** /admin/review with the queue answered from `state` and each decision recorded. */
function renderReview(state: { items: ReviewItem[]; count?: number }, path = '/admin/review') {
  const decisions: FetchCall[] = [];
  const calls = stubFetch((call) => {
    if (call.method === 'GET' && call.url.startsWith('/api/admin/review/count')) {
      return { body: state.count ?? state.items.length };
    }
    if (call.method === 'GET' && call.url.startsWith('/api/admin/review')) {
      return { body: { items: state.items, nextCursor: null, openCount: state.items.length } };
    }
    if (call.method === 'POST') {
      decisions.push(call);
      const id = Number(call.url.split('/').at(-1));
      state.items = state.items.filter((entry) => entry.id !== id);
      return { body: { message: 'ok' } };
    }
    return { body: { users: [], entries: [], nextCursor: null } };
  });
  const rendered = renderScreen(<AdminScreen />, {
    path,
    route: ['/admin', '/admin/review'],
    user: adminViewer(),
  });
  return { ...rendered, calls, decisions };
}

const card = (name: RegExp | string) => screen.findByRole('article', { name });
const sent = (decisions: FetchCall[]) => decisions.map((call) => [call.url, call.body]);

describe('REVIEW tab (/admin/review)', () => {
  it('is the tab of /admin/review, counting the open items', async () => {
    renderReview({ items: [item(), held()], count: 3 });
    const tab = await screen.findByRole('tab', { name: 'REVIEW (3)' });
    expect(tab).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tab', { name: 'USERS' })).toHaveAttribute('aria-selected', 'false');
  });

  it('shows an item as members see it, its author, record, flags and signals', async () => {
    renderReview({ items: [item(), held()] });
    const paste = await card('Flagged paste by spammer');
    expect(within(paste).getByText('cheap pills')).toBeInTheDocument();
    expect(within(paste).getByRole('heading', { name: 'BUY NOW' })).toBeInTheDocument();
    expect(within(paste).getByText('HIDDEN')).toBeInTheDocument();

    const author = within(paste).getByRole('region', { name: 'Author' });
    expect(within(author).getByRole('link', { name: /spammer/ })).toHaveAttribute('href', '/profile/20');
    expect(author).toHaveTextContent(/Posts\s*4 pastes, 1 reply/);
    expect(author).toHaveTextContent(/Flags agreed\s*2/);
    expect(author).toHaveTextContent(/Suspensions\s*1/);

    const flags = within(paste).getByRole('region', { name: 'Flags' });
    expect(flags).toHaveTextContent('FLAGS · score 3');
    const rows = within(flags).getAllByRole('listitem');
    expect(rows[0]).toHaveTextContent(/Spam.*by neo.*weight 1\b/);
    expect(rows[1]).toHaveTextContent(/Something else.*by tank.*weight 1\.5.*a phishing link/);
    expect(within(paste).getByRole('group', { name: 'Decide #2' })).toHaveTextContent(
      /AGREE.*DISAGREE.*IGNORE/,
    );

    const reply = await card('Held reply by spammer');
    expect(reply).toHaveTextContent('on nmap cheatsheet');
    expect(reply).toHaveTextContent('The same text from several accounts within an hour');
    expect(reply).toHaveTextContent("A new member's first post");
    expect(within(reply).getByRole('group', { name: 'Decide #3' })).toHaveTextContent(/APPROVE.*REJECT/);
  });

  it('renders a paste in a language as code', () => {
    expect(codeFence('ls ``` -la', 'bash')).toBe('````bash\nls ``` -la\n````');
    expect(codeFence('echo hi', 'sh')).toBe('```sh\necho hi\n```');
  });

  it('moves with j and k and decides the selected item with d, i, p and r', async () => {
    const state = { items: [item(), item({ id: 4, author: tank }), held()] };
    const { user, decisions } = renderReview(state);
    await card('Flagged paste by spammer');
    // The first is selected; j moves to the second, k back, ArrowDown forward again.
    await user.keyboard('j');
    expect(await card('Flagged paste by tank')).toHaveAttribute('aria-current', 'true');
    await user.keyboard('k');
    expect(await card('Flagged paste by spammer')).toHaveAttribute('aria-current', 'true');
    await user.keyboard('{ArrowDown}');
    // A held post's key does nothing on a flagged item.
    await user.keyboard('p');
    expect(decisions).toEqual([]);

    await user.keyboard('d');
    await expectToast('Flags cleared, item restored');
    expect(sent(decisions)).toEqual([['/api/admin/review/4', { decision: 'disagree' }]]);
    await waitFor(() => expect(screen.queryByRole('article', { name: 'Flagged paste by tank' })).toBeNull());

    // The selection stays in place: now the held reply.
    await user.keyboard('r');
    await expectToast('Post rejected');
    await user.keyboard('i');
    await expectToast('Flags cleared');
    expect(sent(decisions)).toEqual([
      ['/api/admin/review/4', { decision: 'disagree' }],
      ['/api/admin/review/3', { decision: 'reject' }],
      ['/api/admin/review/2', { decision: 'ignore' }],
    ]);
    expect(await screen.findByText('The review queue is empty. Nothing to decide.')).toBeInTheDocument();
  });

  it('approves a held post with p', async () => {
    const { user, decisions } = renderReview({ items: [held()] });
    await card('Held reply by spammer');
    await user.keyboard('p');
    await expectToast('Post approved and published');
    expect(sent(decisions)).toEqual([['/api/admin/review/3', { decision: 'approve' }]]);
  });

  it('agrees with a: delete the post and suspend its author for a day, with a reason', async () => {
    const { user, decisions } = renderReview({ items: [item()] });
    await card('Flagged paste by spammer');
    await user.keyboard('a');
    const dialog = await screen.findByRole('dialog', { name: 'AGREE' });
    // Keys typed in the dialog are not shortcuts.
    await user.click(within(dialog).getByRole('radio', { name: 'Delete it (to the trash)' }));
    await user.click(within(dialog).getByRole('radio', { name: 'Suspend (cannot sign in)' }));
    await user.click(within(dialog).getByRole('button', { name: 'AGREE' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('A reason is required');
    expect(decisions).toEqual([]);

    expect(within(dialog).getByRole('combobox', { name: 'Duration' })).toHaveValue('1');
    await user.type(within(dialog).getByRole('textbox', { name: /Reason/ }), 'spam, dirt cheap');
    await user.click(within(dialog).getByRole('button', { name: 'AGREE' }));
    await expectToast('Flags agreed with');
    expect(sent(decisions)).toEqual([
      [
        '/api/admin/review/2',
        { decision: 'agree', deletePost: true, suspendDays: 1, reason: 'spam, dirt cheap' },
      ],
    ]);
  });

  it('agrees from the button, keeping the post hidden', async () => {
    const { user, decisions } = renderReview({ items: [item()] });
    const paste = await card('Flagged paste by spammer');
    await user.click(within(paste).getByRole('button', { name: /^AGREE/ }));
    const dialog = await screen.findByRole('dialog', { name: 'AGREE' });
    expect(within(dialog).getByRole('radio', { name: 'Keep it hidden' })).toBeChecked();
    await user.click(within(dialog).getByRole('button', { name: 'AGREE' }));
    await expectToast('Flags agreed with');
    expect(sent(decisions)).toEqual([['/api/admin/review/2', { decision: 'agree', deletePost: false }]]);
  });

  it('builds the AGREE body: silence takes days and a reason', () => {
    expect(agreeBody({ deletePost: false, step: 'silence', days: 7, reason: ' rude ' })).toEqual({
      decision: 'agree',
      deletePost: false,
      silenceDays: 7,
      reason: 'rude',
    });
    expect(agreeBody({ deletePost: false, step: 'silence', days: 7, reason: ' ' })).toBe(
      'A reason is required',
    );
    expect(agreeBody({ deletePost: true, step: 'suspend', days: 3, reason: 'x'.repeat(501) })).toBe(
      'Reason must be at most 500 characters',
    );
  });

  it('does not take keys while a field has the focus', async () => {
    const { user, decisions } = renderReview({ items: [item()] });
    await card('Flagged paste by spammer');
    screen.getByRole('combobox', { name: 'Filter by reason' }).focus();
    await user.keyboard('d');
    await user.keyboard('i');
    expect(decisions).toEqual([]);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('lists its keys on ?', async () => {
    const { user } = renderReview({ items: [item()] });
    await card('Flagged paste by spammer');
    await user.keyboard('?');
    const help = await screen.findByRole('dialog', { name: 'REVIEW KEYS' });
    expect(help).toHaveTextContent(/j or ↓\s*Next item/);
    expect(help).toHaveTextContent(/a\s*Agree/);
    expect(help).toHaveTextContent(/r\s*Reject a held post/);
  });

  it('filters by kind, reason and type, kept in the address', async () => {
    const { user, calls } = renderReview({ items: [item()] }, '/admin/review?reason=spam');
    await card('Flagged paste by spammer');
    expect(screen.getByRole('combobox', { name: 'Filter by reason' })).toHaveValue('spam');
    const reads = () =>
      calls.filter((call) => call.url.startsWith('/api/admin/review?') || call.url === '/api/admin/review');
    expect(reads().map((call) => call.url)).toEqual(['/api/admin/review?reason=spam']);

    await user.selectOptions(screen.getByRole('combobox', { name: 'Filter by kind' }), 'held');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Filter by type' }), 'chat');
    await waitFor(() =>
      expect(reads().at(-1)?.url).toBe('/api/admin/review?kind=held&reason=spam&targetType=chat'),
    );
    expect(filterOf(new URLSearchParams('kind=nope&reason=other&type=member'))).toEqual({
      kind: '',
      reason: 'other',
      targetType: 'member',
    });
  });

  it('loads the next page by its cursor', async () => {
    const calls = stubFetch((call) => {
      if (call.url.startsWith('/api/admin/review/count')) return { body: 2 };
      if (call.url.includes('cursor=')) return { body: { items: [held()], nextCursor: null, openCount: 2 } };
      if (call.url.startsWith('/api/admin/review')) {
        return { body: { items: [item()], nextCursor: 'next=', openCount: 2 } };
      }
      return { body: { users: [], entries: [], nextCursor: null } };
    });
    const { user } = renderScreen(<AdminScreen />, { path: '/admin/review', user: adminViewer() });
    await card('Flagged paste by spammer');
    expect(screen.getByText(/Showing 1 item · 2 open in all/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'LOAD MORE' }));
    expect(await card('Held reply by spammer')).toBeInTheDocument();
    expect(calls.map((call) => call.url)).toContain('/api/admin/review?cursor=next%3D');
    expect(screen.queryByRole('button', { name: 'LOAD MORE' })).not.toBeInTheDocument();
  });

  it('says when the queue is empty', async () => {
    renderReview({ items: [] });
    expect(await screen.findByText('The review queue is empty. Nothing to decide.')).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'REVIEW' })).toBeInTheDocument();
  });
});

import { type PasteDetail } from '@termpaste/contracts';
import { screen, within } from '@testing-library/react';
import { renderScreen, stubFetch, urls } from '../testing';
import { PASTE_LOOKUP_NOTE, PasteLookup } from './paste-lookup';

const KEY = 'Ab3_-Ab3_-Ab3_-Ab3_-Ab';

/** A private paste by trinity, as GET /api/admin/threads/{ref} answers it. */
function privatePaste(): PasteDetail {
  return {
    id: KEY,
    title: 'my notes',
    createdAt: '2026-01-05T12:00:00.000Z',
    author: {
      id: 3,
      username: 'trinity',
      avatarUrl: null,
      profileImageUrl: null,
      firstName: null,
      lastName: null,
      reputation: 10,
      activePremiumRank: null,
    },
    viewCount: 0,
    voteScore: 0,
    replyCount: 0,
    isPinned: false,
    isLocked: false,
    isFeatured: false,
    lastReplyAt: null,
    lastReplyAuthor: null,
    visibility: 'private',
    expiresAt: null,
    tags: [],
    content: 'line one\nline two',
    language: null,
    editedAt: null,
    burnAfterReading: false,
    forkedFrom: null,
    forkCount: 0,
    myVote: null,
    hidden: false,
    replies: [],
  };
}

describe('PASTES: a paste opened by number or key', () => {
  it('says the read is logged, then shows the paste read-only', async () => {
    const calls = stubFetch(() => ({ body: privatePaste() }));
    const { user } = renderScreen(<PasteLookup />, { path: '/admin' });
    expect(screen.getByText(PASTE_LOOKUP_NOTE)).toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: 'Paste number or key' }), ` ${KEY} `);
    await user.click(screen.getByRole('button', { name: 'OPEN' }));
    const paste = await screen.findByRole('article', { name: 'Paste my notes' });
    expect(urls(calls)).toEqual([`/api/admin/threads/${KEY}`]);
    expect(paste).toHaveTextContent('trinity');
    expect(paste).toHaveTextContent('Private: its author only');
    expect(within(paste).getByLabelText('Paste content')).toHaveTextContent('line one line two');
    expect(screen.queryByRole('textbox', { name: 'Paste content' })).not.toBeInTheDocument();
  });

  it('refuses what is neither a number nor a key, asking nothing', async () => {
    const calls = stubFetch(() => ({ body: privatePaste() }));
    const { user } = renderScreen(<PasteLookup />, { path: '/admin' });
    await user.type(screen.getByRole('textbox', { name: 'Paste number or key' }), 'nope!');
    await user.click(screen.getByRole('button', { name: 'OPEN' }));
    expect(screen.getByText('That is neither a paste number nor a paste key.')).toBeInTheDocument();
    expect(calls).toEqual([]);
  });

  it('says so when no paste has that number or key', async () => {
    stubFetch(() => ({ status: 404, body: { statusCode: 404, message: 'Thread not found' } }));
    const { user } = renderScreen(<PasteLookup />, { path: '/admin' });
    await user.type(screen.getByRole('textbox', { name: 'Paste number or key' }), '42');
    await user.click(screen.getByRole('button', { name: 'OPEN' }));
    expect(await screen.findByText('No paste has that number or key.')).toBeInTheDocument();
  });
});

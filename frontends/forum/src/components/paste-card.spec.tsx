import { API, PEOPLE_TEXTS, type PasteCard as PasteCardData } from '@termpaste/contracts';
import { TooltipProvider } from '@termpaste/ui';
import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { minutesAgo, renderScreen, sampleAuthor, sampleCard as card, stubApi } from '../testing';
import { prefixedTitle, PasteCard, PasteCardList } from './paste-card';

function renderCard(thread: PasteCardData) {
  render(
    <TooltipProvider>
      <MemoryRouter>
        <PasteCard thread={thread} />
      </MemoryRouter>
    </TooltipProvider>,
  );
  return screen.getByRole('article', { name: thread.title });
}

describe('prefixedTitle', () => {
  it('adds [LOCKED] and [PINNED], in that order', () => {
    const base = { title: 'rules', isLocked: false, isPinned: false };
    expect(prefixedTitle(base)).toBe('rules');
    expect(prefixedTitle({ ...base, isLocked: true })).toBe('[LOCKED] rules');
    expect(prefixedTitle({ ...base, isPinned: true })).toBe('[PINNED] rules');
    expect(prefixedTitle({ ...base, isLocked: true, isPinned: true })).toBe('[LOCKED] [PINNED] rules');
  });
});

describe('PasteCard', () => {
  it('links the title and the author, with counts and age', () => {
    const article = renderCard(card());
    expect(within(article).getByRole('link', { name: 'nmap cheatsheet' })).toHaveAttribute(
      'href',
      '/thread/4',
    );
    expect(within(article).getByRole('link', { name: 'trinity' })).toHaveAttribute('href', '/profile/3');
    expect(article).toHaveTextContent('by trinity');
    expect(article).toHaveTextContent('2 replies');
    expect(article).toHaveTextContent('7 views');
    expect(article).toHaveTextContent('about 2 hours ago');
    expect(article).not.toHaveTextContent('@');
    expect(article).not.toHaveTextContent('Last reply');
    expect(within(article).queryByRole('img')).not.toBeInTheDocument();
  });

  it('says 1 reply and 1 view in the singular', () => {
    const article = renderCard(card({ replyCount: 1, viewCount: 1 }));
    expect(article).toHaveTextContent('1 reply');
    expect(article).toHaveTextContent('1 view');
    expect(article).not.toHaveTextContent('1 replies');
  });

  it('prefixes the title and shows the pinned and locked icons', () => {
    const article = renderCard(card({ isLocked: true, isPinned: true }));
    expect(within(article).getByRole('link', { name: '[LOCKED] [PINNED] nmap cheatsheet' })).toHaveAttribute(
      'href',
      '/thread/4',
    );
    expect(within(article).getByRole('img', { name: 'Pinned' })).toBeInTheDocument();
    expect(within(article).getByRole('img', { name: 'Locked' })).toBeInTheDocument();
    expect(within(article).queryByRole('img', { name: 'Hot' })).not.toBeInTheDocument();
  });

  it('shows only [LOCKED] for a locked paste', () => {
    const article = renderCard(card({ isLocked: true }));
    expect(within(article).getByRole('link', { name: '[LOCKED] nmap cheatsheet' })).toBeInTheDocument();
    expect(article).not.toHaveTextContent('[PINNED]');
  });

  it.each([
    [21, 0, true],
    [0, 101, true],
    [20, 100, false],
    [20, 0, false],
    [0, 100, false],
  ])('with %i replies and %i views is hot: %s', (replyCount, viewCount, hot) => {
    const article = renderCard(card({ replyCount, viewCount }));
    if (hot) expect(within(article).getByRole('img', { name: 'Hot' })).toBeInTheDocument();
    else expect(within(article).queryByRole('img', { name: 'Hot' })).not.toBeInTheDocument();
  });

  it('shows the last reply with its time and author', () => {
    const article = renderCard(
      card({
        lastReplyAt: new Date(Date.now() - 3600_000).toISOString(),
        lastReplyAuthor: sampleAuthor({ id: 8, username: 'morpheus' }),
      }),
    );
    expect(article).toHaveTextContent('Last reply about 1 hour ago by morpheus');
  });

  it('names a deleted last replier Anonymous', () => {
    const article = renderCard(card({ lastReplyAt: new Date(Date.now() - 3600_000).toISOString() }));
    expect(article).toHaveTextContent('Last reply about 1 hour ago by Anonymous');
  });

  it('shows Anonymous without a link for a deleted author', () => {
    const article = renderCard(card({ author: null }));
    expect(article).toHaveTextContent('by Anonymous');
    expect(within(article).getAllByRole('link')).toHaveLength(1);
  });

  it("shows 'User' for an author without a username", () => {
    const article = renderCard(card({ author: sampleAuthor({ username: '' }) }));
    expect(within(article).getByRole('link', { name: 'User' })).toHaveAttribute('href', '/profile/3');
  });
});

describe('PasteCardList', () => {
  it('lists one card per paste under its label', () => {
    renderScreen(
      <PasteCardList
        label="Search results"
        threads={[card({ id: 1, title: 'a' }), card({ id: 2, title: 'b' })]}
      />,
      { user: null },
    );
    const list = screen.getByRole('list', { name: 'Search results' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(2);
    expect(within(list).getByRole('link', { name: 'b' })).toHaveAttribute('href', '/thread/2');
  });

  it("collapses a muted member's paste with show, and leaves out a blocked member's, counted", async () => {
    const morpheus = sampleAuthor({ id: 4, username: 'morpheus' });
    const entry = (member: typeof morpheus) => ({ members: [{ member, createdAt: minutesAgo(5) }] });
    stubApi(
      (url) =>
        url === API.userMutes ? entry(sampleAuthor()) : url === API.userBlocks ? entry(morpheus) : undefined,
      undefined,
      { peopleLists: 'ask' },
    );
    const { user } = renderScreen(
      <PasteCardList
        label="Search results"
        threads={[
          card({ id: 1, title: 'by trinity' }),
          card({ id: 2, title: 'by morpheus', author: morpheus }),
          card({ id: 3, title: 'by nobody', author: null }),
        ]}
      />,
    );
    expect(await screen.findByText(PEOPLE_TEXTS.blockedLeftOut(1))).toBeInTheDocument();
    const list = screen.getByRole('list', { name: 'Search results' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(2);
    expect(within(list).queryByRole('link', { name: 'by morpheus' })).not.toBeInTheDocument();
    expect(within(list).queryByRole('link', { name: 'by trinity' })).not.toBeInTheDocument();
    expect(within(list).getByText(PEOPLE_TEXTS.mutedPost)).toBeInTheDocument();
    await user.click(within(list).getByRole('button', { name: `[${PEOPLE_TEXTS.show}]` }));
    expect(within(list).getByRole('link', { name: 'by trinity' })).toBeInTheDocument();
    expect(within(list).getByRole('link', { name: 'by nobody' })).toBeInTheDocument();
  });
});

import { PEOPLE_TEXTS, type PeopleList, type PublicAuthor } from '@termpaste/contracts';
import { createQueryClient, peopleListQuery, preloadMarkdown } from '@termpaste/ui';
import { screen, within } from '@testing-library/react';
import { pasteQuery } from '../api/pastes';
import { minutesAgo, renderScreen, sampleAuthor, sampleReply, samplePaste } from '../testing';
import { PasteScreen } from './paste';

const trinity = sampleAuthor(); // id 3, the paste's author
const morpheus = sampleAuthor({ id: 4, username: 'morpheus' });
const smith = sampleAuthor({ id: 5, username: 'smith' });

const listOf = (...members: PublicAuthor[]): PeopleList => ({
  members: members.map((member) => ({ member, createdAt: minutesAgo(1) })),
});

/** The paste page with these lists already read (no request for them). */
function renderWith(lists: { mutes?: PeopleList; blocks?: PeopleList }) {
  const thread = samplePaste({
    replyCount: 3,
    replies: [
      sampleReply({ id: 1, author: morpheus, content: 'muted words' }),
      sampleReply({ id: 2, author: smith, content: 'blocked words' }),
      sampleReply({ id: 3, parentId: 2, author: trinity, content: 'an answer to smith' }),
    ],
  });
  const client = createQueryClient();
  client.setQueryData(pasteQuery(String(thread.id)).queryKey, thread);
  client.setQueryData(peopleListQuery('mutes').queryKey, lists.mutes ?? listOf());
  client.setQueryData(peopleListQuery('blocks').queryKey, lists.blocks ?? listOf());
  return renderScreen(<PasteScreen />, { path: '/thread/5', route: '/thread/:id', client });
}

beforeAll(() => preloadMarkdown());

describe('the paste page, with mutes and blocks', () => {
  it("collapses a muted member's reply with show; a blocked member's is a line, the answers under it stay", async () => {
    const { user } = renderWith({ mutes: listOf(morpheus), blocks: listOf(smith) });
    const replies = screen.getByRole('region', { name: '3 REPLIES' });
    expect(await within(replies).findByText('an answer to smith')).toBeInTheDocument();
    expect(within(replies).queryByText('muted words')).not.toBeInTheDocument();
    expect(within(replies).queryByText('blocked words')).not.toBeInTheDocument();
    expect(within(replies).getByText(PEOPLE_TEXTS.mutedPost)).toBeInTheDocument();
    expect(within(replies).getByText(PEOPLE_TEXTS.blockedPost)).toBeInTheDocument();
    // The tree keeps its shape: the answer sits under the blocked reply's line.
    expect(document.getElementById('reply-3')).toHaveAttribute('data-depth', '1');
    expect(within(replies).getAllByRole('button', { name: `[${PEOPLE_TEXTS.show}]` })).toHaveLength(1);
    await user.click(within(replies).getByRole('button', { name: `[${PEOPLE_TEXTS.show}]` }));
    expect(await within(replies).findByText('muted words')).toBeInTheDocument();
    expect(within(replies).queryByText('blocked words')).not.toBeInTheDocument();
  });

  it('collapses the paste of a muted author, and shows it on show', async () => {
    const { user } = renderWith({ mutes: listOf(trinity) });
    const card = screen.getByRole('region', { name: 'PASTE' });
    expect(within(card).getByText(PEOPLE_TEXTS.mutedPost)).toBeInTheDocument();
    expect(within(card).queryByRole('heading', { level: 1 })).not.toBeInTheDocument();
    await user.click(within(card).getByRole('button', { name: `[${PEOPLE_TEXTS.show}]` }));
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('nmap cheatsheet');
  });

  it('shows everything when the member muted and blocked nobody', async () => {
    renderWith({});
    expect(await screen.findByText('muted words')).toBeInTheDocument();
    expect(screen.getByText('blocked words')).toBeInTheDocument();
    expect(screen.queryByText(PEOPLE_TEXTS.mutedPost)).not.toBeInTheDocument();
  });
});

import { PEOPLE_TEXTS, type PeopleList, type PublicAuthor } from '@termpaste/contracts';
import { createQueryClient, peopleListQuery } from '@termpaste/ui';
import { screen, within } from '@testing-library/react';
import { sampleCard as card, minutesAgo, renderScreen, sampleAuthor } from '../testing';
import { PasteTable } from './paste-table';

const morpheus = sampleAuthor({ id: 4, username: 'morpheus' });
const smith = sampleAuthor({ id: 5, username: 'smith' });
const listOf = (...members: PublicAuthor[]): PeopleList => ({
  members: members.map((member) => ({ member, createdAt: minutesAgo(1) })),
});

describe('PasteTable, with mutes and blocks', () => {
  it("collapses a muted member's row with show, leaves out a blocked member's and counts it", async () => {
    const client = createQueryClient();
    client.setQueryData(peopleListQuery('mutes').queryKey, listOf(morpheus));
    client.setQueryData(peopleListQuery('blocks').queryKey, listOf(smith));
    const { user } = renderScreen(
      <PasteTable
        label="Recent pastes"
        threads={[
          card({ id: 1, title: 'by trinity' }),
          card({ id: 2, title: 'by morpheus', author: morpheus }),
          card({ id: 3, title: 'by smith', author: smith }),
        ]}
      />,
      { client },
    );
    const table = screen.getByRole('table', { name: 'Recent pastes' });
    expect(within(table).getByRole('link', { name: 'by trinity' })).toBeInTheDocument();
    expect(within(table).queryByRole('link', { name: 'by morpheus' })).not.toBeInTheDocument();
    expect(within(table).queryByRole('link', { name: 'by smith' })).not.toBeInTheDocument();
    expect(within(table).getByText(PEOPLE_TEXTS.blockedLeftOut(1))).toBeInTheDocument();
    await user.click(within(table).getByRole('button', { name: `[${PEOPLE_TEXTS.show}]` }));
    expect(within(table).getByRole('link', { name: 'by morpheus' })).toBeInTheDocument();
  });
});

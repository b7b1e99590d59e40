import { PEOPLE_TEXTS, type PeopleList, type PublicAuthor } from '@termpaste/contracts';
import { createQueryClient, peopleListQuery } from '@termpaste/ui';
import { screen, within } from '@testing-library/react';
import { minutesAgo, renderScreen, sampleAuthor, sampleChat } from '../testing';
import { ChatLog } from './chat';

const morpheus = sampleAuthor({ id: 4, username: 'morpheus' });
const smith = sampleAuthor({ id: 5, username: 'smith' });
const listOf = (...members: PublicAuthor[]): PeopleList => ({
  members: members.map((member) => ({ member, createdAt: minutesAgo(1) })),
});

describe('ChatLog, with mutes and blocks', () => {
  it("collapses a muted member's line with show, and leaves a blocked member's as a line", async () => {
    const client = createQueryClient();
    client.setQueryData(peopleListQuery('mutes').queryKey, listOf(morpheus));
    client.setQueryData(peopleListQuery('blocks').queryKey, listOf(smith));
    const { user } = renderScreen(
      <ChatLog
        isError={false}
        userId={7}
        messages={[
          sampleChat({ id: 3, author: smith, content: 'from smith' }),
          sampleChat({ id: 2, author: morpheus, content: 'from morpheus' }),
          sampleChat({ id: 1, author: sampleAuthor(), content: 'from trinity' }),
        ]}
      />,
      { client },
    );
    const log = screen.getByRole('log', { name: 'Chat messages' });
    expect(within(log).getAllByTestId('chat-line')).toHaveLength(3);
    expect(within(log).getByText('from trinity')).toBeInTheDocument();
    expect(within(log).queryByText('from morpheus')).not.toBeInTheDocument();
    expect(within(log).queryByText('from smith')).not.toBeInTheDocument();
    expect(within(log).getByText(PEOPLE_TEXTS.blockedPost)).toBeInTheDocument();
    await user.click(within(log).getByRole('button', { name: `[${PEOPLE_TEXTS.show}]` }));
    expect(within(log).getByText('from morpheus')).toBeInTheDocument();
    expect(within(log).queryByText('from smith')).not.toBeInTheDocument();
  });
});

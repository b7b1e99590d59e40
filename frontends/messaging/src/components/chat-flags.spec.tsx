import { MODERATION_TEXTS } from '@termpaste/contracts/moderation';
import { createQueryClient } from '@termpaste/ui';
import { screen, within } from '@testing-library/react';
import { applyChatModeration, chatQuery } from '../api/messaging';
import { renderScreen, sampleAuthor, sampleChat, stubFetch } from '../testing';
import { ChatLog } from './chat';

const tank = sampleAuthor({ id: 9, username: 'tank' });
const neo = sampleAuthor({ id: 7, username: 'neo' });

function renderLog(messages = [sampleChat({ id: 42, author: tank }), sampleChat({ id: 41, author: neo })]) {
  stubFetch(() => ({
    body: {
      flags: [
        {
          id: 1,
          targetType: 'chat',
          targetId: 40,
          reason: 'spam',
          note: null,
          status: 'open',
          createdAt: '2026-11-27T10:00:00.000Z',
        },
      ],
    },
  }));
  return renderScreen(<ChatLog messages={messages} isError={false} userId={7} />);
}

const lines = () => screen.getAllByTestId('chat-line');

describe('flags in the chat', () => {
  it("puts FLAG on others' lines, not on the member's own", async () => {
    renderLog();
    const [own, other] = lines();
    expect(within(own!).queryByRole('button', { name: /FLAG/ })).toBeNull();
    expect(await within(other!).findByRole('button', { name: 'FLAG chat message by tank' })).toBeEnabled();
  });

  it('reads FLAGGED on a line the member flagged', async () => {
    renderLog([sampleChat({ id: 40, author: tank })]);
    expect(await screen.findByRole('button', { name: 'FLAGGED chat message by tank' })).toBeDisabled();
  });

  it('shows a hidden line as its placeholder, without FLAG', () => {
    renderLog([sampleChat({ id: 42, author: tank, hidden: true, content: '' })]);
    expect(lines()[0]).toHaveTextContent(`[${MODERATION_TEXTS.hiddenPendingReview}]`);
    expect(screen.queryByRole('button', { name: /FLAG/ })).toBeNull();
  });

  it('hides a cached line on chat_hidden (its author keeps the text) and puts it back on chat_shown', () => {
    const client = createQueryClient();
    const key = chatQuery('page').queryKey;
    const theirs = sampleChat({ id: 42, author: tank, content: 'buy pills' });
    const mine = sampleChat({ id: 41, author: neo, content: 'mine' });
    client.setQueryData(key, [theirs, mine]);
    applyChatModeration(client, 'page', { hidden: 42, userId: 7 });
    applyChatModeration(client, 'page', { hidden: 41, userId: 7 });
    expect(client.getQueryData(key)).toEqual([
      { ...theirs, hidden: true, content: '' },
      { ...mine, hidden: true },
    ]);
    applyChatModeration(client, 'page', { shown: theirs });
    expect(client.getQueryData(key)).toEqual([theirs, { ...mine, hidden: true }]);
  });
});

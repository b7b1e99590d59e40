import { API, PEOPLE_TEXTS, type PeopleList } from '@termpaste/contracts';
import { useQuery } from '@tanstack/react-query';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { expectToast, reads, renderScreen, sampleAuthor, stubApi, writes } from '../testing/index.js';
import { PeopleButtons } from './people-buttons.js';
import { PersonGate, useWithoutBlocked } from './person-gate.js';

const trinity = sampleAuthor(); // id 3
const morpheus = sampleAuthor({ id: 4, username: 'morpheus' });

const listOf = (...members: Array<typeof trinity>): PeopleList => ({
  members: members.map((member) => ({ member, createdAt: '2026-11-01T00:00:00.000Z' })),
});

/** The API with these lists; every write answers 200 with an entry of trinity. */
function stubLists(lists: { mutes?: PeopleList; blocks?: PeopleList }) {
  return stubApi(
    (url) => {
      if (url === API.userMutes) return lists.mutes ?? listOf();
      if (url === API.userBlocks) return lists.blocks ?? listOf();
      return undefined;
    },
    () => ({ body: { member: trinity, createdAt: '2026-11-02T00:00:00.000Z' } }),
    { peopleLists: 'ask' },
  );
}

function Post({ authorId, text }: { authorId: number | null; text: string }) {
  return (
    <PersonGate authorId={authorId}>
      <p>{text}</p>
    </PersonGate>
  );
}

function List({ authors }: { authors: Array<number | null> }) {
  const shown = useWithoutBlocked(authors, (id) => id);
  return (
    <output aria-label="list">
      {shown.items.join(',')} left out {shown.leftOut}
    </output>
  );
}

describe('PersonGate', () => {
  it("shows a post by anyone the member neither muted nor blocked, and a deleted account's", async () => {
    const calls = stubLists({ mutes: listOf(morpheus) });
    renderScreen(
      <>
        <Post authorId={trinity.id} text="by trinity" />
        <Post authorId={null} text="by nobody" />
      </>,
    );
    await waitFor(() => expect(reads(calls, API.userMutes)).toHaveLength(1));
    expect(screen.getByText('by trinity')).toBeInTheDocument();
    expect(screen.getByText('by nobody')).toBeInTheDocument();
  });

  it("collapses a muted member's post to one line with show, which shows it", async () => {
    stubLists({ mutes: listOf(trinity) });
    const { user } = renderScreen(<Post authorId={trinity.id} text="the muted post" />);
    expect(await screen.findByText(PEOPLE_TEXTS.mutedPost)).toBeInTheDocument();
    expect(screen.queryByText('the muted post')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: `[${PEOPLE_TEXTS.show}]` }));
    expect(screen.getByText('the muted post')).toBeInTheDocument();
    expect(screen.queryByText(PEOPLE_TEXTS.mutedPost)).not.toBeInTheDocument();
  });

  it("leaves out a blocked member's post, with a line and no show (a block wins over a mute)", async () => {
    stubLists({ mutes: listOf(trinity), blocks: listOf(trinity) });
    renderScreen(<Post authorId={trinity.id} text="the blocked post" />);
    expect(await screen.findByText(PEOPLE_TEXTS.blockedPost)).toBeInTheDocument();
    expect(screen.queryByText('the blocked post')).not.toBeInTheDocument();
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
  });

  it('reads no list for a visitor, and shows everything', () => {
    const calls = stubLists({ blocks: listOf(trinity) });
    renderScreen(<Post authorId={trinity.id} text="public" />, { user: null });
    expect(screen.getByText('public')).toBeInTheDocument();
    expect(calls).toEqual([]);
  });
});

describe('useWithoutBlocked', () => {
  it("drops blocked members' items and counts them", async () => {
    stubLists({ blocks: listOf(trinity), mutes: listOf(morpheus) });
    renderScreen(<List authors={[3, 4, null, 3, 5]} />);
    await waitFor(() =>
      expect(screen.getByRole('status', { name: 'list' })).toHaveTextContent('4,,5 left out 2'),
    );
  });
});

describe('PeopleButtons', () => {
  it('mutes a member: PUT, a toast, the list read again', async () => {
    const calls = stubLists({});
    const { user } = renderScreen(<PeopleButtons member={trinity} />);
    await user.click(await screen.findByRole('button', { name: PEOPLE_TEXTS.mute }));
    await expectToast(PEOPLE_TEXTS.mutedToast('trinity'));
    expect(writes(calls)).toEqual([expect.objectContaining({ method: 'PUT', url: API.userMute(3) })]);
    await waitFor(() => expect(reads(calls, API.userMutes)).toHaveLength(2));
  });

  it('unmutes and unblocks a member on the lists: DELETE', async () => {
    const calls = stubLists({ mutes: listOf(trinity), blocks: listOf(trinity) });
    const { user } = renderScreen(<PeopleButtons member={trinity} />);
    await user.click(await screen.findByRole('button', { name: PEOPLE_TEXTS.unmute }));
    await expectToast(PEOPLE_TEXTS.unmutedToast('trinity'));
    await user.click(screen.getByRole('button', { name: PEOPLE_TEXTS.unblock }));
    await expectToast(PEOPLE_TEXTS.unblockedToast('trinity'));
    expect(writes(calls).map((call) => `${call.method} ${call.url}`)).toEqual([
      `DELETE ${API.userMute(3)}`,
      `DELETE ${API.userBlock(3)}`,
    ]);
  });

  it('blocks after a confirmation; cancelled, nothing is sent', async () => {
    const calls = stubLists({});
    const { user } = renderScreen(<PeopleButtons member={trinity} />);
    await user.click(await screen.findByRole('button', { name: PEOPLE_TEXTS.block }));
    await screen.findByRole('alertdialog', { name: PEOPLE_TEXTS.confirmBlock('trinity') });
    await user.click(screen.getByRole('button', { name: 'CANCEL' }));
    expect(writes(calls)).toEqual([]);
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    await user.click(screen.getByRole('button', { name: PEOPLE_TEXTS.block }));
    const dialog = await screen.findByRole('alertdialog');
    await user.click(within(dialog).getByRole('button', { name: PEOPLE_TEXTS.block }));
    await expectToast(PEOPLE_TEXTS.blockedToast('trinity'));
    expect(writes(calls)).toEqual([expect.objectContaining({ method: 'PUT', url: API.userBlock(3) })]);
  });

  it('reads the inbox and the notifications again after a block, not after a mute', async () => {
    const calls = stubApi(
      (url) => {
        if (url === API.userMutes || url === API.userBlocks) return listOf();
        if (url === API.messages) return { messages: [], nextCursor: null };
        if (url === API.notifications) return { notifications: [], nextCursor: null, unreadCount: 0 };
        if (url === API.notificationsUnreadCount) return 0;
        return undefined;
      },
      () => ({ body: { member: trinity, createdAt: '2026-11-02T00:00:00.000Z' } }),
      { peopleLists: 'ask' },
    );
    const read = (url: string) => ({
      queryKey: [url],
      queryFn: () => fetch(url).then((res) => res.json() as Promise<unknown>),
    });
    function Mailbox() {
      useQuery(read(API.messages));
      useQuery(read(API.notifications));
      useQuery(read(API.notificationsUnreadCount));
      return <PeopleButtons member={trinity} />;
    }
    const { user } = renderScreen(<Mailbox />);
    const watched = [API.messages, API.notifications, API.notificationsUnreadCount];
    const readCounts = () => watched.map((url) => reads(calls, url).length);
    await waitFor(() => expect(readCounts()).toEqual([1, 1, 1]));
    await user.click(await screen.findByRole('button', { name: PEOPLE_TEXTS.mute }));
    await expectToast(PEOPLE_TEXTS.mutedToast('trinity'));
    expect(readCounts()).toEqual([1, 1, 1]);
    await user.click(screen.getByRole('button', { name: PEOPLE_TEXTS.block }));
    const dialog = await screen.findByRole('alertdialog');
    await user.click(within(dialog).getByRole('button', { name: PEOPLE_TEXTS.block }));
    await expectToast(PEOPLE_TEXTS.blockedToast('trinity'));
    await waitFor(() => expect(readCounts()).toEqual([2, 2, 2]));
  });

  it('offers MUTE but no BLOCK for staff', async () => {
    stubLists({});
    renderScreen(<PeopleButtons member={{ ...trinity, isAdmin: true }} />);
    expect(await screen.findByRole('button', { name: PEOPLE_TEXTS.mute })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: PEOPLE_TEXTS.block })).not.toBeInTheDocument();
  });

  it('shows nothing on their own profile, nor to a visitor', () => {
    stubLists({});
    renderScreen(<PeopleButtons member={{ ...trinity, id: 7 }} />);
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
    cleanup();
    renderScreen(<PeopleButtons member={trinity} />, { user: null });
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
  });

  it('shows the refusal of the server in a toast', async () => {
    stubApi(
      (url) => (url === API.userMutes || url === API.userBlocks ? listOf() : undefined),
      () => ({ status: 400, body: { statusCode: 400, message: 'Staff cannot be blocked' } }),
      { peopleLists: 'ask' },
    );
    const { user } = renderScreen(<PeopleButtons member={trinity} />);
    await user.click(await screen.findByRole('button', { name: PEOPLE_TEXTS.mute }));
    await expectToast('Error', 'Staff cannot be blocked');
  });
});

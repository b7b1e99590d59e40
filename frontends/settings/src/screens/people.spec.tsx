import { API, PEOPLE_TEXTS, type PeopleList } from '@termpaste/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { expectToast, minutesAgo, reads, renderScreen, sampleAuthor, stubApi, writes } from '../testing';
import { PeopleScreen } from './people';

const trinity = sampleAuthor();
const morpheus = sampleAuthor({ id: 4, username: 'morpheus' });
const listOf = (...members: Array<typeof trinity>): PeopleList => ({
  members: members.map((member, i) => ({ member, createdAt: minutesAgo(10 + i) })),
});

describe('/settings/people', () => {
  it('lists the muted and the blocked members, each with its undo', async () => {
    stubApi(
      (url) =>
        url === API.userMutes ? listOf(trinity, morpheus) : url === API.userBlocks ? listOf() : undefined,
      undefined,
      { peopleLists: 'ask' },
    );
    renderScreen(<PeopleScreen />, { path: '/settings/people' });
    const muted = await screen.findByRole('list', { name: PEOPLE_TEXTS.mutedTitle });
    expect(
      within(muted)
        .getAllByRole('listitem')
        .map((item) => item.getAttribute('aria-label')),
    ).toEqual(['trinity', 'morpheus']);
    expect(within(muted).getByRole('link', { name: 'trinity' })).toHaveAttribute('href', '/profile/3');
    expect(within(muted).getByRole('button', { name: `${PEOPLE_TEXTS.unmute} trinity` })).toBeVisible();
    expect(screen.getByText(PEOPLE_TEXTS.noBlocks)).toBeInTheDocument();
    expect(screen.getByText(PEOPLE_TEXTS.mutedHelp)).toBeInTheDocument();
    expect(screen.getByText(PEOPLE_TEXTS.blockedHelp)).toBeInTheDocument();
  });

  it('UNBLOCK takes a member off: DELETE, a toast, the list read again', async () => {
    const calls = stubApi(
      (url) => (url === API.userBlocks ? listOf(morpheus) : url === API.userMutes ? listOf() : undefined),
      () => ({ status: 204, body: '' }),
      { peopleLists: 'ask' },
    );
    const { user } = renderScreen(<PeopleScreen />, { path: '/settings/people' });
    await user.click(await screen.findByRole('button', { name: `${PEOPLE_TEXTS.unblock} morpheus` }));
    await expectToast(PEOPLE_TEXTS.unblockedToast('morpheus'));
    expect(writes(calls).map((call) => `${call.method} ${call.url}`)).toEqual([`DELETE ${API.userBlock(4)}`]);
    await waitFor(() => expect(reads(calls, API.userBlocks)).toHaveLength(2));
    expect(screen.getByText(PEOPLE_TEXTS.noMutes)).toBeInTheDocument();
  });
});

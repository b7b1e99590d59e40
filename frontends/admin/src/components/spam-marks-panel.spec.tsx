import { API } from '@termpaste/contracts';
import { MODERATION_TEXTS, type SpamMark } from '@termpaste/contracts/moderation';
import { screen, waitFor, within } from '@testing-library/react';
import { AdminScreen } from '../screens/admin';
import {
  adminViewer,
  expectToast,
  minutesAgo,
  renderScreen,
  stubFetch,
  urls,
  type FetchCall,
} from '../testing';

function mark(overrides: Partial<SpamMark> = {}): SpamMark {
  return {
    id: 7,
    kind: 'domain',
    value: 'cheap-pills.example',
    createdAt: minutesAgo(5),
    spammer: 'spambot',
    ...overrides,
  };
}

/** /admin?tab=spam with the marks answered from `state`, and writes by `onWrite` (a status to answer). */
function renderMarks(state: { marks: SpamMark[] }, onWrite: (call: FetchCall) => number = () => 204) {
  const calls = stubFetch((call) => {
    if (call.method === 'GET' && call.url.startsWith(API.adminSpamMarks)) {
      return { body: { marks: state.marks, nextCursor: null } };
    }
    if (call.method === 'GET') return { body: { entries: [], nextCursor: null } };
    const status = onWrite(call);
    return status === 204 ? { status, body: '' } : { status, body: { message: 'Spam mark not found' } };
  });
  const { user } = renderScreen(<AdminScreen />, { path: '/admin?tab=spam', user: adminViewer() });
  return { calls, user };
}

const rows = () =>
  within(screen.getByRole('table', { name: 'Spam marks' }))
    .getAllByRole('row')
    .slice(1);

describe('SPAM MARKS tab', () => {
  it('is a tab of its own, kept in the address, and says when there is none', async () => {
    renderMarks({ marks: [] });
    expect(screen.getByRole('tab', { name: MODERATION_TEXTS.spamMarks })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    expect(await screen.findByText(MODERATION_TEXTS.spamMarksEmpty)).toBeInTheDocument();
  });

  it('lists each mark: when, its kind, the domain or the start of the hash, and the spammer', async () => {
    const { calls } = renderMarks({
      marks: [mark(), mark({ id: 6, kind: 'address', value: '0123456789ab', spammer: null })],
    });
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(urls(calls)).toContain(API.adminSpamMarks);
    const [domain, address] = rows();
    expect(domain).toHaveTextContent(/domain.*cheap-pills\.example.*spambot.*FORGET/);
    expect(address).toHaveTextContent(/address.*sha256:0123456789ab….*unknown/);
  });

  it('forgets after the confirmation only, then toasts and reads the marks again', async () => {
    const state = { marks: [mark()] };
    const writes: FetchCall[] = [];
    const { user, calls } = renderMarks(state, (call) => {
      writes.push(call);
      state.marks = [];
      return 204;
    });
    await waitFor(() => expect(rows()).toHaveLength(1));
    const button = () => screen.getByRole('button', { name: 'FORGET domain cheap-pills.example' });
    await user.click(button());
    let dialog = await screen.findByRole('alertdialog', { name: MODERATION_TEXTS.forgetTitle });
    await user.click(within(dialog).getByRole('button', { name: 'CANCEL' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(writes).toHaveLength(0);

    await user.click(button());
    dialog = await screen.findByRole('alertdialog', { name: MODERATION_TEXTS.forgetTitle });
    expect(dialog).toHaveTextContent(MODERATION_TEXTS.forgetDetail);
    await user.click(within(dialog).getByRole('button', { name: MODERATION_TEXTS.forget }));
    await expectToast(MODERATION_TEXTS.spamMarkForgotten);
    expect(writes.map((call) => [call.method, call.url])).toEqual([['DELETE', API.adminSpamMark(7)]]);
    expect(await screen.findByText(MODERATION_TEXTS.spamMarksEmpty)).toBeInTheDocument();
    expect(urls(calls).filter((url) => url === API.adminSpamMarks).length).toBeGreaterThanOrEqual(2);
  });

  it("shows the server's refusal in a toast", async () => {
    const { user } = renderMarks({ marks: [mark()] }, () => 404);
    await waitFor(() => expect(rows()).toHaveLength(1));
    await user.click(screen.getByRole('button', { name: 'FORGET domain cheap-pills.example' }));
    const dialog = await screen.findByRole('alertdialog', { name: MODERATION_TEXTS.forgetTitle });
    await user.click(within(dialog).getByRole('button', { name: MODERATION_TEXTS.forget }));
    await expectToast(MODERATION_TEXTS.forgetFailed, 'Spam mark not found');
  });
});

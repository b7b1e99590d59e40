import { FLAG_NOTE_MAX, MODERATION_MESSAGES, type MyFlag } from '@termpaste/contracts/moderation';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { expectToast, renderScreen, stubFetch, type FetchCall } from '../testing/index.js';
import { FlagButton } from './flag-button.js';
import { flagFormError } from './flag-dialog.js';

function flag(overrides: Partial<MyFlag> = {}): MyFlag {
  return {
    id: 1,
    targetType: 'paste',
    targetId: 5,
    reason: 'spam',
    note: null,
    status: 'open',
    createdAt: '2026-11-27T10:00:00.000Z',
    ...overrides,
  };
}

/** FLAG on paste 5, with the member's flags and the answer to POST /api/flags from the test. */
function renderFlag(
  options: {
    mine?: MyFlag[];
    post?: (call: FetchCall) => { status?: number; body?: unknown };
    user?: null;
    targetId?: number | string;
  } = {},
) {
  const state = { mine: options.mine ?? [] };
  const calls = stubFetch((call) => {
    if (call.method === 'GET' && call.url === '/api/flags/mine') return { body: { flags: state.mine } };
    if (call.method === 'POST' && call.url === '/api/flags') {
      const answer = options.post?.(call) ?? { status: 201, body: flag() };
      if ((answer.status ?? 200) < 300) state.mine = [flag(call.body as Partial<MyFlag>), ...state.mine];
      return answer;
    }
    return { status: 404, body: 'not stubbed' };
  });
  const rendered = renderScreen(
    <FlagButton targetType="paste" targetId={options.targetId ?? 5} what="paste nmap cheatsheet" />,
    {
      ...(options.user === null ? { user: null } : {}),
    },
  );
  return { ...rendered, calls };
}

const posts = (calls: FetchCall[]) => calls.filter((call) => call.method === 'POST');

describe('flagFormError', () => {
  it('asks for a reason, a note for "other", and at most FLAG_NOTE_MAX characters', () => {
    expect(flagFormError(null, '')).toBe('Choose a reason');
    expect(flagFormError('spam', '')).toBeNull();
    expect(flagFormError('other', '   ')).toBe(MODERATION_MESSAGES.noteRequired);
    expect(flagFormError('other', 'it is a phishing page')).toBeNull();
    expect(flagFormError('spam', 'x'.repeat(FLAG_NOTE_MAX))).toBeNull();
    expect(flagFormError('spam', 'x'.repeat(FLAG_NOTE_MAX + 1))).toBe(MODERATION_MESSAGES.noteTooLong);
  });
});

describe('FlagButton and the flag dialog', () => {
  it('is not shown to a visitor, and asks nothing', async () => {
    const { calls } = renderFlag({ user: null });
    // Once the lazy button has loaded, not before.
    await act(async () => {
      await import('./flag-dialog.js');
    });
    expect(screen.queryByRole('button', { name: /FLAG/ })).not.toBeInTheDocument();
    expect(calls).toEqual([]);
  });

  it('reads FLAGGED, disabled, for an item the member flagged', async () => {
    renderFlag({ mine: [flag({ targetType: 'reply', targetId: 5 }), flag({ id: 2 })] });
    const flagged = await screen.findByRole('button', { name: 'FLAGGED paste nmap cheatsheet' });
    expect(flagged).toBeDisabled();
  });

  it("names an unlisted paste by its key: sends it, and reads FLAGGED by the key in the member's flags", async () => {
    const key = 'k'.repeat(22);
    const { user, calls } = renderFlag({ targetId: key, mine: [flag({ targetId: 5 })] });
    await user.click(await screen.findByRole('button', { name: 'FLAG paste nmap cheatsheet' }));
    const dialog = await screen.findByRole('dialog', { name: 'Flag for the staff' });
    await user.click(within(dialog).getByRole('radio', { name: 'Spam' }));
    await user.click(within(dialog).getByRole('button', { name: 'SEND' }));
    expect(await screen.findByRole('button', { name: 'FLAGGED paste nmap cheatsheet' })).toBeDisabled();
    expect(posts(calls).map((call) => call.body)).toEqual([
      { targetType: 'paste', targetId: key, reason: 'spam' },
    ]);
  });

  it('offers every reason, sends the chosen one, toasts and turns FLAGGED', async () => {
    const { user, calls } = renderFlag();
    await user.click(await screen.findByRole('button', { name: 'FLAG paste nmap cheatsheet' }));
    const dialog = await screen.findByRole('dialog', { name: 'Flag for the staff' });
    expect(within(dialog).getByText('paste nmap cheatsheet')).toBeInTheDocument();
    expect(
      within(dialog)
        .getAllByRole('radio')
        .map((radio) => radio.parentElement?.textContent),
    ).toEqual([
      'Spam',
      'Abuse or harassment',
      'A leaked secret or personal data',
      'Illegal content',
      'Off-topic',
      'Something else',
    ]);
    // The keyboard reaches the reasons and the note.
    await user.click(within(dialog).getByRole('radio', { name: 'Spam' }));
    await user.type(within(dialog).getByRole('textbox', { name: 'Note (optional)' }), '  buy pills  ');
    await user.click(within(dialog).getByRole('button', { name: 'SEND' }));

    await expectToast('Flag sent. The staff will review it.');
    expect(posts(calls).map((call) => call.body)).toEqual([
      { targetType: 'paste', targetId: 5, reason: 'spam', note: 'buy pills' },
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await screen.findByRole('button', { name: 'FLAGGED paste nmap cheatsheet' })).toBeDisabled();
  });

  it('asks for a reason, and for a note with "something else", before sending', async () => {
    const { user, calls } = renderFlag();
    await user.click(await screen.findByRole('button', { name: 'FLAG paste nmap cheatsheet' }));
    const dialog = await screen.findByRole('dialog', { name: 'Flag for the staff' });
    await user.click(within(dialog).getByRole('button', { name: 'SEND' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Choose a reason');

    await user.click(within(dialog).getByRole('radio', { name: 'Something else' }));
    const note = within(dialog).getByRole('textbox', { name: 'Note' });
    expect(note).toHaveAttribute('aria-required', 'true');
    await user.click(within(dialog).getByRole('button', { name: 'SEND' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent(MODERATION_MESSAGES.noteRequired);
    expect(note).toHaveAttribute('aria-invalid', 'true');
    expect(posts(calls)).toEqual([]);

    await user.type(note, 'a phishing page');
    await user.click(within(dialog).getByRole('button', { name: 'SEND' }));
    await expectToast('Flag sent. The staff will review it.');
    expect(posts(calls).map((call) => call.body)).toEqual([
      { targetType: 'paste', targetId: 5, reason: 'other', note: 'a phishing page' },
    ]);
  });

  it(`counts the note and refuses more than ${FLAG_NOTE_MAX} characters`, async () => {
    const { user, calls } = renderFlag();
    await user.click(await screen.findByRole('button', { name: 'FLAG paste nmap cheatsheet' }));
    const dialog = await screen.findByRole('dialog', { name: 'Flag for the staff' });
    expect(within(dialog).getByText(`0/${FLAG_NOTE_MAX}`)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('radio', { name: 'Abuse or harassment' }));
    const note = within(dialog).getByRole('textbox', { name: 'Note (optional)' });
    fireEvent.change(note, { target: { value: 'x'.repeat(FLAG_NOTE_MAX + 1) } });
    expect(within(dialog).getByText(`${FLAG_NOTE_MAX + 1}/${FLAG_NOTE_MAX}`)).toBeInTheDocument();
    expect(note).toHaveAttribute('aria-invalid', 'true');
    await user.click(within(dialog).getByRole('button', { name: 'SEND' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent(MODERATION_MESSAGES.noteTooLong);
    expect(posts(calls)).toEqual([]);
  });

  it("shows the server's refusal in the dialog, which stays open", async () => {
    const { user } = renderFlag({
      post: () => ({ status: 429, body: { statusCode: 429, message: MODERATION_MESSAGES.flagsRateLimited } }),
    });
    await user.click(await screen.findByRole('button', { name: 'FLAG paste nmap cheatsheet' }));
    const dialog = await screen.findByRole('dialog', { name: 'Flag for the staff' });
    await user.click(within(dialog).getByRole('radio', { name: 'Off-topic' }));
    await user.click(within(dialog).getByRole('button', { name: 'SEND' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(MODERATION_MESSAGES.flagsRateLimited);
    expect(screen.getByRole('dialog', { name: 'Flag for the staff' })).toBeInTheDocument();
  });

  it('closes on CANCEL without sending, and opens again empty', async () => {
    const { user, calls } = renderFlag();
    await user.click(await screen.findByRole('button', { name: 'FLAG paste nmap cheatsheet' }));
    let dialog = await screen.findByRole('dialog', { name: 'Flag for the staff' });
    await user.click(within(dialog).getByRole('radio', { name: 'Spam' }));
    await user.click(within(dialog).getByRole('button', { name: 'CANCEL' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(posts(calls)).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'FLAG paste nmap cheatsheet' }));
    dialog = await screen.findByRole('dialog', { name: 'Flag for the staff' });
    expect(within(dialog).getByRole('radio', { name: 'Spam' })).not.toBeChecked();
  });
});

import { type AdminUser, type CurrentUser } from '@termpaste/contracts';
import {
  MODERATION_MESSAGES,
  SUSPENSION_CHOICES,
  SUSPENSION_REASON_MAX,
} from '@termpaste/contracts/moderation';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { AdminScreen } from '../screens/admin';
import {
  actionLabels,
  adminApi,
  adminViewer,
  expectToast,
  renderScreen,
  tankRow,
  trinityRow,
  userRow,
  writes,
  type AdminState,
} from '../testing';
import {
  banBody,
  SuspensionFields,
  suspensionProblem,
  type SuspensionValue,
  untilLabel,
} from './suspension-fields';

function renderAdmin(viewer: CurrentUser, state: AdminState) {
  const calls = adminApi(state);
  const { user } = renderScreen(<AdminScreen />, { path: '/admin', user: viewer });
  return { calls, user };
}

const dialogClosed = () => waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
const LATER = '2099-03-04T05:06:00.000Z';

describe('the BAN and SILENCE prompts, and what the row says', () => {
  it('BAN asks for a duration (every choice, for ever first) and a reason, and sends them', async () => {
    const { calls, user } = renderAdmin(adminViewer(), { users: [trinityRow()] });
    await user.click(
      await within(await screen.findByRole('row', { name: 'trinity' })).findByRole('button', { name: 'BAN' }),
    );
    const dialog = await screen.findByRole('alertdialog', { name: 'Ban trinity?' });
    const duration = within(dialog).getByRole('combobox', { name: 'Duration' });
    expect(
      within(duration)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(SUSPENSION_CHOICES.map((choice) => choice.label));
    expect(duration).toHaveDisplayValue('Forever');
    await user.selectOptions(duration, '1 day');
    await user.type(within(dialog).getByRole('textbox', { name: /Reason/ }), '  Spam links  ');
    expect(within(dialog).getByText(`14/${SUSPENSION_REASON_MAX}`)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'BAN' }));
    await expectToast('User banned', 'trinity');
    expect(writes(calls)).toEqual([
      { method: 'POST', url: '/api/admin/users/3/ban', body: { days: 1, reason: 'Spam links' } },
    ]);
  });

  it('SILENCE offers no "Forever", asks again while the reason is missing, then sends the terms', async () => {
    const { calls, user } = renderAdmin(adminViewer(), { users: [trinityRow()] });
    await user.click(
      await within(await screen.findByRole('row', { name: 'trinity' })).findByRole('button', {
        name: 'SILENCE',
      }),
    );
    let dialog = await screen.findByRole('alertdialog', { name: 'Silence trinity?' });
    const labels = within(within(dialog).getByRole('combobox', { name: 'Duration' }))
      .getAllByRole('option')
      .map((option) => option.textContent);
    expect(labels).toEqual(SUSPENSION_CHOICES.filter((c) => c.days !== null).map((c) => c.label));
    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Duration' }), '1 week');
    await user.click(within(dialog).getByRole('button', { name: 'SILENCE' }));

    // Back, with the problem said and the duration kept; nothing sent.
    await waitFor(() =>
      expect(screen.getByRole('alert')).toHaveTextContent(MODERATION_MESSAGES.reasonRequired),
    );
    dialog = screen.getByRole('alertdialog', { name: 'Silence trinity?' });
    expect(within(dialog).getByRole('combobox', { name: 'Duration' })).toHaveDisplayValue('1 week');
    expect(within(dialog).getByRole('textbox', { name: /Reason/ })).toHaveAttribute('aria-invalid', 'true');
    expect(writes(calls)).toEqual([]);

    await user.type(within(dialog).getByRole('textbox', { name: /Reason/ }), 'Cool off');
    await user.click(within(dialog).getByRole('button', { name: 'SILENCE' }));
    await expectToast('User silenced', 'trinity');
    expect(writes(calls)).toEqual([
      { method: 'POST', url: '/api/admin/users/3/silence', body: { days: 7, reason: 'Cool off' } },
    ]);
  });

  it('cancelling either prompt sends nothing', async () => {
    const { calls, user } = renderAdmin(adminViewer(), { users: [trinityRow()] });
    for (const [label, prompt] of [
      ['BAN', 'Ban trinity?'],
      ['SILENCE', 'Silence trinity?'],
    ] as const) {
      await user.click(
        await within(await screen.findByRole('row', { name: 'trinity' })).findByRole('button', {
          name: label,
        }),
      );
      const dialog = await screen.findByRole('alertdialog', { name: prompt });
      await user.click(within(dialog).getByRole('button', { name: 'CANCEL' }));
      await dialogClosed();
    }
    expect(writes(calls)).toEqual([]);
  });

  it('a banned row says until when and why; a silenced one SILENCED, its end and reason, and offers UNSILENCE', async () => {
    const users: AdminUser[] = [
      { ...tankRow(), bannedUntil: LATER, banReason: 'Spam links' },
      { ...trinityRow(), silencedUntil: LATER, silenceReason: 'Cool off' },
      { ...tankRow(), id: 10, username: 'dozer', email: 'dozer@zion.example', banReason: 'For good' },
    ];
    const { calls, user } = renderAdmin(adminViewer(), { users });
    await screen.findByRole('row', { name: 'tank' });
    const status = (name: string) => within(userRow(name)).getAllByRole('cell')[2]!;
    expect(status('tank')).toHaveTextContent(`BANNEDbanned until ${untilLabel(LATER)}Spam links`);
    expect(status('trinity')).toHaveTextContent(`ACTIVESILENCEDsilenced until 2099-03-04 05:06 UTCCool off`);
    expect(status('dozer')).toHaveTextContent('BANNEDbanned for everFor good');
    expect(actionLabels('trinity')).toContain('UNSILENCE');
    expect(actionLabels('trinity')).not.toContain('SILENCE');

    await user.click(within(userRow('trinity')).getByRole('button', { name: 'UNSILENCE' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Unsilence trinity?' });
    await user.click(within(dialog).getByRole('button', { name: 'UNSILENCE' }));
    await expectToast('User unsilenced', 'trinity');
    expect(writes(calls)).toEqual([{ method: 'POST', url: '/api/admin/users/3/unsilence', body: undefined }]);
  });

  it('DELETE SPAMMER says what goes and what is remembered, then deletes in one call', async () => {
    const { calls, user } = renderAdmin(adminViewer(), { users: [trinityRow()] });
    await user.click(
      await within(await screen.findByRole('row', { name: 'trinity' })).findByRole('button', {
        name: 'DELETE SPAMMER',
      }),
    );
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete trinity as a spammer?' });
    expect(dialog).toHaveTextContent('all their pastes, replies and chat messages');
    expect(dialog).toHaveTextContent('remembered as a hash');
    await user.click(within(dialog).getByRole('button', { name: 'DELETE SPAMMER' }));
    await expectToast('Spammer deleted', 'trinity');
    expect(writes(calls)).toEqual([{ method: 'POST', url: '/api/admin/users/3/spammer', body: undefined }]);
  });
});

describe('SuspensionFields, for other screens (the review queue)', () => {
  function Harness({
    initial,
    onValue,
  }: {
    initial: SuspensionValue;
    onValue: (v: SuspensionValue) => void;
  }) {
    const [value, setValue] = useState(initial);
    return (
      <SuspensionFields
        kind="ban"
        value={value}
        error={suspensionProblem('ban', value)}
        onChange={(next) => {
          setValue(next);
          onValue(next);
        }}
      />
    );
  }

  it('is controlled, and shows the problem a value has', async () => {
    const seen: SuspensionValue[] = [];
    render(<Harness initial={{ days: 3, reason: '' }} onValue={(v) => seen.push(v)} />);
    expect(screen.getByRole('combobox', { name: 'Duration' })).toHaveDisplayValue('3 days');
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Duration' }), 'Forever');
    expect(seen.at(-1)).toEqual({ days: null, reason: '' });
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(banBody({ days: null, reason: ' ' })).toBeUndefined();
    expect(banBody({ days: 30, reason: ' why ' })).toEqual({ days: 30, reason: 'why' });
    expect(suspensionProblem('ban', { days: 1, reason: 'x'.repeat(SUSPENSION_REASON_MAX + 1) })).toBe(
      MODERATION_MESSAGES.reasonTooLong,
    );
    expect(suspensionProblem('silence', { days: 1, reason: '' })).toBe(MODERATION_MESSAGES.reasonRequired);
  });
});

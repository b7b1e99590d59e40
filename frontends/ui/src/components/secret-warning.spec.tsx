import { createdSchema, SECRETS_MESSAGES, type SecretFindingsBody } from '@termpaste/contracts';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { useEffect, useState, type FormEvent } from 'react';
import { sendJson } from '../api/client.js';
import { isSecretWarningDismissed, secretFindingsOf, withAllowSecrets } from '../api/secrets.js';
import { stubFetch } from '../testing/fetch.js';
import { SecretWarningDialog } from './secret-warning-dialog.js';
import { SecretWarningProvider, useSecretWarning } from './secret-warning.js';

const FOUND: SecretFindingsBody = {
  statusCode: 422,
  message: SECRETS_MESSAGES.found(2),
  findings: [
    { rule: 'aws:AWSAccessKeyID', line: 3, column: 28, masked: `AKIA${'*'.repeat(16)}` },
    { rule: 'termpaste:AccessToken', line: 9, column: 1, masked: `tp_Z${'*'.repeat(32)}` },
  ],
};

/** A form that posts its text through the warning, and says how the call ended. */
function Harness() {
  const guard = useSecretWarning();
  const [text, setText] = useState('my key');
  const [result, setResult] = useState('none');
  const [sending, setSending] = useState(false);
  // Chromium drops the focus of a button that becomes disabled (jsdom keeps it): do as it does.
  useEffect(() => {
    if (sending && document.activeElement instanceof HTMLButtonElement) document.activeElement.blur();
  }, [sending]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    // As the forms do: their fields are disabled while the call is out (the button loses the focus).
    setSending(true);
    guard((allowSecrets) =>
      sendJson('POST', '/api/threads', createdSchema, withAllowSecrets({ content: text }, allowSecrets)),
    )
      .then(
        (created) => setResult(`created ${created.id}`),
        (error: unknown) =>
          setResult(isSecretWarningDismissed(error) ? 'dismissed' : `failed ${String(error)}`),
      )
      // The form re-enables its fields a moment after the call failed (a render or two later).
      .finally(() => setTimeout(() => setSending(false), 50));
  };
  return (
    <form onSubmit={submit}>
      <fieldset disabled={sending}>
        <textarea aria-label="Content" value={text} onChange={(event) => setText(event.target.value)} />
        <button type="submit">ADD PASTE</button>
      </fieldset>
      <output>{result}</output>
    </form>
  );
}

function setup(answer: (body: unknown) => { status: number; body: unknown }) {
  const calls = stubFetch((call) => answer(call.body));
  render(
    <SecretWarningProvider>
      <Harness />
    </SecretWarningProvider>,
  );
  return { calls, user: userEvent.setup() };
}

/** 422 with the findings, unless the body says allowSecrets. */
const scanning = (body: unknown) =>
  (body as { allowSecrets?: boolean }).allowSecrets
    ? { status: 201, body: { id: 42 } }
    : { status: 422, body: FOUND };

describe('SecretWarningDialog', () => {
  it('lists each finding (kind, line, column, masked value) in a dialog named by its title', async () => {
    const { user } = setup(scanning);
    await user.click(screen.getByRole('button', { name: 'ADD PASTE' }));

    const dialog = await screen.findByRole('dialog', { name: SECRETS_MESSAGES.dialogTitle });
    expect(dialog).toHaveAccessibleDescription(`${SECRETS_MESSAGES.dialogIntro} ${FOUND.message}`);
    const items = within(within(dialog).getByRole('list', { name: 'Possible secrets' })).getAllByRole(
      'listitem',
    );
    expect(items.map((item) => item.textContent)).toEqual([
      `AWS access key IDline 3, col 28AKIA${'*'.repeat(16)}`,
      `Termpaste access tokenline 9, col 1tp_Z${'*'.repeat(32)}`,
    ]);
  });

  it('PUBLISH ANYWAY sends the text again with allowSecrets', async () => {
    const { calls, user } = setup(scanning);
    await user.click(screen.getByRole('button', { name: 'ADD PASTE' }));
    await user.click(await screen.findByRole('button', { name: SECRETS_MESSAGES.publishAnyway }));

    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('created 42'));
    expect(calls.map((call) => call.body)).toEqual([
      { content: 'my key' },
      { content: 'my key', allowSecrets: true },
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('EDIT closes it, sends nothing more, and puts the focus back in the text', async () => {
    const { calls, user } = setup(scanning);
    await user.click(screen.getByRole('button', { name: 'ADD PASTE' }));
    await user.click(await screen.findByRole('button', { name: SECRETS_MESSAGES.edit }));

    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('dismissed'));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'Content' })).toHaveFocus());
    expect(calls).toHaveLength(1);
  });

  it('Escape is EDIT', async () => {
    const { calls, user } = setup(scanning);
    await user.click(screen.getByRole('button', { name: 'ADD PASTE' }));
    await screen.findByRole('dialog');

    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('dismissed'));
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'Content' })).toHaveFocus());
    expect(calls).toHaveLength(1);
  });

  it('keeps the focus inside, starting on EDIT', async () => {
    const { user } = setup(scanning);
    await user.click(screen.getByRole('button', { name: 'ADD PASTE' }));
    await screen.findByRole('dialog');

    await waitFor(() => expect(screen.getByRole('button', { name: SECRETS_MESSAGES.edit })).toHaveFocus());
    await user.tab();
    expect(screen.getByRole('button', { name: SECRETS_MESSAGES.publishAnyway })).toHaveFocus();
    await user.tab();
    expect(screen.getByRole('button', { name: SECRETS_MESSAGES.edit })).toHaveFocus();
  });

  it('leaves every other error to the form, as it came', async () => {
    const { calls, user } = setup(() => ({
      status: 400,
      body: { statusCode: 400, message: 'Title is required' },
    }));
    await user.click(screen.getByRole('button', { name: 'ADD PASTE' }));

    await waitFor(() =>
      expect(screen.getByRole('status')).toHaveTextContent(
        'failed Error: 400: {"statusCode":400,"message":"Title is required"}',
      ),
    );
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(calls).toHaveLength(1);
  });

  it('shows hostile values as text', async () => {
    const onEdit = jest.fn();
    render(
      <SecretWarningDialog
        open
        body={{
          message: '<b>bold</b>',
          findings: [
            { rule: '<script>x</script>', line: 1, column: 1, masked: '<img src=x onerror=alert(1)>' },
          ],
        }}
        onEdit={onEdit}
        onPublish={() => undefined}
      />,
    );
    const dialog = await screen.findByRole('dialog');
    expect(dialog.querySelector('img, script, b')).toBeNull();
    expect(dialog).toHaveTextContent('<img src=x onerror=alert(1)>');
    await act(async () => {
      await userEvent.setup().click(screen.getByRole('button', { name: SECRETS_MESSAGES.edit }));
    });
    expect(onEdit).toHaveBeenCalledTimes(1);
  });
});

describe('secretFindingsOf', () => {
  it("reads a 422's findings", () => {
    expect(secretFindingsOf(new Error(`422: ${JSON.stringify(FOUND)}`))).toEqual(FOUND);
  });

  it('is null for anything else', () => {
    expect(secretFindingsOf(new Error(`400: ${JSON.stringify(FOUND)}`))).toBeNull();
    expect(secretFindingsOf(new Error('422: {"statusCode":422,"message":"Unprocessable"}'))).toBeNull();
    expect(secretFindingsOf(new Error('422: not json'))).toBeNull();
    expect(secretFindingsOf('422: {}')).toBeNull();
  });
});

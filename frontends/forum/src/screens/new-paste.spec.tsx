import { MODERATION_MESSAGES, MODERATION_TEXTS } from '@termpaste/contracts/moderation';
import { sampleCurrentUser } from '@termpaste/contracts/testing';
import { act, screen, waitFor } from '@testing-library/react';
import { expectToast, renderScreen, stubFetch, type FetchAnswer } from '../testing';
import { NewPasteScreen } from './new-paste';

function renderNewPaste() {
  const { user } = renderScreen(<NewPasteScreen />, { path: '/thread/new' });
  return {
    user,
    title: screen.getByRole('textbox', { name: 'Title' }),
    content: screen.getByRole('textbox', { name: 'Content' }),
    submit: () => screen.getByRole('button', { name: /ADD PASTE|SUBMITTING/ }),
  };
}

describe('add paste (/thread/new)', () => {
  it('counts the title live against its limit of 200', async () => {
    const { user, title } = renderNewPaste();
    const counter = screen.getByTestId('title-counter');
    expect(counter).toHaveTextContent('0/200');
    expect(title).toHaveAttribute('maxLength', '200');
    await user.type(title, 'hello');
    expect(counter).toHaveTextContent('5/200');
    await user.type(title, '{Backspace}{Backspace}');
    expect(counter).toHaveTextContent('3/200');
  });

  it('stops the title at 200 characters', async () => {
    const { user, title } = renderNewPaste();
    await user.click(title);
    await user.paste('x'.repeat(250));
    expect(title).toHaveValue('x'.repeat(200));
    expect(screen.getByTestId('title-counter')).toHaveTextContent('200/200');
  });

  it('shows and hides the Markdown preview', async () => {
    const { user, content } = renderNewPaste();
    expect(screen.queryByRole('region', { name: 'Preview' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'SHOW PREVIEW' }));
    const preview = screen.getByRole('region', { name: 'Preview' });
    expect(preview).toHaveTextContent('Preview will appear here...');
    expect(screen.getByRole('button', { name: 'HIDE PREVIEW' })).toHaveAttribute('aria-pressed', 'true');

    await user.type(content, '   ');
    expect(screen.getByRole('region', { name: 'Preview' })).toHaveTextContent('Preview will appear here...');

    await user.clear(content);
    await user.type(content, '# Heading{Enter}{Enter}some **bold** text');
    const shown = screen.getByRole('region', { name: 'Preview' });
    expect(shown).not.toHaveTextContent('Preview will appear here...');
    expect(screen.getByRole('heading', { level: 2, name: 'Heading' })).toBeInTheDocument();
    expect(screen.getByText('bold').tagName).toBe('STRONG');

    await user.click(screen.getByRole('button', { name: 'HIDE PREVIEW' }));
    expect(screen.queryByRole('region', { name: 'Preview' })).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Heading' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'SHOW PREVIEW' })).toHaveAttribute('aria-pressed', 'false');
  });

  it.each([
    ['a blank title', '   ', 'some content'],
    ['blank content', 'a title', '  \n  '],
    ['nothing', '', ''],
  ])('refuses %s with a validation toast and sends nothing', async (_, titleText, contentText) => {
    const calls = stubFetch(() => ({ body: { id: 1 } }));
    const { user, title, content, submit } = renderNewPaste();
    if (titleText) await user.type(title, titleText);
    if (contentText) await user.type(content, contentText);
    await user.click(submit());
    await expectToast('Validation Error', 'Please fill in all fields');
    expect(calls).toHaveLength(0);
    expect(screen.getByRole('textbox', { name: 'Title' })).toBeInTheDocument();
  });

  it('posts the trimmed title and the content as written, then opens the new paste', async () => {
    let answer: (value: FetchAnswer) => void = () => undefined;
    const calls = stubFetch((call) =>
      call.method === 'POST'
        ? new Promise<FetchAnswer>((resolve) => (answer = resolve))
        : { body: sampleCurrentUser() },
    );
    const { user, title, content, submit } = renderNewPaste();
    await user.type(title, '  nmap cheatsheet  ');
    await user.type(content, '  nmap -sV host');
    await user.click(submit());

    await waitFor(() => expect(submit()).toHaveTextContent('SUBMITTING...'));
    expect(submit()).toBeDisabled();
    expect(calls).toEqual([
      { method: 'POST', url: '/api/threads', body: { title: 'nmap cheatsheet', content: '  nmap -sV host' } },
    ]);

    await act(async () => answer({ status: 201, body: { id: 42 } }));
    expect(await screen.findByRole('status', { name: 'location' })).toHaveTextContent('/thread/42');
    await expectToast('Paste created', 'nmap cheatsheet');
  });

  it('says so and goes home when the paste is held for review (202)', async () => {
    stubFetch((call) =>
      call.method === 'POST'
        ? { status: 202, body: { held: true, message: MODERATION_MESSAGES.held, itemId: 7 } }
        : { body: sampleCurrentUser() },
    );
    const { user, title, content, submit } = renderNewPaste();
    await user.type(title, 'first post');
    await user.type(content, 'hello');
    await user.click(submit());
    await expectToast(MODERATION_TEXTS.heldOwn, MODERATION_MESSAGES.held);
    expect(await screen.findByRole('status', { name: 'location' })).toHaveTextContent(/^\/$/);
  });

  it('sends the expiry chosen and burn after reading when ticked, and neither by default', async () => {
    const calls = stubFetch((call) =>
      call.method === 'POST'
        ? { status: 201, body: { id: 'AbCdEfGhIjKlMnOpQrStUv' } }
        : { body: sampleCurrentUser() },
    );
    const { user, title, content, submit } = renderNewPaste();
    const expiry = screen.getByRole('combobox', { name: 'Expires' });
    expect(expiry).toHaveValue('never');
    expect([...(expiry as HTMLSelectElement).options].map((option) => option.text)).toEqual([
      '10 minutes',
      '1 hour',
      '1 day',
      '1 week',
      '1 month',
      'Never',
    ]);
    const burn = screen.getByRole('checkbox', { name: /Burn after reading/ });
    expect(burn).not.toBeChecked();
    await user.type(title, 'gone soon');
    await user.type(content, 'x');
    await user.selectOptions(expiry, '10m');
    await user.click(burn);
    await user.click(submit());
    await waitFor(() => expect(calls.filter((call) => call.method === 'POST')).toHaveLength(1));
    expect(calls.find((call) => call.method === 'POST')!.body).toEqual({
      title: 'gone soon',
      content: 'x',
      expiresIn: '10m',
      burnAfterReading: true,
    });
    expect(await screen.findByRole('status', { name: 'location' })).toHaveTextContent(
      '/thread/AbCdEfGhIjKlMnOpQrStUv',
    );
  });

  it("shows the server's message when it refuses the paste", async () => {
    const calls = stubFetch(() => ({
      status: 400,
      body: { statusCode: 400, message: 'Title must be at most 200 characters', error: 'Bad Request' },
    }));
    const { user, title, content, submit } = renderNewPaste();
    await user.type(title, 'x');
    await user.type(content, 'y');
    await user.click(submit());

    await expectToast('Error', 'Title must be at most 200 characters');
    expect(document.querySelector('.tp-toast')).toHaveClass('tp-toast--destructive');
    expect(calls).toHaveLength(1);
    expect(submit()).toHaveTextContent('ADD PASTE');
    expect(submit()).toBeEnabled();
    expect(screen.getByRole('textbox', { name: 'Title' })).toHaveValue('x');
    expect(screen.queryByRole('status', { name: 'location' })).not.toBeInTheDocument();
  });

  it('goes home on CANCEL when opened directly', async () => {
    const { user } = renderNewPaste();
    await user.click(screen.getByRole('button', { name: 'CANCEL' }));
    expect(screen.getByRole('status', { name: 'location' })).toHaveTextContent(/^\/$/);
  });
});

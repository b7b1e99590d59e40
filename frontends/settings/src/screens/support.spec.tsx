import { act, screen, waitFor } from '@testing-library/react';
import {
  deferred,
  errorBody,
  expectLoginRedirect,
  expectToast,
  renderScreen,
  stubFetch,
  type FetchHandler,
} from '../testing';
import { SupportScreen } from './support';

function renderSupport(path = '/support', onWrite: FetchHandler = () => ({ body: { recipients: 2 } })) {
  const calls = stubFetch(onWrite);
  const { user } = renderScreen(<SupportScreen />, { path, route: '/support' });
  return { calls, user };
}

const subject = () => screen.getByRole('textbox', { name: 'Subject' });
const message = () => screen.getByRole('textbox', { name: 'Message' });
const send = () => screen.getByRole('button', { name: /^(SEND|SENDING\.\.\.)$/ });

describe('support (/support)', () => {
  it('has a subject of at most 200 characters, counted, and a message', async () => {
    const { user } = renderSupport();
    expect(screen.getByRole('heading', { name: 'SUPPORT' })).toBeInTheDocument();
    expect(subject()).toHaveAttribute('maxLength', '200');
    expect(screen.getByTestId('subject-counter')).toHaveTextContent('0/200');
    await user.click(subject());
    await user.paste('x'.repeat(250));
    expect(subject()).toHaveValue('x'.repeat(200));
    expect(screen.getByTestId('subject-counter')).toHaveTextContent('200/200');
    expect(message()).toHaveValue('');
  });

  it.each([
    ['a blank subject', '   ', 'help me'],
    ['a blank message', 'grade', ' \n '],
    ['nothing', '', ''],
  ])('refuses %s with the validation toast and sends nothing', async (_, subjectText, messageText) => {
    const { calls, user } = renderSupport();
    if (subjectText) await user.type(subject(), subjectText);
    if (messageText) await user.type(message(), messageText);
    await user.click(send());
    await expectToast('Validation Error', 'Please fill in all fields');
    expect(calls).toHaveLength(0);
  });

  it('sends the request, reads SENDING... while it goes, confirms and clears the form', async () => {
    const answer = deferred();
    const { calls, user } = renderSupport('/support', () => answer.promise);
    await user.type(subject(), '  VIP grade request  ');
    await user.type(message(), 'May I have **Cyber Ghost**?');
    await user.click(send());

    await waitFor(() => expect(send()).toHaveTextContent('SENDING...'));
    expect(send()).toBeDisabled();
    expect(subject()).toBeDisabled();
    expect(calls).toEqual([
      {
        method: 'POST',
        url: '/api/support',
        body: { subject: 'VIP grade request', content: 'May I have **Cyber Ghost**?' },
      },
    ]);

    await act(async () => answer.resolve({ body: { recipients: 3 } }));
    await expectToast('Message sent', 'Your message has been sent to the staff');
    expect(send()).toHaveTextContent('SEND');
    expect(send()).toBeEnabled();
    expect(subject()).toHaveValue('');
    expect(message()).toHaveValue('');
  });

  it("keeps the form and toasts the server's message when it fails", async () => {
    const { user } = renderSupport('/support', () => ({
      status: 503,
      body: errorBody(503, 'No staff member to write to'),
    }));
    await user.type(subject(), 'help');
    await user.type(message(), 'please');
    await user.click(send());
    await expectToast('Error', 'No staff member to write to');
    expect(subject()).toHaveValue('help');
    expect(message()).toHaveValue('please');
    expect(send()).toBeEnabled();
  });

  it('says Failed to send message when the server gives no message', async () => {
    const { user } = renderSupport('/support', () => ({ status: 500, body: '' }));
    await user.type(subject(), 'help');
    await user.type(message(), 'please');
    await user.click(send());
    await expectToast('Error', 'Failed to send message');
  });

  it('takes the subject from the address (the Upgrades page asks for a grade so)', () => {
    renderSupport('/support?subject=VIP%20grade%20request%3A%20Script%20Kiddie');
    expect(subject()).toHaveValue('VIP grade request: Script Kiddie');
  });

  it('sends the member to sign in again when the session is gone', async () => {
    const { user } = renderSupport('/support', () => ({ status: 401, body: errorBody(401, 'Unauthorized') }));
    await user.type(subject(), 'help');
    await user.type(message(), 'please');
    await user.click(send());
    await expectLoginRedirect();
  });
});

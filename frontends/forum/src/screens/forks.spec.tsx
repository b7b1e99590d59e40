import { TEXTS, type PasteCard, type PasteDetail } from '@termpaste/contracts';
import { createQueryClient, preloadMarkdown } from '@termpaste/ui';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import { pasteQuery } from '../api/pastes';
import {
  expectToast,
  renderScreen,
  sampleCard,
  samplePaste,
  stubFetch,
  type FetchAnswer,
  type RenderScreenOptions,
} from '../testing';
import { NewPasteScreen } from './new-paste';
import { PasteScreen } from './paste';

/** Answers the paste's own reads with `thread`, the forks list with `forks`. */
function server(thread: PasteDetail, forks: PasteCard[] = []) {
  return stubFetch((call) => {
    if (call.url === `/api/threads/${thread.id}`) return { body: thread };
    if (call.url === `/api/threads/${thread.id}/forks`) return { body: { forks, nextCursor: null } };
    return { status: 404, body: 'not stubbed' };
  });
}

function renderPaste(thread: PasteDetail, options: RenderScreenOptions = {}, forks: PasteCard[] = []) {
  const calls = server(thread, forks);
  const client = createQueryClient();
  client.setQueryData(pasteQuery(String(thread.id)).queryKey, thread);
  renderScreen(<PasteScreen />, {
    path: `/thread/${thread.id}`,
    route: '/thread/:id',
    client,
    ...options,
  });
  return calls;
}

const pasteCard = () => screen.getByRole('region', { name: 'PASTE' });

beforeAll(() => preloadMarkdown());

describe('forks on a paste', () => {
  it('FORK (members only) opens the add-paste form for this paste', () => {
    renderPaste(samplePaste());
    const fork = within(pasteCard()).getByRole('link', { name: 'FORK' });
    expect(fork).toHaveAttribute('href', '/thread/new?fork=5');
  });

  it('no FORK for a visitor, nor for a paste whose content is not shown', () => {
    renderPaste(samplePaste(), { user: null });
    expect(within(pasteCard()).queryByRole('link', { name: 'FORK' })).not.toBeInTheDocument();
    cleanup();
    // A burning paste seen by another shows its warning, not the paste: nothing to fork.
    renderPaste(samplePaste({ content: undefined, burnAfterReading: true }));
    expect(screen.getByRole('region', { name: 'BURN AFTER READING' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'FORK' })).not.toBeInTheDocument();
  });

  it('a fork says where it came from, with a link; or that its original is gone', () => {
    renderPaste(samplePaste({ forkedFrom: { id: 3, title: 'the original' } }));
    const link = within(pasteCard()).getByRole('link', { name: 'the original' });
    expect(link).toHaveAttribute('href', '/thread/3');
    expect(link.parentElement).toHaveTextContent('forked from the original');
    cleanup();
    renderPaste(samplePaste({ forkedFrom: { id: null, title: null } }));
    expect(pasteCard()).toHaveTextContent('forked from a deleted paste');
    cleanup();
    renderPaste(samplePaste());
    expect(pasteCard()).not.toHaveTextContent('forked from');
  });

  it('an original shows its fork count and lists its public forks', async () => {
    const calls = renderPaste(samplePaste({ forkCount: 1 }), {}, [
      sampleCard({ id: 9, title: 'a better scan' }),
    ]);
    expect(within(pasteCard()).getByRole('link', { name: '1 fork' })).toHaveAttribute('href', '#forks');
    const forks = screen.getByRole('region', { name: '1 FORK' });
    expect(await within(forks).findByRole('link', { name: /a better scan/ })).toHaveAttribute(
      'href',
      '/thread/9',
    );
    expect(calls.filter((call) => call.url.startsWith('/api/threads/5/forks'))).toHaveLength(1);
  });

  it('a paste with no forks asks for none', () => {
    const calls = renderPaste(samplePaste());
    expect(screen.queryByRole('region', { name: /FORK/ })).not.toBeInTheDocument();
    expect(calls.filter((call) => call.url.includes('/forks'))).toHaveLength(0);
  });
});

describe('the fork form (/thread/new?fork=)', () => {
  it("starts from the original's title, language and content, and FORK posts the fork", async () => {
    let answer: (value: FetchAnswer) => void = () => undefined;
    const calls = stubFetch((call) => {
      if (call.method === 'GET' && call.url === '/api/threads/5?refresh=true') {
        return {
          body: samplePaste({ title: 'nmap cheatsheet', content: 'nmap -sV host', language: 'bash' }),
        };
      }
      if (call.method === 'POST') return new Promise<FetchAnswer>((resolve) => (answer = resolve));
      return { status: 404, body: 'not stubbed' };
    });
    const { user } = renderScreen(<NewPasteScreen />, { path: '/thread/new?fork=5' });
    const title = await screen.findByRole('textbox', { name: 'Title' });
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('FORK PASTE');
    expect(screen.getByRole('link', { name: 'nmap cheatsheet' })).toHaveAttribute('href', '/thread/5');
    expect(title).toHaveValue('nmap cheatsheet');
    const content = screen.getByRole('textbox', { name: 'Content' });
    expect(content).toHaveValue('nmap -sV host');
    await user.clear(title);
    await user.type(title, 'my scan');
    await user.click(screen.getByRole('button', { name: 'FORK' }));
    await waitFor(() => expect(calls.filter((call) => call.method === 'POST')).toHaveLength(1));
    expect(calls.find((call) => call.method === 'POST')).toEqual({
      method: 'POST',
      url: '/api/threads/5/fork',
      body: { title: 'my scan', content: 'nmap -sV host', language: 'bash' },
    });
    await act(async () => answer({ status: 201, body: { id: 42 } }));
    expect(await screen.findByRole('status', { name: 'location' })).toHaveTextContent('/thread/42');
    await expectToast('Paste forked', 'my scan');
  });

  it('what names no paste is not found, and asks nothing', () => {
    const calls = stubFetch(() => ({ status: 404, body: 'not stubbed' }));
    renderScreen(<NewPasteScreen />, { path: '/thread/new?fork=..%2F..%2Fuser' });
    expect(screen.getByText(TEXTS.pasteNotFound)).toBeInTheDocument();
    expect(calls.filter((call) => call.url.startsWith('/api/threads'))).toHaveLength(0);
  });

  it('a paste that cannot be read is not found', async () => {
    stubFetch(() => ({ status: 404, body: { statusCode: 404, message: 'Thread not found' } }));
    renderScreen(<NewPasteScreen />, { path: '/thread/new?fork=5' });
    expect(await screen.findByText(TEXTS.pasteNotFound)).toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'Title' })).not.toBeInTheDocument();
  });
});

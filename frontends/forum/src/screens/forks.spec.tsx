import { TEXTS, type ThreadCard, type ThreadDetail } from '@termpaste/contracts';
import { createQueryClient, preloadMarkdown } from '@termpaste/ui';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import { threadQuery } from '../api/forum';
import {
  expectToast,
  renderScreen,
  sampleCard,
  sampleThread,
  stubFetch,
  type FetchAnswer,
  type RenderScreenOptions,
} from '../testing';
import { NewThreadScreen } from './new-thread';
import { ThreadScreen } from './thread';

/** Answers the paste's own reads with `thread`, the forks list with `forks`. */
function server(thread: ThreadDetail, forks: ThreadCard[] = []) {
  return stubFetch((call) => {
    if (call.url === `/api/threads/${thread.id}`) return { body: thread };
    if (call.url === `/api/threads/${thread.id}/forks`) return { body: { forks, nextCursor: null } };
    return { status: 404, body: 'not stubbed' };
  });
}

function renderThread(thread: ThreadDetail, options: RenderScreenOptions = {}, forks: ThreadCard[] = []) {
  const calls = server(thread, forks);
  const client = createQueryClient();
  client.setQueryData(threadQuery(String(thread.id)).queryKey, thread);
  renderScreen(<ThreadScreen />, {
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
    renderThread(sampleThread());
    const fork = within(pasteCard()).getByRole('link', { name: 'FORK' });
    expect(fork).toHaveAttribute('href', '/thread/new?fork=5');
  });

  it('no FORK for a visitor, nor for a paste whose content is not shown', () => {
    renderThread(sampleThread(), { user: null });
    expect(within(pasteCard()).queryByRole('link', { name: 'FORK' })).not.toBeInTheDocument();
    cleanup();
    // A burning paste seen by another shows its warning, not the paste: nothing to fork.
    renderThread(sampleThread({ content: undefined, burnAfterReading: true }));
    expect(screen.getByRole('region', { name: 'BURN AFTER READING' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'FORK' })).not.toBeInTheDocument();
  });

  it('a fork says where it came from, with a link; or that its original is gone', () => {
    renderThread(sampleThread({ forkedFrom: { id: 3, title: 'the original' } }));
    const link = within(pasteCard()).getByRole('link', { name: 'the original' });
    expect(link).toHaveAttribute('href', '/thread/3');
    expect(link.parentElement).toHaveTextContent('forked from the original');
    cleanup();
    renderThread(sampleThread({ forkedFrom: { id: null, title: null } }));
    expect(pasteCard()).toHaveTextContent('forked from a deleted paste');
    cleanup();
    renderThread(sampleThread());
    expect(pasteCard()).not.toHaveTextContent('forked from');
  });

  it('an original shows its fork count and lists its public forks', async () => {
    const calls = renderThread(sampleThread({ forkCount: 1 }), {}, [
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
    const calls = renderThread(sampleThread());
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
          body: sampleThread({ title: 'nmap cheatsheet', content: 'nmap -sV host', language: 'bash' }),
        };
      }
      if (call.method === 'POST') return new Promise<FetchAnswer>((resolve) => (answer = resolve));
      return { status: 404, body: 'not stubbed' };
    });
    const { user } = renderScreen(<NewThreadScreen />, { path: '/thread/new?fork=5' });
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
    renderScreen(<NewThreadScreen />, { path: '/thread/new?fork=..%2F..%2Fuser' });
    expect(screen.getByText(TEXTS.threadNotFound)).toBeInTheDocument();
    expect(calls.filter((call) => call.url.startsWith('/api/threads'))).toHaveLength(0);
  });

  it('a paste that cannot be read is not found', async () => {
    stubFetch(() => ({ status: 404, body: { statusCode: 404, message: 'Thread not found' } }));
    renderScreen(<NewThreadScreen />, { path: '/thread/new?fork=5' });
    expect(await screen.findByText(TEXTS.threadNotFound)).toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'Title' })).not.toBeInTheDocument();
  });
});

import { type PasteDetail } from '@termpaste/contracts';
import { OWN_POSTS_MESSAGES, OWN_POSTS_TEXTS } from '@termpaste/contracts/own-posts';
import { sampleCurrentUser } from '@termpaste/contracts/testing';
import { createQueryClient, preloadMarkdown } from '@termpaste/ui';
import { act, screen, within } from '@testing-library/react';
import { pasteQuery } from '../api/pastes';
import { renderScreen, samplePaste, stubFetch, type RenderScreenOptions } from '../testing';
import { PasteScreen } from './paste';

const KEY = 'AbCdEfGhIjKlMnOpQrStUv';
const reader = sampleCurrentUser();

/** A paste that burns after reading, as the server shows it to `shows` ('others': without content). */
function burning(shows: 'others' | 'author'): PasteDetail {
  const thread = samplePaste({
    id: KEY,
    visibility: 'public',
    burnAfterReading: true,
    replies: [],
    replyCount: 0,
    content: 'the secret words',
  });
  if (shows === 'others') delete thread.content;
  return thread;
}

function renderPaste(thread: PasteDetail, options: RenderScreenOptions = {}) {
  const client = createQueryClient();
  client.setQueryData(pasteQuery(String(thread.id)).queryKey, thread);
  return renderScreen(<PasteScreen />, {
    path: `/thread/${thread.id}`,
    route: '/thread/:id',
    client,
    ...options,
  });
}

beforeAll(() => preloadMarkdown());

afterEach(() => {
  jest.useRealTimers();
});

describe('a paste that burns after reading', () => {
  it('shows another reader the warning first, then the content once, deleting it through read-once', async () => {
    let gone = false;
    const calls = stubFetch((call) => {
      if (call.method === 'POST') {
        gone = true;
        return { body: burning('author') };
      }
      if (call.url === '/api/auth/user') return { body: reader };
      return gone ? { status: 404, body: { message: 'Thread not found' } } : { body: burning('others') };
    });
    const { user } = renderPaste(burning('others'), { user: reader });
    const gate = screen.getByRole('region', { name: 'BURN AFTER READING' });
    expect(gate).toHaveTextContent('nmap cheatsheet');
    expect(gate).toHaveTextContent(OWN_POSTS_TEXTS.burnWarning);
    expect(screen.queryByText('the secret words')).not.toBeInTheDocument();
    // Nothing was written by opening the page.
    expect(calls.filter((call) => call.method !== 'GET')).toEqual([]);

    await user.click(within(gate).getByRole('button', { name: OWN_POSTS_TEXTS.burnShow }));
    expect(await screen.findByText('the secret words')).toBeInTheDocument();
    expect(calls.filter((call) => call.method === 'POST')).toEqual([
      { method: 'POST', url: `/api/threads/${KEY}/read-once`, body: undefined },
    ]);
    expect(screen.getByText(OWN_POSTS_TEXTS.burnShown)).toBeInTheDocument();
    // No reply form and no votes: it is gone.
    expect(screen.getByRole('region', { name: 'POST A REPLY' })).toHaveTextContent(
      OWN_POSTS_MESSAGES.burnNoReplies,
    );
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Upvote paste' })).toBeDisabled();
    expect(screen.queryByRole('link', { name: 'RAW' })).not.toBeInTheDocument();
  });

  it('shows its author the content with a note that it burns, and no reply form', () => {
    renderPaste(burning('author'), { user: sampleCurrentUser({ id: 3, username: 'trinity' }) });
    expect(screen.queryByRole('region', { name: 'BURN AFTER READING' })).not.toBeInTheDocument();
    const paste = screen.getByRole('region', { name: 'PASTE' });
    expect(paste).toHaveTextContent('burns after reading');
    expect(screen.getByRole('region', { name: 'POST A REPLY' })).toHaveTextContent(
      OWN_POSTS_MESSAGES.burnNoReplies,
    );
  });

  it('shows a visitor the warning too', () => {
    renderPaste(burning('others'), { user: null });
    expect(screen.getByRole('button', { name: OWN_POSTS_TEXTS.burnShow })).toBeEnabled();
  });
});

describe('a paste that expires', () => {
  it('says when, with the exact time in its tooltip, and says it has expired once the time comes', () => {
    jest.useFakeTimers({ now: new Date('2026-01-01T12:00:00Z') });
    const expiresAt = new Date('2026-01-01T12:09:10Z').toISOString();
    stubFetch(() => ({ status: 404, body: { message: 'gone' } }));
    renderPaste(samplePaste({ expiresAt }), { user: reader });
    const mark = screen.getByText('expires in 9 minutes');
    expect(mark.closest('[title]')).toHaveAttribute('title', expect.stringMatching(/^Expires .*2026/));

    act(() => jest.advanceTimersByTime(9 * 60_000 + 10_000));
    expect(screen.getByRole('region', { name: 'EXPIRED' })).toHaveTextContent(OWN_POSTS_TEXTS.expired);
    expect(screen.queryByRole('region', { name: 'PASTE' })).not.toBeInTheDocument();
  });

  it('shows nothing of expiry for a paste that never expires', () => {
    renderPaste(samplePaste({ expiresAt: null }), { user: reader });
    expect(screen.queryByText(/expires/)).not.toBeInTheDocument();
  });
});

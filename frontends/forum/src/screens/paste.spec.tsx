import { type CurrentUser, type PasteDetail } from '@termpaste/contracts';
import { MODERATION_MESSAGES, MODERATION_TEXTS } from '@termpaste/contracts/moderation';
import { sampleCurrentUser } from '@termpaste/contracts/testing';
import { createQueryClient, preloadMarkdown } from '@termpaste/ui';
import { screen, waitFor, within } from '@testing-library/react';
import { pasteQuery } from '../api/pastes';
import {
  expectToast,
  pending,
  renderScreen,
  sampleAuthor,
  sampleReply,
  samplePaste,
  stubClipboard,
  stubFetch,
  urls,
  type FetchAnswer,
  type FetchCall,
  type RenderScreenOptions,
} from '../testing';
import { PasteScreen } from './paste';

/** The calls that write (everything but GET). */
const writes = (calls: FetchCall[]) => calls.filter((call) => call.method !== 'GET');

const member = sampleCurrentUser();
const admin = sampleCurrentUser({ id: 1, username: 'root', isAdmin: true });

function renderPaste({
  thread = samplePaste() as PasteDetail | null,
  ...options
}: RenderScreenOptions & { thread?: PasteDetail | null } = {}) {
  const client = createQueryClient();
  if (thread) client.setQueryData(pasteQuery(String(thread.id)).queryKey, thread);
  return renderScreen(<PasteScreen />, { path: '/thread/5', route: '/thread/:id', client, ...options });
}

/** Answers the reads the screen makes again after a write: the current user and the paste. */
function server(
  state: { thread: PasteDetail; user: CurrentUser },
  writeAnswer: (call: FetchCall) => FetchAnswer = () => ({}),
) {
  return stubFetch((call) => {
    if (call.method === 'GET' && call.url === '/api/auth/user') return { body: state.user };
    if (call.method === 'GET' && call.url === `/api/threads/${state.thread.id}`)
      return { body: state.thread };
    if (call.method === 'GET') return { status: 404, body: 'not stubbed' };
    return writeAnswer(call);
  });
}

const pasteCard = () => screen.getByRole('region', { name: 'PASTE' });
const replyItem = (name: string) => screen.getByRole('listitem', { name: `Reply by ${name}` });
const dialogClosed = () => waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());

// The Markdown renderer is fetched on demand: once per file, so a findBy does not wait for jest to load it.
beforeAll(() => preloadMarkdown());

afterEach(() => {
  jest.useRealTimers();
});

describe('thread detail (/thread/{id})', () => {
  it('shows the paste: title, author, rank, time, views, Markdown and score', async () => {
    renderPaste();
    const card = pasteCard();
    expect(within(card).getByRole('heading', { level: 1 })).toHaveTextContent('nmap cheatsheet');
    const byline = within(card).getByRole('link', { name: /trinity/ });
    expect(byline).toHaveAttribute('href', '/profile/3');
    expect(within(card).getByText('ADVANCED')).toHaveClass('tp-badge', 'rank-advanced');
    expect(within(card).getByText('about 2 hours ago').tagName).toBe('TIME');
    expect(card).toHaveTextContent('7 views');
    expect(await within(card).findByRole('heading', { level: 3, name: 'Usage' })).toBeInTheDocument();
    expect(within(card).getByText('nmap -sV').tagName).toBe('STRONG');
    const votes = within(card).getByRole('group', { name: 'Vote on this paste' });
    expect(within(votes).getByTestId('score')).toHaveTextContent('+3');
    expect(within(card).getByRole('link', { name: 'RAW' })).toHaveAttribute('href', '/api/threads/5/raw');
  });

  it('goes home on BACK when opened directly, and copies the paste', async () => {
    const { user } = renderPaste();
    const writeText = stubClipboard(jest.fn(() => Promise.resolve()));
    await user.click(screen.getByRole('button', { name: 'Copy paste' }));
    expect(writeText).toHaveBeenCalledWith(samplePaste().content);
    await user.click(screen.getByRole('button', { name: 'BACK' }));
    expect(screen.getByRole('status', { name: 'location' })).toHaveTextContent(/^\/$/);
  });

  it('signed out: votes are disabled and the reply form asks to log in', () => {
    renderPaste({ user: null });
    for (const name of ['Upvote paste', 'Downvote paste']) {
      expect(screen.getByRole('button', { name })).toBeDisabled();
    }
    for (const button of screen.getAllByRole('button', { name: /^(Upvote|Downvote) reply$/ })) {
      expect(button).toBeDisabled();
    }
    const form = screen.getByRole('region', { name: 'POST A REPLY' });
    expect(form).toHaveTextContent('You must be logged in to post replies');
    expect(within(form).getByRole('link', { name: 'LOGIN' })).toHaveAttribute('href', '/api/login');
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /REPLY$/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('group', { name: 'Moderation' })).not.toBeInTheDocument();
  });

  it('lists the replies as a tree under a heading with their count', async () => {
    renderPaste();
    const replies = screen.getByRole('region', { name: '4 REPLIES' });
    const items = within(replies).getAllByRole('listitem');
    expect(items.map((item) => item.getAttribute('aria-label'))).toEqual([
      'Reply by morpheus',
      'Reply by trinity',
      'Reply by tank',
      'Reply by Anonymous',
    ]);
    expect(items.map((item) => item.dataset.depth)).toEqual(['0', '1', '2', '0']);
    expect(items[1]).toHaveClass('forum-reply--nested');
    expect(items[0]).not.toHaveClass('forum-reply--nested');
    await waitFor(() => expect(items[0]).toHaveTextContent('reply number 11'));
    expect(within(items[0]!).getByRole('link', { name: /morpheus/ })).toHaveAttribute('href', '/profile/8');
    expect(within(items[3]!).getByText('Anonymous')).toBeInTheDocument();
    expect(within(items[3]!).getByTestId('score')).toHaveTextContent('-2');
    expect(within(items[0]!).getByTestId('score')).toHaveTextContent(/^0$/);
  });

  it('says No replies yet. under 0 REPLIES', () => {
    renderPaste({ thread: samplePaste({ replyCount: 0, replies: [] }) });
    expect(screen.getByRole('region', { name: '0 REPLIES' })).toHaveTextContent('No replies yet.');
  });

  it('says 1 REPLY in the singular, and 1 view', () => {
    renderPaste({
      thread: samplePaste({ replyCount: 1, viewCount: 1, replies: [sampleReply({ id: 11, author: null })] }),
    });
    expect(screen.getByRole('region', { name: '1 REPLY' })).toBeInTheDocument();
    expect(pasteCard()).toHaveTextContent('1 view');
    expect(pasteCard()).not.toHaveTextContent('1 views');
  });

  it('names whom a reply answers once it is deeper than the indent', () => {
    const chain = Array.from({ length: 9 }, (_, i) =>
      sampleReply({
        id: 21 + i,
        parentId: i === 0 ? null : 20 + i,
        author: sampleAuthor({ id: 30 + i, username: `n${i}` }),
      }),
    );
    renderPaste({ thread: samplePaste({ replies: chain, replyCount: 9 }) });
    const deep = replyItem('n7');
    expect(deep.dataset.depth).toBe('7');
    expect(within(deep).getByRole('link', { name: /n6/ })).toHaveAttribute('href', '#reply-27');
    expect(within(replyItem('n6')).queryByRole('link', { name: /n5/ })).toBeNull();
  });

  it('votes on the paste and shows the new score', async () => {
    const state = { thread: samplePaste(), user: member };
    const calls = server(state, () => ({ body: { value: 1, voteScore: 4 } }));
    const { user } = renderPaste();
    await user.click(screen.getByRole('button', { name: 'Upvote paste' }));
    await waitFor(() => expect(within(pasteCard()).getAllByTestId('score')[0]).toHaveTextContent('+4'));
    expect(writes(calls)).toEqual([{ method: 'POST', url: '/api/votes', body: { threadId: 5, value: 1 } }]);
    expect(screen.getByRole('button', { name: 'Take back upvote' })).toHaveAttribute('aria-pressed', 'true');
  });

  it('votes on a reply', async () => {
    const calls = server({ thread: samplePaste(), user: member }, () => ({
      body: { value: -1, voteScore: -1 },
    }));
    const { user } = renderPaste();
    await user.click(within(replyItem('morpheus')).getByRole('button', { name: 'Downvote reply' }));
    await waitFor(() => expect(within(replyItem('morpheus')).getByTestId('score')).toHaveTextContent('-1'));
    expect(writes(calls)).toEqual([{ method: 'POST', url: '/api/votes', body: { replyId: 11, value: -1 } }]);
  });

  it('answers a reply: target shown, {content, parentId} sent, form cleared, toast', async () => {
    const state = { thread: samplePaste(), user: member };
    const calls = server(state, (call) => {
      state.thread = {
        ...state.thread,
        replyCount: 5,
        replies: [
          ...state.thread.replies,
          sampleReply({
            id: 15,
            parentId: 12,
            author: sampleAuthor({ id: 7, username: 'neo' }),
            content: 'my answer',
          }),
        ],
      };
      return call.method === 'POST' ? { status: 201, body: { id: 15 } } : {};
    });
    const { user } = renderPaste();
    const form = screen.getByRole('form', { name: 'Reply' });
    expect(form).not.toHaveTextContent('Replying to');

    await user.click(within(replyItem('trinity')).getByRole('button', { name: 'REPLY' }));
    expect(form).toHaveTextContent('Replying to trinity');
    const textarea = within(form).getByRole('textbox', { name: 'Your reply' });
    expect(textarea).toHaveAttribute('placeholder', expect.stringContaining('Markdown supported'));
    expect(textarea).toHaveFocus();

    await user.type(textarea, 'my answer');
    await user.click(within(form).getByRole('button', { name: 'POST REPLY' }));

    await expectToast('Reply posted');
    expect(writes(calls)).toEqual([
      { method: 'POST', url: '/api/threads/5/replies', body: { content: 'my answer', parentId: 12 } },
    ]);
    expect(textarea).toHaveValue('');
    expect(form).not.toHaveTextContent('Replying to');
    // The paste is read again: the new reply sits under its parent.
    await waitFor(() => expect(replyItem('neo').dataset.depth).toBe('2'));
    expect(screen.getByRole('region', { name: '5 REPLIES' })).toBeInTheDocument();
  });

  it('posts a top-level reply with parentId null, and CANCEL REPLY drops the target', async () => {
    const calls = server({ thread: samplePaste(), user: member }, () => ({ status: 201, body: { id: 16 } }));
    const { user } = renderPaste();
    const form = screen.getByRole('form', { name: 'Reply' });
    await user.click(within(replyItem('morpheus')).getByRole('button', { name: 'REPLY' }));
    expect(form).toHaveTextContent('Replying to morpheus');
    await user.click(within(form).getByRole('button', { name: 'CANCEL REPLY' }));
    expect(form).not.toHaveTextContent('Replying to');

    await user.type(within(form).getByRole('textbox'), '  top level  ');
    await user.click(within(form).getByRole('button', { name: 'POST REPLY' }));
    await expectToast('Reply posted');
    expect(writes(calls)).toEqual([
      { method: 'POST', url: '/api/threads/5/replies', body: { content: '  top level  ', parentId: null } },
    ]);
  });

  it('says a reply held for review (202) is held, and empties the box', async () => {
    server({ thread: samplePaste(), user: member }, () => ({
      status: 202,
      body: { held: true, message: MODERATION_MESSAGES.held, itemId: 3 },
    }));
    const { user } = renderPaste();
    const form = screen.getByRole('form', { name: 'Reply' });
    const textarea = within(form).getByRole('textbox');
    await user.type(textarea, 'first words');
    await user.click(within(form).getByRole('button', { name: 'POST REPLY' }));
    await expectToast(MODERATION_TEXTS.heldOwn, MODERATION_MESSAGES.held);
    expect(textarea).toHaveValue('');
  });

  it('keeps POST REPLY disabled for an empty or whitespace-only reply', async () => {
    const calls = server({ thread: samplePaste(), user: member });
    const { user } = renderPaste();
    const form = screen.getByRole('form', { name: 'Reply' });
    const post = within(form).getByRole('button', { name: 'POST REPLY' });
    expect(post).toBeDisabled();
    await user.type(within(form).getByRole('textbox'), '   {Enter}  ');
    expect(post).toBeDisabled();
    await user.type(within(form).getByRole('textbox'), 'x');
    expect(post).toBeEnabled();
    expect(writes(calls)).toHaveLength(0);
  });

  it('shows the server message when a reply is refused', async () => {
    server({ thread: samplePaste(), user: member }, () => ({
      status: 403,
      body: { statusCode: 403, message: 'Thread is locked' },
    }));
    const { user } = renderPaste();
    const form = screen.getByRole('form', { name: 'Reply' });
    await user.type(within(form).getByRole('textbox'), 'late');
    await user.click(within(form).getByRole('button', { name: 'POST REPLY' }));
    await waitFor(() =>
      expect(document.querySelector('.tp-toast')).toHaveTextContent(/^ErrorThread is locked/),
    );
    expect(within(form).getByRole('textbox')).toHaveValue('late');
  });

  it('hides the reply form from members on a locked paste', () => {
    renderPaste({ thread: samplePaste({ isLocked: true }) });
    const region = screen.getByRole('region', { name: 'POST A REPLY' });
    expect(region).toHaveTextContent('This paste is locked');
    expect(screen.queryByRole('form', { name: 'Reply' })).not.toBeInTheDocument();
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
    expect(within(pasteCard()).getByRole('img', { name: 'Locked' })).toBeInTheDocument();
  });

  it('still lets an admin reply on a locked paste, saying it is locked', () => {
    renderPaste({ thread: samplePaste({ isLocked: true }), user: admin });
    expect(screen.getByRole('form', { name: 'Reply' })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'POST A REPLY' })).toHaveTextContent(
      'This paste is locked: only staff can reply.',
    );
  });

  it('says nothing of locks on an open paste', () => {
    renderPaste({ user: admin });
    expect(screen.getByRole('region', { name: 'POST A REPLY' })).not.toHaveTextContent('locked');
  });

  describe('moderation', () => {
    it('is offered to admins only', () => {
      renderPaste();
      expect(screen.queryByRole('group', { name: 'Moderation' })).not.toBeInTheDocument();
      for (const name of ['PIN', 'LOCK', 'FEATURE', 'DELETE']) {
        expect(screen.queryByRole('button', { name })).not.toBeInTheDocument();
      }
    });

    it('shows PIN, LOCK, FEATURE and DELETE to an admin, and UNPIN etc. when set', () => {
      renderPaste({ user: admin });
      const group = screen.getByRole('group', { name: 'Moderation' });
      expect(
        within(group)
          .getAllByRole('button')
          .map((b) => b.textContent),
      ).toEqual(['PIN', 'LOCK', 'FEATURE', 'DELETE']);
      expect(within(replyItem('morpheus')).getByRole('button', { name: 'DELETE' })).toBeInTheDocument();
    });

    it('reads UNPIN, UNLOCK and UNFEATURE on a flagged paste', () => {
      renderPaste({
        user: admin,
        thread: samplePaste({ isPinned: true, isLocked: true, isFeatured: true }),
      });
      const group = screen.getByRole('group', { name: 'Moderation' });
      expect(
        within(group)
          .getAllByRole('button')
          .map((b) => b.textContent),
      ).toEqual(['UNPIN', 'UNLOCK', 'UNFEATURE', 'DELETE']);
    });

    it('pins only after the confirmation, never after CANCEL', async () => {
      const calls = server({ thread: samplePaste(), user: admin }, () => ({
        body: { isPinned: true, isLocked: false, isFeatured: false },
      }));
      const { user } = renderPaste({ user: admin });
      const group = screen.getByRole('group', { name: 'Moderation' });

      await user.click(within(group).getByRole('button', { name: 'PIN' }));
      const dialog = await screen.findByRole('alertdialog', { name: 'PIN this paste?' });
      await user.click(within(dialog).getByRole('button', { name: 'CANCEL' }));
      await dialogClosed();
      expect(writes(calls)).toHaveLength(0);

      await user.click(within(group).getByRole('button', { name: 'PIN' }));
      const again = await screen.findByRole('alertdialog', { name: 'PIN this paste?' });
      expect(writes(calls)).toHaveLength(0);
      await user.click(within(again).getByRole('button', { name: 'PIN' }));

      await expectToast('Thread pin status toggled');
      expect(writes(calls)).toEqual([{ method: 'POST', url: '/api/admin/threads/5/pin', body: undefined }]);
      await dialogClosed();
      expect(within(group).getByRole('button', { name: 'UNPIN' })).toBeInTheDocument();
      expect(within(pasteCard()).getByRole('img', { name: 'Pinned' })).toBeInTheDocument();
    });

    it.each([
      ['LOCK', 'lock', { isPinned: false, isLocked: true, isFeatured: false }, 'UNLOCK'],
      ['FEATURE', 'featured', { isPinned: false, isLocked: false, isFeatured: true }, 'UNFEATURE'],
    ])('%s calls /%s after the confirmation', async (label, path, flags, after) => {
      const calls = server({ thread: samplePaste(), user: admin }, () => ({ body: flags }));
      const { user } = renderPaste({ user: admin });
      const group = screen.getByRole('group', { name: 'Moderation' });
      await user.click(within(group).getByRole('button', { name: label }));
      const dialog = await screen.findByRole('alertdialog', { name: `${label} this paste?` });
      await user.click(within(dialog).getByRole('button', { name: label }));
      await expectToast(`Thread ${path} status toggled`);
      expect(writes(calls)).toEqual([
        { method: 'POST', url: `/api/admin/threads/5/${path}`, body: undefined },
      ]);
      await dialogClosed();
      expect(within(group).getByRole('button', { name: after })).toBeInTheDocument();
    });

    it('deletes the paste after the confirmation and goes home 500 ms later', async () => {
      const calls = server({ thread: samplePaste(), user: admin }, () => ({ status: 204, body: '' }));
      const { user } = renderPaste({ user: admin });
      const group = screen.getByRole('group', { name: 'Moderation' });

      await user.click(within(group).getByRole('button', { name: 'DELETE' }));
      let dialog = await screen.findByRole('alertdialog', { name: 'Delete this paste?' });
      await user.click(within(dialog).getByRole('button', { name: 'CANCEL' }));
      await dialogClosed();
      expect(writes(calls)).toHaveLength(0);

      await user.click(within(group).getByRole('button', { name: 'DELETE' }));
      dialog = await screen.findByRole('alertdialog', { name: 'Delete this paste?' });
      await user.click(within(dialog).getByRole('button', { name: 'DELETE' }));

      await expectToast('Thread deleted successfully');
      const deletedAt = Date.now();
      expect(writes(calls)).toEqual([{ method: 'DELETE', url: '/api/admin/threads/5', body: undefined }]);
      expect(screen.queryByRole('status', { name: 'location' })).not.toBeInTheDocument();
      expect(await screen.findByRole('status', { name: 'location' }, { timeout: 2000 })).toHaveTextContent(
        /^\/$/,
      );
      expect(Date.now() - deletedAt).toBeGreaterThanOrEqual(400);
    });

    it('deletes a reply after the confirmation', async () => {
      const state = { thread: samplePaste(), user: admin };
      const calls = server(state, (call) => {
        state.thread = {
          ...state.thread,
          replyCount: 3,
          replies: state.thread.replies.filter((r) => r.id !== 13),
        };
        return call.method === 'DELETE' ? { status: 204, body: '' } : {};
      });
      const { user } = renderPaste({ user: admin });
      await user.click(within(replyItem('tank')).getByRole('button', { name: 'DELETE' }));
      const dialog = await screen.findByRole('alertdialog', { name: 'Delete this reply?' });
      await user.click(within(dialog).getByRole('button', { name: 'DELETE' }));

      await expectToast('Reply deleted successfully');
      expect(writes(calls)).toEqual([{ method: 'DELETE', url: '/api/admin/replies/13', body: undefined }]);
      await waitFor(() =>
        expect(screen.queryByRole('listitem', { name: 'Reply by tank' })).not.toBeInTheDocument(),
      );
      expect(screen.getByRole('region', { name: '3 REPLIES' })).toBeInTheDocument();
    });
  });

  describe("the author's delete", () => {
    const trinity = sampleCurrentUser({ id: 3, username: 'trinity' });

    it('offers DELETE in the paste header to its author only', () => {
      renderPaste({ user: trinity });
      expect(within(pasteCard()).getByRole('button', { name: 'DELETE' })).toBeInTheDocument();
      expect(screen.queryByRole('group', { name: 'Moderation' })).not.toBeInTheDocument();
    });

    it('is not offered to another member', () => {
      renderPaste({ user: member });
      expect(within(pasteCard()).queryByRole('button', { name: 'DELETE' })).not.toBeInTheDocument();
    });

    it('deletes the paste by its own route after the confirmation and goes home 500 ms later', async () => {
      const calls = server({ thread: samplePaste(), user: trinity }, () => ({ status: 204, body: '' }));
      const { user } = renderPaste({ user: trinity });
      await user.click(within(pasteCard()).getByRole('button', { name: 'DELETE' }));
      let dialog = await screen.findByRole('alertdialog', { name: 'Delete this paste?' });
      await user.click(within(dialog).getByRole('button', { name: 'CANCEL' }));
      await dialogClosed();
      expect(writes(calls)).toHaveLength(0);

      await user.click(within(pasteCard()).getByRole('button', { name: 'DELETE' }));
      dialog = await screen.findByRole('alertdialog', { name: 'Delete this paste?' });
      await user.click(within(dialog).getByRole('button', { name: 'DELETE' }));
      await expectToast('Paste deleted');
      const deletedAt = Date.now();
      expect(writes(calls)).toEqual([{ method: 'DELETE', url: '/api/threads/5', body: undefined }]);
      expect(await screen.findByRole('status', { name: 'location' }, { timeout: 2000 })).toHaveTextContent(
        /^\/$/,
      );
      expect(Date.now() - deletedAt).toBeGreaterThanOrEqual(400);
    });

    it("deletes the member's own reply alone, which stays as a placeholder over the replies under it", async () => {
      const state = { thread: samplePaste(), user: trinity };
      const calls = server(state, (call) => {
        state.thread = {
          ...state.thread,
          replyCount: 3,
          replies: state.thread.replies.map((r) =>
            r.id === 12 ? { ...r, deleted: true, content: '', author: null } : r,
          ),
        };
        return call.method === 'DELETE' ? { status: 204, body: '' } : {};
      });
      const { user } = renderPaste({ user: trinity });
      // Only their own reply has DELETE.
      expect(within(replyItem('tank')).queryByRole('button', { name: 'DELETE' })).not.toBeInTheDocument();
      await user.click(within(replyItem('trinity')).getByRole('button', { name: 'DELETE' }));
      const dialog = await screen.findByRole('alertdialog', { name: 'Delete this reply?' });
      await user.click(within(dialog).getByRole('button', { name: 'DELETE' }));

      await expectToast('Reply deleted');
      expect(writes(calls)).toEqual([{ method: 'DELETE', url: '/api/replies/12', body: undefined }]);
      const placeholder = await screen.findByRole('listitem', { name: 'Deleted reply' });
      expect(placeholder).toHaveTextContent('[deleted by its author]');
      expect(within(placeholder).queryByRole('button')).not.toBeInTheDocument();
      expect(replyItem('tank')).toHaveAttribute('data-depth', '2');
    });
  });

  describe('not found', () => {
    it("shows 'Thread not found [404]' when the API answers 404", async () => {
      const calls = stubFetch(() => ({
        status: 404,
        body: { statusCode: 404, message: 'Thread not found' },
      }));
      renderPaste({ thread: null, path: '/thread/99' });
      expect(await screen.findByText('Thread not found [404]')).toBeInTheDocument();
      expect(screen.getByRole('link', { name: 'Back to home' })).toHaveAttribute('href', '/');
      expect(calls).toEqual([{ method: 'GET', url: '/api/threads/99', body: undefined }]);
    });

    it('reads a cached paste afresh on a visit: one deleted meanwhile shows as not found', async () => {
      const calls = stubFetch(() => ({
        status: 404,
        body: { statusCode: 404, message: 'Thread not found' },
      }));
      renderPaste();
      expect(await screen.findByText('Thread not found [404]')).toBeInTheDocument();
      expect(urls(calls)).toContain('/api/threads/5');
      expect(
        urls(calls).filter((url) => url !== '/api/flags/mine' && url !== '/api/threads/5/watch'),
      ).toEqual(['/api/threads/5']);
    });

    it.each(['abc', '12abc', '-1', '1.5'])("shows it for the id '%s' without calling the API", (id) => {
      const calls = stubFetch(() => ({ body: samplePaste() }));
      renderPaste({ thread: null, path: `/thread/${id}` });
      expect(screen.getByText('Thread not found [404]')).toBeInTheDocument();
      expect(calls).toHaveLength(0);
    });

    it('says the paste could not load on another error', async () => {
      stubFetch(() => ({ status: 500, body: 'boom' }));
      renderPaste({ thread: null, path: '/thread/5' });
      expect(
        await screen.findByText('Could not load this paste. Try again in a moment.'),
      ).toBeInTheDocument();
      expect(screen.queryByText('Thread not found [404]')).not.toBeInTheDocument();
    });

    it('shows a spinner while loading', () => {
      stubFetch(pending);
      renderPaste({ thread: null, path: '/thread/5' });
      expect(screen.getByText('Loading paste...')).toBeInTheDocument();
    });
  });
});

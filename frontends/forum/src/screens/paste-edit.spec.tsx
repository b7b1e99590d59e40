import type { CurrentUser, PasteDetail } from '@termpaste/contracts';
import { sampleCurrentUser } from '@termpaste/contracts/testing';
import { createQueryClient, preloadMarkdown } from '@termpaste/ui';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { pasteQuery } from '../api/pastes';
import {
  expectToast,
  renderScreen,
  sampleReply,
  samplePaste,
  stubFetch,
  type FetchAnswer,
  type FetchCall,
  type RenderScreenOptions,
} from '../testing';
import { PasteScreen } from './paste';
import { SECRETS_MESSAGES } from '@termpaste/contracts';
import { REVISIONS_TEXTS } from '@termpaste/contracts/revisions';

// samplePaste() is trinity's (id 3); reply 12 is hers too, 11 is morpheus's.
const trinity = sampleCurrentUser({ id: 3, username: 'trinity' });
const neo = sampleCurrentUser();
const admin = sampleCurrentUser({ id: 1, username: 'root', isAdmin: true });
const EDITED_AT = new Date(Date.now() - 3 * 60_000).toISOString();

function renderPaste({
  thread = samplePaste(),
  ...options
}: RenderScreenOptions & { thread?: PasteDetail } = {}) {
  const client = createQueryClient();
  client.setQueryData(pasteQuery(String(thread.id)).queryKey, thread);
  return renderScreen(<PasteScreen />, { path: '/thread/5', route: '/thread/:id', client, ...options });
}

/** What the stub server holds: the paste, the member, and the versions an edit says hold a removed secret. */
interface EditState {
  thread: PasteDetail;
  user: CurrentUser;
  secretVersions?: number[];
}

/** The server: the paste as it is now, and the PATCH answers of the edit routes. */
function server(state: EditState) {
  return stubFetch((call: FetchCall) => answer(state, call));
}

/** What the server answers to `call`, keeping `state` as edits change it. */
function answer(state: EditState, call: FetchCall): FetchAnswer {
  if (call.method === 'GET' && call.url === '/api/auth/user') return { body: state.user };
  if (call.method === 'GET' && call.url === '/api/threads/5') return { body: state.thread };
  if (call.method === 'DELETE') return { status: 204 };
  if (call.method === 'PATCH' && call.url === '/api/threads/5') {
    const body = call.body as { title: string; content: string; language: string | null };
    state.thread = { ...state.thread, ...body, editedAt: EDITED_AT };
    const { id, title, content, language, editedAt, visibility, expiresAt, burnAfterReading, tags } =
      state.thread;
    return {
      body: {
        id,
        tags,
        title,
        content,
        language,
        editedAt,
        visibility,
        expiresAt,
        burnAfterReading,
        revisions: 3,
        secretVersions: state.secretVersions ?? [],
      },
    };
  }
  if (call.method === 'PATCH' && call.url === '/api/replies/12') {
    const { content } = call.body as { content: string };
    state.thread = {
      ...state.thread,
      replies: state.thread.replies.map((r) => (r.id === 12 ? { ...r, content, editedAt: EDITED_AT } : r)),
    };
    return {
      body: {
        id: 12,
        threadId: 5,
        content,
        editedAt: EDITED_AT,
        revisions: 2,
        secretVersions: state.secretVersions ?? [],
      },
    };
  }
  return { status: 404, body: 'not stubbed' };
}

const pasteCard = () => screen.getByRole('region', { name: 'PASTE' });
const replyItem = (name: string) => screen.getByRole('listitem', { name: `Reply by ${name}` });

beforeAll(() => preloadMarkdown());

describe('editing a paste', () => {
  it('offers EDIT to the author and to admins, not to other members or visitors', () => {
    for (const [user, shown] of [
      [trinity, true],
      [admin, true],
      [neo, false],
      [null, false],
    ] as const) {
      renderPaste({ user });
      const edit = within(pasteCard()).queryByRole('button', { name: 'EDIT' });
      expect(Boolean(edit)).toBe(shown);
      cleanup();
    }
  });

  it('a locked paste: EDIT for admins only', () => {
    renderPaste({ user: trinity, thread: samplePaste({ isLocked: true }) });
    expect(within(pasteCard()).queryByRole('button', { name: 'EDIT' })).not.toBeInTheDocument();
    cleanup();
    renderPaste({ user: admin, thread: samplePaste({ isLocked: true }) });
    expect(within(pasteCard()).getByRole('button', { name: 'EDIT' })).toBeInTheDocument();
  });

  it('shows "edited {time}" linking to the revisions once edited, nothing before', () => {
    renderPaste({ thread: samplePaste({ editedAt: EDITED_AT }) });
    const mark = within(pasteCard()).getByRole('link', { name: /^edited/ });
    expect(mark).toHaveTextContent('edited 3 minutes ago');
    expect(mark).toHaveAttribute('href', '/thread/5/revisions');
    cleanup();
    renderPaste();
    expect(within(pasteCard()).queryByRole('link', { name: /^edited/ })).not.toBeInTheDocument();
  });

  it('edits title, language and content in place, then shows the paste as saved', async () => {
    const state = { thread: samplePaste(), user: trinity };
    const calls = server(state);
    const { user } = renderPaste({ user: trinity });
    await user.click(within(pasteCard()).getByRole('button', { name: 'EDIT' }));
    const form = screen.getByRole('form', { name: 'Edit paste' });
    const title = within(form).getByLabelText('Title');
    const content = within(form).getByLabelText('Content');
    expect(title).toHaveValue('nmap cheatsheet');
    expect(content).toHaveValue(samplePaste().content);
    await user.clear(title);
    await user.type(title, 'nmap cheatsheet v2');
    await user.clear(content);
    await user.type(content, 'nmap -sC host');
    await user.click(within(form).getByRole('button', { name: 'SAVE' }));
    await expectToast('Paste saved');
    expect(calls.filter((c) => c.method === 'PATCH')).toEqual([
      {
        method: 'PATCH',
        url: '/api/threads/5',
        body: { title: 'nmap cheatsheet v2', content: 'nmap -sC host' },
      },
    ]);
    expect(screen.queryByRole('form', { name: 'Edit paste' })).not.toBeInTheDocument();
    expect(within(pasteCard()).getByRole('heading', { level: 1 })).toHaveTextContent('nmap cheatsheet v2');
    expect(within(pasteCard()).getByRole('link', { name: /^edited/ })).toBeInTheDocument();
  });

  it('sends only what changed: the language alone', async () => {
    const calls = server({ thread: samplePaste(), user: trinity });
    const { user } = renderPaste({ user: trinity });
    await user.click(within(pasteCard()).getByRole('button', { name: 'EDIT' }));
    const form = screen.getByRole('form', { name: 'Edit paste' });
    const picker = within(form).getByRole('combobox', { name: 'Language' });
    await user.click(picker);
    await user.clear(picker);
    await user.type(picker, 'python');
    await user.keyboard('{Enter}');
    await user.click(within(form).getByRole('button', { name: 'SAVE' }));
    await expectToast('Paste saved');
    expect(calls.filter((c) => c.method === 'PATCH').map((c) => c.body)).toEqual([{ language: 'python' }]);
  });

  it('sends only what changed: the tags alone (taken off and added), shown under the title once saved', async () => {
    const thread = samplePaste({ tags: ['nmap', 'old'] });
    const calls = server({ thread, user: trinity });
    const { user } = renderPaste({ thread, user: trinity });
    expect(within(pasteCard()).getByRole('link', { name: '#old' })).toHaveAttribute('href', '/tag/old');
    await user.click(within(pasteCard()).getByRole('button', { name: 'EDIT' }));
    const form = screen.getByRole('form', { name: 'Edit paste' });
    await user.click(within(form).getByRole('button', { name: 'Remove tag old' }));
    await user.type(within(form).getByRole('combobox', { name: 'Tags' }), 'Recon{Enter}');
    await user.click(within(form).getByRole('button', { name: 'SAVE' }));
    await expectToast('Paste saved');
    expect(calls.filter((c) => c.method === 'PATCH').map((c) => c.body)).toEqual([
      { tags: ['nmap', 'recon'] },
    ]);
    expect(await within(pasteCard()).findByRole('link', { name: '#recon' })).toHaveAttribute(
      'href',
      '/tag/recon',
    );
  });

  it('refuses a blank title without a request, and CANCEL leaves the paste as it was', async () => {
    const calls = server({ thread: samplePaste(), user: trinity });
    const { user } = renderPaste({ user: trinity });
    await user.click(within(pasteCard()).getByRole('button', { name: 'EDIT' }));
    const form = screen.getByRole('form', { name: 'Edit paste' });
    await user.clear(within(form).getByLabelText('Title'));
    await user.click(within(form).getByRole('button', { name: 'SAVE' }));
    await expectToast('Validation Error', 'Please fill in all fields');
    await user.click(within(form).getByRole('button', { name: 'CANCEL' }));
    expect(within(pasteCard()).getByRole('heading', { level: 1 })).toHaveTextContent('nmap cheatsheet');
    expect(calls.filter((c) => c.method !== 'GET')).toEqual([]);
  });

  it("shows the server's refusal and keeps the form", async () => {
    stubFetch((call) =>
      call.method === 'PATCH'
        ? { status: 403, body: { statusCode: 403, message: 'Thread is locked' } }
        : { body: trinity },
    );
    const { user } = renderPaste({ user: trinity });
    await user.click(within(pasteCard()).getByRole('button', { name: 'EDIT' }));
    await user.type(screen.getByLabelText('Content'), ' more');
    await user.click(screen.getByRole('button', { name: 'SAVE' }));
    await expectToast('Error', 'Thread is locked');
    expect(screen.getByRole('form', { name: 'Edit paste' })).toBeInTheDocument();
  });
});

describe('a secret in an edit', () => {
  const FOUND = {
    statusCode: 422,
    message: SECRETS_MESSAGES.found(1),
    findings: [{ rule: 'aws:AWSAccessKeyID', line: 1, column: 1, masked: `AKIA${'*'.repeat(16)}` }],
  };

  it('warns before saving, and PUBLISH ANYWAY saves with allowSecrets', async () => {
    const state = { thread: samplePaste(), user: trinity };
    const calls: FetchCall[] = [];
    stubFetch((call) => {
      if (call.method === 'PATCH') {
        calls.push(call);
        const body = call.body as { allowSecrets?: boolean };
        if (!body.allowSecrets) return { status: 422, body: FOUND };
      }
      return answer(state, call);
    });
    const { user } = renderPaste({ user: trinity });
    await user.click(within(pasteCard()).getByRole('button', { name: 'EDIT' }));
    await user.type(screen.getByLabelText('Content'), ' AKIA…');
    await user.click(screen.getByRole('button', { name: 'SAVE' }));
    const dialog = await screen.findByRole('dialog', { name: SECRETS_MESSAGES.dialogTitle });
    await user.click(within(dialog).getByRole('button', { name: SECRETS_MESSAGES.publishAnyway }));
    await expectToast('Paste saved');
    expect(calls.map((call) => call.body)).toEqual([
      { content: `${samplePaste().content} AKIA…` },
      { content: `${samplePaste().content} AKIA…`, allowSecrets: true },
    ]);
  });
});

describe('an edit that takes a secret out', () => {
  it('offers to purge the old versions that still hold it, and removes them on PURGE', async () => {
    const state: EditState = { thread: samplePaste(), user: trinity, secretVersions: [1, 2] };
    const calls = server(state);
    const { user } = renderPaste({ user: trinity });
    await user.click(within(pasteCard()).getByRole('button', { name: 'EDIT' }));
    await user.clear(screen.getByLabelText('Content'));
    await user.type(screen.getByLabelText('Content'), 'no secret here');
    await user.click(screen.getByRole('button', { name: 'SAVE' }));
    const dialog = await screen.findByRole('alertdialog', { name: REVISIONS_TEXTS.offerTitle });
    expect(dialog).toHaveTextContent(REVISIONS_TEXTS.offerDescription([1, 2]));
    expect(dialog).toHaveTextContent('v1 and v2 still hold the secret you removed');
    await user.click(within(dialog).getByRole('button', { name: 'PURGE THE OLD VERSIONS' }));
    await expectToast('v1 and v2 removed');
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.url)).toEqual([
      '/api/threads/5/revisions/1',
      '/api/threads/5/revisions/2',
    ]);
  });

  it('KEEP IT removes nothing; an edit that took no secret out offers nothing', async () => {
    const state: EditState = { thread: samplePaste(), user: trinity, secretVersions: [1] };
    const calls = server(state);
    const { user } = renderPaste({ user: trinity });
    await user.click(within(pasteCard()).getByRole('button', { name: 'EDIT' }));
    await user.type(screen.getByLabelText('Content'), ' more');
    await user.click(screen.getByRole('button', { name: 'SAVE' }));
    const dialog = await screen.findByRole('alertdialog', { name: REVISIONS_TEXTS.offerTitle });
    expect(dialog).toHaveTextContent('v1 still holds the secret you removed');
    await user.click(within(dialog).getByRole('button', { name: 'KEEP IT' }));
    state.secretVersions = [];
    await user.click(within(pasteCard()).getByRole('button', { name: 'EDIT' }));
    await user.type(screen.getByLabelText('Content'), ' again');
    await user.click(screen.getByRole('button', { name: 'SAVE' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'PATCH')).toHaveLength(2));
    await within(pasteCard()).findByRole('button', { name: 'EDIT' });
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
  });
});

describe('editing a reply', () => {
  it('offers EDIT on her own replies to their author, on all to an admin', () => {
    renderPaste({ user: trinity });
    expect(within(replyItem('trinity')).getByRole('button', { name: 'EDIT' })).toBeInTheDocument();
    expect(within(replyItem('morpheus')).queryByRole('button', { name: 'EDIT' })).not.toBeInTheDocument();
    cleanup();
    renderPaste({ user: admin });
    expect(within(replyItem('morpheus')).getByRole('button', { name: 'EDIT' })).toBeInTheDocument();
  });

  it('saves the new text with PATCH and marks the reply edited, linking to its versions', async () => {
    const state = { thread: samplePaste(), user: trinity };
    const calls = server(state);
    const { user } = renderPaste({ user: trinity });
    await user.click(within(replyItem('trinity')).getByRole('button', { name: 'EDIT' }));
    const box = within(replyItem('trinity')).getByRole('textbox', { name: 'Reply content' });
    expect(box).toHaveValue('reply number 12');
    await user.clear(box);
    await user.type(box, 'fixed typo');
    await user.click(within(replyItem('trinity')).getByRole('button', { name: 'SAVE' }));
    await expectToast('Reply saved');
    expect(calls.filter((c) => c.method === 'PATCH')).toEqual([
      { method: 'PATCH', url: '/api/replies/12', body: { content: 'fixed typo' } },
    ]);
    await waitFor(() => expect(replyItem('trinity')).toHaveTextContent('fixed typo'));
    expect(within(replyItem('trinity')).getByRole('link', { name: /^edited/ })).toHaveAttribute(
      'href',
      '/thread/5/revisions?reply=12',
    );
  });

  it('a locked paste: no EDIT on replies for their author', () => {
    renderPaste({
      user: trinity,
      thread: samplePaste({ isLocked: true, replies: [sampleReply({ id: 12 })] }),
    });
    expect(within(replyItem('trinity')).queryByRole('button', { name: 'EDIT' })).not.toBeInTheDocument();
  });
});

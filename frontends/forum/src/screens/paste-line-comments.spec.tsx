import type { PasteDetail } from '@termpaste/contracts';
import { sampleCurrentUser } from '@termpaste/contracts/testing';
import { createQueryClient, preloadMarkdown } from '@termpaste/ui';
import { fireEvent, screen, within } from '@testing-library/react';
import { pasteQuery } from '../api/pastes';
import { renderScreen, sampleReply, samplePaste, type RenderScreenOptions } from '../testing';
import { PasteScreen } from './paste';

// samplePaste() is trinity's (id 3); neo (id 7) reviews it.
const trinity = sampleCurrentUser({ id: 3, username: 'trinity' });
const SCRIPT = '#!/bin/sh\nset -e\necho one\necho two\nexit 0\n';

function renderPaste(thread: PasteDetail, options: RenderScreenOptions = {}) {
  const client = createQueryClient();
  client.setQueryData(pasteQuery(String(thread.id)).queryKey, thread);
  return renderScreen(<PasteScreen />, { path: '/thread/5', route: '/thread/:id', client, ...options });
}

const withComment = (fields: Partial<Parameters<typeof sampleReply>[0]> = {}) =>
  samplePaste({
    content: SCRIPT,
    language: 'bash',
    replyCount: 1,
    replies: [
      sampleReply({
        id: 21,
        content: 'one echo is enough',
        anchor: { fromLine: 3, toLine: 4, version: 1 },
        outdated: false,
        suggestion: 'echo one two',
        suggestionApplied: null,
        ...fields,
      }),
    ],
  });

const code = () => screen.getByRole('region', { name: 'Paste content' });

beforeAll(() => preloadMarkdown());

describe('comments on lines', () => {
  it('shows a line comment under its last line with its diff, and in the replies with a link to its lines', () => {
    renderPaste(withComment());
    const inline = within(code()).getByRole('article', { name: 'Comment on lines 3–4' });
    expect(inline).toHaveTextContent('one echo is enough');
    expect([...inline.querySelectorAll('.lc-diff__line--removed')].map((l) => l.textContent)).toEqual([
      'echo one\n',
      'echo two\n',
    ]);
    expect(inline.querySelector('.lc-diff__line--added')).toHaveTextContent('echo one two');
    // Under line 4, before line 5.
    expect(inline.closest('.lc-inline')?.previousElementSibling).toHaveAttribute('data-line', '4');
    // Not the author: no APPLY.
    expect(within(inline).queryByRole('button', { name: 'APPLY' })).toBeNull();
    const replies = screen.getByRole('region', { name: '1 REPLY' });
    expect(within(replies).getByRole('link', { name: 'lines 3–4' })).toHaveAttribute('href', '#L3-L4');
  });

  it('the paste’s author sees APPLY; an applied one links the version it made', () => {
    renderPaste(withComment(), { user: trinity });
    const inline = within(code()).getByRole('article', { name: 'Comment on lines 3–4' });
    expect(within(inline).getByRole('button', { name: 'APPLY' })).toBeInTheDocument();
  });

  it("a comment whose lines changed is 'on an older version', linked to it, and not under the lines", () => {
    renderPaste(withComment({ outdated: true, suggestionApplied: 2 }), { user: trinity });
    expect(within(code()).queryByRole('article')).toBeNull();
    const replies = screen.getByRole('region', { name: '1 REPLY' });
    expect(within(replies).getByText('on an older version')).toBeInTheDocument();
    expect(within(replies).getByRole('link', { name: /lines 3–4 of version 1/ })).toHaveAttribute(
      'href',
      '/thread/5/revisions#v1',
    );
    expect(within(replies).getByRole('link', { name: /applied in version 2/ })).toHaveAttribute(
      'href',
      '/thread/5/revisions#v2',
    );
    expect(within(replies).queryByRole('button', { name: 'APPLY' })).toBeNull();
  });

  it('select lines, then COMMENT (or c) opens the form under them, the suggestion prefilled', () => {
    renderPaste(samplePaste({ content: SCRIPT, language: 'bash', replies: [], replyCount: 0 }));
    expect(within(code()).queryByRole('button', { name: 'COMMENT' })).toBeNull();
    fireEvent.click(within(code()).getByRole('link', { name: 'Line 2' }));
    fireEvent.click(within(code()).getByRole('link', { name: 'Line 3' }), { shiftKey: true });
    fireEvent.keyDown(within(code()).getByRole('link', { name: 'Line 3' }), { key: 'c' });
    const form = screen.getByRole('form', { name: 'Comment on lines 2–3' });
    fireEvent.click(within(form).getByRole('button', { name: 'SUGGEST A CHANGE' }));
    expect(within(form).getByLabelText('Suggested text for lines 2–3')).toHaveValue('set -e\necho one');
    fireEvent.click(within(form).getByRole('button', { name: 'CANCEL' }));
    expect(screen.queryByRole('form', { name: 'Comment on lines 2–3' })).toBeNull();
    // COMMENT in the toolbar does the same.
    fireEvent.click(within(code()).getByRole('button', { name: 'COMMENT' }));
    expect(screen.getByRole('form', { name: 'Comment on lines 2–3' })).toBeInTheDocument();
  });

  it('signed out: no COMMENT', () => {
    renderPaste(samplePaste({ content: SCRIPT, language: 'bash', replies: [], replyCount: 0 }), {
      user: null,
    });
    fireEvent.click(within(code()).getByRole('link', { name: 'Line 2' }));
    expect(within(code()).queryByRole('button', { name: 'COMMENT' })).toBeNull();
  });
});

import type { PasteDetail } from '@termpaste/contracts';
import { createQueryClient, preloadMarkdown } from '@termpaste/ui';
import { screen, waitFor, within } from '@testing-library/react';
import { pasteQuery } from '../api/pastes';
import { renderScreen, sampleReply, samplePaste } from '../testing';
import { PasteScreen } from './paste';

const PYTHON = 'import os\n\ndef main():\n    return os.getcwd()\n\nmain()\n';

function renderPaste(thread: PasteDetail) {
  const client = createQueryClient();
  client.setQueryData(pasteQuery(String(thread.id)).queryKey, thread);
  return renderScreen(<PasteScreen />, { path: '/thread/5', route: '/thread/:id', client });
}

const pasteCard = () => screen.getByRole('region', { name: 'PASTE' });

beforeAll(() => preloadMarkdown());

describe('a paste in a language', () => {
  it('shows in the code view: numbered, highlighted, with its COPY, RAW and line links', async () => {
    renderPaste(samplePaste({ content: PYTHON, language: 'python' }));
    const code = within(pasteCard()).getByRole('region', { name: 'Paste content' });
    expect(code).toHaveAttribute('data-language', 'python');
    expect(within(code).getAllByRole('link', { name: /^Line \d+$/ })).toHaveLength(6);
    await waitFor(() => expect(within(code).getByText('def')).toHaveClass('hljs-keyword'));
    expect(within(code).getByRole('link', { name: 'RAW' })).toHaveAttribute('href', '/api/threads/5/raw');
    expect(within(pasteCard()).getAllByRole('button', { name: 'Copy paste' })).toHaveLength(1);
    expect(document.querySelector('.tp-markdown.forum-thread__content')).toBeNull();
  });

  it('Markdown (no language) renders as before', async () => {
    renderPaste(samplePaste({ content: '# Title\n\n**bold**', language: null }));
    expect(await within(pasteCard()).findByText('bold')).toContainHTML('<strong>bold</strong>');
    expect(within(pasteCard()).queryByRole('region', { name: 'Paste content' })).toBeNull();
    expect(within(pasteCard()).getByRole('button', { name: 'Copy paste' })).toHaveTextContent('COPY PASTE');
  });

  it('terminal output shows its colours and hostile content as text', async () => {
    renderPaste(
      samplePaste({
        content:
          '\x1b[31m<img src=x onerror=alert(1)>\x1b[0m\n\x1b]8;;javascript:alert(1)\x07click\x1b]8;;\x07',
        language: 'ansi',
      }),
    );
    const code = within(pasteCard()).getByRole('region', { name: 'Paste content' });
    await waitFor(() =>
      expect(within(code).getByText('<img src=x onerror=alert(1)>').style.color).toBe('var(--tp-ansi-red)'),
    );
    expect(code.querySelector('img')).toBeNull();
    expect(within(code).queryByRole('link', { name: 'click' })).toBeNull();
  });

  it('a reply pointing at #L3-L4 (or at this paste with that hash) shows those lines under its text', async () => {
    renderPaste(
      samplePaste({
        content: PYTHON,
        language: 'python',
        replies: [
          sampleReply({ id: 11, content: 'Why not pathlib at #L3-L4?' }),
          sampleReply({ id: 12, content: 'See http://localhost/thread/5#L6' }),
          sampleReply({ id: 13, content: 'Compare /thread/8#L1 (another paste)' }),
        ],
      }),
    );
    const excerpt = screen.getByRole('region', { name: 'Lines 3-4 of the paste' });
    expect([...excerpt.querySelectorAll('.cv-num')].map((n) => n.textContent)).toEqual(['3', '4']);
    expect(excerpt).toHaveTextContent('def main():');
    expect(excerpt).toHaveTextContent('return os.getcwd()');
    expect(within(excerpt).getByRole('link', { name: 'Line 3' })).toHaveAttribute('href', '#L3');
    expect(screen.getByRole('link', { name: 'Lines 3-4' })).toHaveAttribute('href', '#L3-L4');
    expect(screen.getByRole('region', { name: 'Line 6 of the paste' })).toHaveTextContent('main()');
    expect(screen.getAllByRole('region', { name: /of the paste$/ })).toHaveLength(2);
    for (const view of document.querySelectorAll('.cv'))
      await waitFor(() => expect(view).toHaveAttribute('data-highlighted', 'true'));
  });

  it('an excerpt of terminal output starts in the colours of the lines above it', async () => {
    renderPaste(
      samplePaste({
        content: '\x1b[32mok 1\nok 2\x1b[0m\nplain 3\n',
        language: 'ansi',
        replies: [sampleReply({ content: 'see #L2' }), sampleReply({ id: 12, content: 'and #L3' })],
      }),
    );
    const second = screen.getByRole('region', { name: 'Line 2 of the paste' });
    await waitFor(() => expect(within(second).getByText('ok 2').style.color).toBe('var(--tp-ansi-green)'));
    const third = screen.getByRole('region', { name: 'Line 3 of the paste' });
    await waitFor(() => expect(third).toHaveAttribute('data-highlighted', 'true'));
    expect(within(third).getByText('plain 3').style.color).toBe('');
  });

  it('a Markdown paste shows no excerpt', () => {
    renderPaste(
      samplePaste({ content: 'a\nb\nc', language: null, replies: [sampleReply({ content: '#L2' })] }),
    );
    expect(screen.queryByRole('region', { name: /of the paste$/ })).toBeNull();
  });
});

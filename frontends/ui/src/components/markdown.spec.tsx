import { act, render, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { Markdown } from './markdown.js';
import { stubClipboard } from '../testing/clipboard.js';
import { resetToastsForTests } from './toast-store.js';

// The first import of the parser takes jest longer than a findBy waits.
beforeAll(() => import('./markdown-renderer.js'));

afterEach(() => {
  act(() => resetToastsForTests());
});

/** Renders, then waits for the renderer (fetched on demand) to replace the skeleton. */
async function renderMarkdown(ui: ReactElement) {
  const result = render(ui);
  await waitFor(() => expect(result.container.querySelector('.tp-markdown__loading')).toBeNull(), {
    timeout: 5000,
  });
  return result;
}

describe('Markdown', () => {
  it("puts a member's headings a level under the screen's h1, keeping the written level for the look", async () => {
    const { container } = await renderMarkdown(
      <Markdown>{'# One\n\n## Two\n\n### Three\n\n##### Five\n\n###### Six'}</Markdown>,
    );
    expect(container.querySelector('h1')).toBeNull();
    const headings = screen.getAllByRole('heading');
    expect(headings.map((h) => [h.tagName, h.dataset.level, h.textContent])).toEqual([
      ['H2', '1', 'One'],
      ['H3', '2', 'Two'],
      ['H4', '3', 'Three'],
      ['H6', '5', 'Five'],
      ['H6', '6', 'Six'],
    ]);
  });

  it('renders a GFM table', async () => {
    await renderMarkdown(
      <Markdown>{'| Port | Service |\n| --- | --- |\n| 22 | ssh |\n| 80 | http |'}</Markdown>,
    );
    const table = screen.getByRole('table');
    expect(within(table).getByRole('columnheader', { name: 'Port' })).toBeInTheDocument();
    expect(within(table).getByRole('columnheader', { name: 'Service' })).toBeInTheDocument();
    expect(within(table).getByRole('cell', { name: 'ssh' })).toBeInTheDocument();
    expect(within(table).getAllByRole('row')).toHaveLength(3);
  });

  it('renders a GFM task list as checkboxes, and strikethrough', async () => {
    await renderMarkdown(<Markdown>{'- [x] scan ports\n- [ ] write report\n\n~~old~~'}</Markdown>);
    const boxes = screen.getAllByRole('checkbox');
    expect(boxes).toHaveLength(2);
    expect(boxes[0]).toBeChecked();
    expect(boxes[1]).not.toBeChecked();
    expect(screen.getByText('scan ports')).toBeInTheDocument();
    expect(screen.getByText('old').tagName).toBe('DEL');
  });

  it('wraps its output in tp-markdown with the caller class', async () => {
    const { container } = await renderMarkdown(<Markdown className="extra">**bold**</Markdown>);
    expect(container.firstElementChild).toHaveClass('tp-markdown', 'extra');
    expect(screen.getByText('bold').tagName).toBe('STRONG');
  });

  it('highlights a fenced js block and copies its exact source', async () => {
    const source = 'const answer = 42;\nfunction hi() {\n  return "hi";\n}';
    const { container } = await renderMarkdown(
      <Markdown>{'Intro\n\n```js\n' + source + '\n```\n'}</Markdown>,
    );
    const code = container.querySelector('pre > code')!;
    expect(code).toHaveClass('hljs', 'language-js');
    expect(code.querySelector('.hljs-keyword')).toHaveTextContent('const');
    expect(code.querySelector('[class^="hljs-"]')).not.toBeNull();
    expect(code.textContent).toBe(source + '\n');

    const user = userEvent.setup();
    const writeText = stubClipboard(jest.fn(() => Promise.resolve()));
    await user.click(screen.getByRole('button', { name: 'Copy code' }));
    expect(writeText).toHaveBeenCalledTimes(1);
    expect(writeText).toHaveBeenCalledWith(source);
    expect(await screen.findByText('COPIED')).toBeInTheDocument();
  });

  it('gives every code block its own copy button', async () => {
    await renderMarkdown(<Markdown>{'```\nfirst\n```\n\n```py\nprint(2)\n```'}</Markdown>);
    const buttons = screen.getAllByRole('button', { name: 'Copy code' });
    expect(buttons).toHaveLength(2);
    const user = userEvent.setup();
    const writeText = stubClipboard(jest.fn(() => Promise.resolve()));
    await user.click(buttons[1]!);
    expect(writeText).toHaveBeenCalledWith('print(2)');
  });

  it('shows inline code without a copy button', async () => {
    await renderMarkdown(<Markdown>{'run `ls -la` now'}</Markdown>);
    expect(screen.getByText('ls -la').tagName).toBe('CODE');
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
  });

  it('drops a javascript: link and keeps http(s), mailto and relative links', async () => {
    await renderMarkdown(
      <Markdown>
        {[
          '[evil](javascript:alert(1))',
          '[data](data:text/html;base64,PHNjcmlwdD4=)',
          '[site](https://example.com/a)',
          '[plain](http://example.org)',
          '[mail](mailto:neo@zion.example)',
          '[local](/thread/5)',
        ].join('\n\n')}
      </Markdown>,
    );
    const evil = screen.getByText('evil');
    expect(evil.tagName).not.toBe('A');
    expect(evil.closest('a')).toBeNull();
    expect(evil).not.toHaveAttribute('href');
    expect(screen.getByText('data').closest('a')).toBeNull();
    expect(document.querySelector('a[href^="javascript"]')).toBeNull();
    expect(document.querySelector('[href*="alert"]')).toBeNull();

    expect(screen.getByRole('link', { name: 'site' })).toHaveAttribute('href', 'https://example.com/a');
    expect(screen.getByRole('link', { name: 'plain' })).toHaveAttribute('href', 'http://example.org');
    expect(screen.getByRole('link', { name: 'mail' })).toHaveAttribute('href', 'mailto:neo@zion.example');
    expect(screen.getByRole('link', { name: 'local' })).toHaveAttribute('href', '/thread/5');
    expect(screen.getAllByRole('link')).toHaveLength(4);
  });

  it('opens external links in a new tab with noopener, relative ones in place', async () => {
    await renderMarkdown(<Markdown>{'[site](https://example.com) and [local](/users)'}</Markdown>);
    const site = screen.getByRole('link', { name: 'site' });
    expect(site).toHaveAttribute('target', '_blank');
    expect(site.getAttribute('rel')?.split(' ')).toEqual(expect.arrayContaining(['noopener', 'noreferrer']));
    const local = screen.getByRole('link', { name: 'local' });
    expect(local).not.toHaveAttribute('target');
    expect(local).not.toHaveAttribute('rel');
  });

  it('links a bare URL (GFM autolink) as an external link', async () => {
    await renderMarkdown(<Markdown>{'see https://example.com/x for more'}</Markdown>);
    const link = screen.getByRole('link', { name: 'https://example.com/x' });
    expect(link).toHaveAttribute('href', 'https://example.com/x');
    expect(link).toHaveAttribute('target', '_blank');
  });

  it('shows an uploaded image of our own origin, and one from another site as a link to it (not loaded)', async () => {
    const { container } = await renderMarkdown(
      <Markdown>
        {'![my avatar](/api/uploads/avatars/1/abc) and ![tracker](https://evil.example/pixel.gif "px") ' +
          'and ![](https://cdn.example.org/a.png)'}
      </Markdown>,
    );
    const images = container.querySelectorAll('img');
    expect(images).toHaveLength(1);
    expect(images[0]).toHaveAttribute('src', `${window.location.origin}/api/uploads/avatars/1/abc`);
    expect(images[0]).toHaveAttribute('alt', 'my avatar');
    expect(images[0]).toHaveAttribute('loading', 'lazy');
    const tracker = screen.getByRole('link', { name: '[image: tracker]' });
    expect(tracker).toHaveAttribute('href', 'https://evil.example/pixel.gif');
    expect(tracker).toHaveAttribute('target', '_blank');
    expect(tracker.getAttribute('rel')?.split(' ')).toEqual(
      expect.arrayContaining(['noopener', 'noreferrer']),
    );
    expect(screen.getByRole('link', { name: '[image: cdn.example.org]' })).toHaveAttribute(
      'href',
      'https://cdn.example.org/a.png',
    );
  });

  it('loads no other address of our own origin as an image: ![](/api/logout) stays text', async () => {
    const origin = window.location.origin;
    const { container } = await renderMarkdown(
      <Markdown>
        {[
          '![bye](/api/logout)',
          `![](${origin}/api/logout)`,
          '![up](../api/logout)',
          '![dots](/api/uploads/../logout)',
          '![encoded](/api/uploads/%2e%2e/logout)',
          '![slash](/api\\uploads/../logout)',
          '![upper](/API/UPLOADS/avatars/1/abc)',
          '![bare](/api/uploads)',
          '![page](/thread/1 "a page")',
          '![relative](avatar.png)',
        ].join(' ')}
      </Markdown>,
    );
    expect(container.querySelector('img')).toBeNull();
    // Not links either: a click would be a sign-out navigation.
    expect(container.querySelector('a')).toBeNull();
    for (const text of [
      '[image: bye]',
      `[image: ${origin}/api/logout]`,
      '[image: up]',
      '[image: dots]',
      '[image: encoded]',
      '[image: slash]',
      '[image: upper]',
      '[image: bare]',
      '[image: page]',
      '[image: relative]',
    ]) {
      expect(screen.getByText(text)).toHaveClass('tp-markdown__dead-link');
    }
    expect(screen.getByText('[image: page]')).toHaveAttribute('title', 'a page');
  });

  it('loads an upload by its resolved address, whatever way it is written', async () => {
    const origin = window.location.origin;
    const { container } = await renderMarkdown(
      <Markdown>{`![a](${origin}/api/uploads/avatars/2/x.png) ![b](/api/uploads/x/../avatars/3/y?v=1)`}</Markdown>,
    );
    expect([...container.querySelectorAll('img')].map((img) => img.getAttribute('src'))).toEqual([
      `${origin}/api/uploads/avatars/2/x.png`,
      `${origin}/api/uploads/avatars/3/y?v=1`,
    ]);
  });

  it('drops an image whose address the URL rule blanked, keeping its text', async () => {
    const { container } = await renderMarkdown(<Markdown>{'![x marks](javascript:alert(1))'}</Markdown>);
    expect(container.querySelector('img')).toBeNull();
    expect(container.querySelector('a')).toBeNull();
    expect(container).toHaveTextContent('x marks');
  });

  it('shows raw HTML as text and creates no element from it', async () => {
    const { container } = await renderMarkdown(
      <Markdown>{'<script>alert(1)</script>\n\nhello <img src=x onerror=alert(1)> world'}</Markdown>,
    );
    expect(container.querySelector('script')).toBeNull();
    expect(container.querySelector('img')).toBeNull();
    expect(container.querySelector('[onerror]')).toBeNull();
    expect(container).toHaveTextContent('<script>alert(1)</script>');
    expect(container).toHaveTextContent('hello <img src=x onerror=alert(1)> world');
  });

  it('shows an HTML block with an event handler as text', async () => {
    const { container } = await renderMarkdown(<Markdown>{'<div onclick="alert(1)">click</div>'}</Markdown>);
    expect(container.querySelector('div[onclick]')).toBeNull();
    expect(container).toHaveTextContent('<div onclick="alert(1)">click</div>');
  });

  it('shows the text as written until it can be drawn (renderer or grammars fetched), then drawn', async () => {
    // Rust: a grammar no test here has fetched yet.
    const { container } = render(<Markdown>{'# Title\n\n```rust\nfn main() {}\n```'}</Markdown>);
    const loading = container.querySelector('.tp-markdown__loading');
    expect(loading).not.toBeNull();
    // A paragraph per block, as it will be drawn, so its height is about the same.
    expect([...loading!.querySelectorAll('p')].map((p) => p.textContent)).toEqual([
      '# Title',
      '```rust\nfn main() {}\n```',
    ]);
    expect(screen.queryByRole('heading')).not.toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Title' })).toBeInTheDocument();
    expect(container.querySelector('.tp-markdown__loading')).toBeNull();
    expect(container.querySelector('code .hljs-keyword')).toHaveTextContent('fn');
  });

  it('draws at once a text whose grammars are there already', () => {
    const { container } = render(<Markdown>{'**now**\n\n```rust\nlet x = 1;\n```'}</Markdown>);
    expect(container.querySelector('.tp-markdown__loading')).toBeNull();
    expect(screen.getByText('now').tagName).toBe('STRONG');
    expect(container.querySelector('code .hljs-keyword')).toHaveTextContent('let');
  });

  it('keeps the previous rendering on screen while a new text is prepared', async () => {
    const { rerender, container } = await renderMarkdown(<Markdown>{'first **version**'}</Markdown>);
    rerender(<Markdown>{'second **version**\n\n```sh\nls\n```'}</Markdown>);
    expect(container.querySelector('.tp-markdown__loading')).toBeNull();
    expect(await screen.findByText(/second/)).toBeInTheDocument();
    expect(await screen.findByText('ls')).toHaveClass('hljs-built_in');
  });

  it('highlights code embedded in another language (a script inside HTML)', async () => {
    const { container } = await renderMarkdown(
      <Markdown>{'```html\n<script>\nconst x = 1;\n</script>\n```'}</Markdown>,
    );
    await waitFor(() => expect(container.querySelector('code .hljs-tag')).not.toBeNull());
    expect(container.querySelector('code .hljs-keyword')).toHaveTextContent('const');
  });

  it('leaves a block in an unknown language, or none, as plain text', async () => {
    const { container } = await renderMarkdown(
      <Markdown>{'```klingon\nqapla\n```\n\n```\nplain\n```'}</Markdown>,
    );
    const [named, bare] = Array.from(container.querySelectorAll('pre > code'));
    await waitFor(() => expect(named).toHaveClass('hljs', 'language-klingon'));
    expect(named!.textContent).toBe('qapla\n');
    expect(named!.querySelector('span')).toBeNull();
    expect(bare).not.toHaveClass('hljs');
    expect(bare!.textContent).toBe('plain\n');
  });
});

import { act, render, screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { Markdown } from './markdown.js';
import { stubClipboard } from '../testing/clipboard.js';
import { resetToastsForTests } from './toast-store.js';

afterEach(() => {
  act(() => resetToastsForTests());
});

describe('Markdown (SPEC §5)', () => {
  it('renders a GFM table', () => {
    render(<Markdown>{'| Port | Service |\n| --- | --- |\n| 22 | ssh |\n| 80 | http |'}</Markdown>);
    const table = screen.getByRole('table');
    expect(within(table).getByRole('columnheader', { name: 'Port' })).toBeInTheDocument();
    expect(within(table).getByRole('columnheader', { name: 'Service' })).toBeInTheDocument();
    expect(within(table).getByRole('cell', { name: 'ssh' })).toBeInTheDocument();
    expect(within(table).getAllByRole('row')).toHaveLength(3);
  });

  it('renders a GFM task list as checkboxes, and strikethrough', () => {
    render(<Markdown>{'- [x] scan ports\n- [ ] write report\n\n~~old~~'}</Markdown>);
    const boxes = screen.getAllByRole('checkbox');
    expect(boxes).toHaveLength(2);
    expect(boxes[0]).toBeChecked();
    expect(boxes[1]).not.toBeChecked();
    expect(screen.getByText('scan ports')).toBeInTheDocument();
    expect(screen.getByText('old').tagName).toBe('DEL');
  });

  it('wraps its output in tp-markdown with the caller class', () => {
    const { container } = render(<Markdown className="extra">**bold**</Markdown>);
    expect(container.firstElementChild).toHaveClass('tp-markdown', 'extra');
    expect(screen.getByText('bold').tagName).toBe('STRONG');
  });

  it('highlights a fenced js block and copies its exact source', async () => {
    const source = 'const answer = 42;\nfunction hi() {\n  return "hi";\n}';
    const { container } = render(<Markdown>{'Intro\n\n```js\n' + source + '\n```\n'}</Markdown>);
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
    render(<Markdown>{'```\nfirst\n```\n\n```py\nprint(2)\n```'}</Markdown>);
    const buttons = screen.getAllByRole('button', { name: 'Copy code' });
    expect(buttons).toHaveLength(2);
    const user = userEvent.setup();
    const writeText = stubClipboard(jest.fn(() => Promise.resolve()));
    await user.click(buttons[1]!);
    expect(writeText).toHaveBeenCalledWith('print(2)');
  });

  it('shows inline code without a copy button', () => {
    render(<Markdown>{'run `ls -la` now'}</Markdown>);
    expect(screen.getByText('ls -la').tagName).toBe('CODE');
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
  });

  it('drops a javascript: link and keeps http(s), mailto and relative links', () => {
    render(
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

  it('opens external links in a new tab with noopener, relative ones in place', () => {
    render(<Markdown>{'[site](https://example.com) and [local](/users)'}</Markdown>);
    const site = screen.getByRole('link', { name: 'site' });
    expect(site).toHaveAttribute('target', '_blank');
    expect(site.getAttribute('rel')?.split(' ')).toEqual(expect.arrayContaining(['noopener', 'noreferrer']));
    const local = screen.getByRole('link', { name: 'local' });
    expect(local).not.toHaveAttribute('target');
    expect(local).not.toHaveAttribute('rel');
  });

  it('links a bare URL (GFM autolink) as an external link', () => {
    render(<Markdown>{'see https://example.com/x for more'}</Markdown>);
    const link = screen.getByRole('link', { name: 'https://example.com/x' });
    expect(link).toHaveAttribute('href', 'https://example.com/x');
    expect(link).toHaveAttribute('target', '_blank');
  });

  it('shows an image of our own origin, and one from another site as a link to it (not loaded)', () => {
    const { container } = render(
      <Markdown>
        {'![my avatar](/api/uploads/avatars/1/abc) and ![tracker](https://evil.example/pixel.gif "px") ' +
          'and ![](https://cdn.example.org/a.png)'}
      </Markdown>,
    );
    const images = container.querySelectorAll('img');
    expect(images).toHaveLength(1);
    expect(images[0]).toHaveAttribute('src', '/api/uploads/avatars/1/abc');
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

  it('drops an image whose address the URL rule blanked, keeping its text', () => {
    const { container } = render(<Markdown>{'![x marks](javascript:alert(1))'}</Markdown>);
    expect(container.querySelector('img')).toBeNull();
    expect(container.querySelector('a')).toBeNull();
    expect(container).toHaveTextContent('x marks');
  });

  it('shows raw HTML as text and creates no element from it', () => {
    const { container } = render(
      <Markdown>{'<script>alert(1)</script>\n\nhello <img src=x onerror=alert(1)> world'}</Markdown>,
    );
    expect(container.querySelector('script')).toBeNull();
    expect(container.querySelector('img')).toBeNull();
    expect(container.querySelector('[onerror]')).toBeNull();
    expect(container).toHaveTextContent('<script>alert(1)</script>');
    expect(container).toHaveTextContent('hello <img src=x onerror=alert(1)> world');
  });

  it('shows an HTML block with an event handler as text', () => {
    const { container } = render(<Markdown>{'<div onclick="alert(1)">click</div>'}</Markdown>);
    expect(container.querySelector('div[onclick]')).toBeNull();
    expect(container).toHaveTextContent('<div onclick="alert(1)">click</div>');
  });
});

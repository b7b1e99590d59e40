import { MARKDOWN_TEXTS } from '@termpaste/contracts';
import { act, render, screen, waitFor } from '@testing-library/react';
import { deserialize, serialize } from 'node:v8';
import { defaultUrlTransform, MarkdownHooks } from 'react-markdown';
import { Markdown } from './markdown.js';
import { markdownTree, rehypePlugins, remarkPlugins, urlTransform } from './markdown-pipeline.js';
import { components, MAIN_THREAD_MAX_CHARS } from './markdown-renderer.js';
import {
  parseBudgetMs,
  resetMarkdownWorkerForTests,
  type MarkdownRequest,
  type MarkdownResponse,
} from './markdown-worker-client.js';

// The first import of the parser takes jest longer than a findBy waits.
beforeAll(() => import('./markdown-renderer.js'));

type Behaviour = 'parse' | 'hang' | 'fail' | 'broken';

/**
 * A Web Worker run in this thread: loads (`broken`: fails), says ready, parses each text and answers a
 * structured clone of the tree; `hang` never answers, `fail` throws.
 */
class FakeWorker {
  static behaviour: Behaviour = 'parse';
  static started: FakeWorker[] = [];
  onmessage: ((event: MessageEvent<MarkdownResponse>) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  readonly behaviour = FakeWorker.behaviour;
  readonly texts: string[] = [];
  terminated = false;

  constructor(readonly url: URL) {
    FakeWorker.started.push(this);
    setTimeout(() => (this.behaviour === 'broken' ? this.onerror?.(new Event('error')) : this.send('ready')));
  }

  private send(data: MarkdownResponse) {
    if (!this.terminated) this.onmessage?.({ data } as MessageEvent<MarkdownResponse>);
  }

  postMessage({ id, text }: MarkdownRequest) {
    this.texts.push(text);
    if (this.behaviour === 'hang') return;
    if (this.behaviour === 'fail') return void setTimeout(() => this.send({ id, tree: null }));
    void markdownTree(text, () => this.send({ id, parsed: true })).then((tree) =>
      this.send({ id, tree: deserialize(serialize(tree)) as typeof tree }),
    );
  }

  terminate() {
    this.terminated = true;
  }
}

const WORKER_URL = new URL('http://localhost/markdown-worker.js');

beforeEach(() => {
  FakeWorker.behaviour = 'parse';
  FakeWorker.started = [];
  (globalThis as { Worker?: unknown }).Worker = FakeWorker;
  resetMarkdownWorkerForTests(() => WORKER_URL);
});

afterEach(() => {
  jest.useRealTimers();
  delete (globalThis as { Worker?: unknown }).Worker;
  resetMarkdownWorkerForTests();
});

/** Ordinary prose, to take a sample over the length parsed on the main thread. */
const FILLER = `\n\n${'Some ordinary words of a paste, nothing special. '.repeat(25)}`;
const long = (markdown: string) => markdown + FILLER;

const noteOf = (container: HTMLElement) => container.querySelector('.tp-markdown__plain-note');

describe('Markdown parsed off the main thread', () => {
  it('samples are long enough to be parsed in the worker', () => {
    expect(long('').length).toBeGreaterThan(MAIN_THREAD_MAX_CHARS);
  });

  it('gives a parse 2 s, and 10 ms more per 1,000 characters', () => {
    expect(parseBudgetMs(2_000)).toBe(2_020);
    expect(parseBudgetMs(400_000)).toBe(6_000);
    expect(parseBudgetMs(1_048_576)).toBe(12_486);
  });

  // Each sample, rendered by react-markdown on the main thread (as every text was) and by the worker's
  // tree: the same page.
  const samples: Record<string, string> = {
    headings: '# One\n\n## Two\n\n### Three\n\n##### Five\n\n###### Six',
    table: '| Port | Service |\n| --- | --- |\n| 22 | ssh |\n| 80 | http |',
    'task list and strikethrough': '- [x] scan ports\n- [ ] write report\n\n~~old~~',
    'code highlighted, with copy buttons':
      'Intro\n\n```js\nconst answer = 42;\n```\n\n```\nplain\n```\n\n`ls`',
    'html with embedded script': '```html\n<script>\nconst x = 1;\n</script>\n```',
    links: [
      '[evil](javascript:alert(1))',
      '[data](data:text/html;base64,PHNjcmlwdD4=)',
      '[site](https://example.com/a "t")',
      '[mail](mailto:neo@zion.example) [local](/thread/5) <https://auto.example> www.example.org',
      '[ref][r]\n\n[r]: https://ref.example',
    ].join('\n\n'),
    images:
      '![my avatar](/api/uploads/avatars/1/abc) ![tracker](https://evil.example/p.gif "px") ' +
      '![bye](/api/logout) ![x](javascript:alert(1)) ![](https://cdn.example.org/a.png)',
    'raw html as text':
      '<script>alert(1)</script>\n\nhello <img src=x onerror=alert(1)> world\n\n<div onclick="x()">c</div>',
    'nesting, footnotes, breaks':
      '> quote\n> > deeper *em* **strong** ***both***\n\n1. one\n   - sub\n2. two\n\ntext[^1]\n\n[^1]: note\n\n---\nline  \nbreak',
  };
  it.each(Object.entries(samples))(
    'renders %s as react-markdown does on the main thread',
    async (_, sample) => {
      const text = long(sample);
      const main = render(
        <MarkdownHooks remarkPlugins={remarkPlugins} rehypePlugins={rehypePlugins} components={components}>
          {text}
        </MarkdownHooks>,
      );
      await waitFor(() => expect(main.container.innerHTML).toContain('Some ordinary words'), {
        timeout: 5000,
      });
      const expected = main.container.innerHTML;
      main.unmount();

      const { container } = render(<Markdown>{text}</Markdown>);
      await waitFor(() => expect(container.querySelector('.tp-markdown__loading')).toBeNull(), {
        timeout: 5000,
      });
      expect(FakeWorker.started).toHaveLength(1);
      expect(FakeWorker.started[0]!.url).toBe(WORKER_URL);
      expect(FakeWorker.started[0]!.texts).toEqual([text]);
      expect(container.querySelector('.tp-markdown')!.innerHTML).toBe(expected);
    },
  );

  it("blanks exactly the addresses react-markdown's URL rule blanks", () => {
    for (const url of [
      'https://a.example',
      'HTTP://A',
      'ircs://x',
      'mailto:a@b',
      'xmpp:a@b',
      'javascript:alert(1)',
      'JavaScript:x',
      'data:text/html,x',
      'vbscript:x',
      '/a:b',
      '?q=a:b',
      '#x:y',
      'a/b:c',
      'tel:1',
      '',
      ':',
      'ftp://x',
    ]) {
      expect([url, urlTransform(url)]).toEqual([url, defaultUrlTransform(url)]);
    }
  });

  it('parses a short text on the main thread, without the worker', () => {
    render(<Markdown>{'**now**'}</Markdown>);
    expect(screen.getByText('now').tagName).toBe('STRONG');
    expect(FakeWorker.started).toHaveLength(0);
  });

  it('parses two long texts of one page one after the other in one worker', async () => {
    const { container } = render(
      <>
        <Markdown>{long('# First')}</Markdown>
        <Markdown>{long('# Second')}</Markdown>
      </>,
    );
    expect(await screen.findByRole('heading', { name: 'First' })).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Second' })).toBeInTheDocument();
    expect(FakeWorker.started).toHaveLength(1);
    expect(noteOf(container)).toBeNull();
  });

  it('shows a text whose parse runs out of time as plain text with a note, and starts a new worker for the next', async () => {
    jest.useFakeTimers();
    FakeWorker.behaviour = 'hang';
    const hostile = '*a'.repeat(1_000);
    const { container, rerender } = render(<Markdown>{hostile}</Markdown>);
    await act(async () => {
      await jest.advanceTimersByTimeAsync(parseBudgetMs(hostile.length) - 10);
    });
    // Still within its budget: the skeleton.
    expect(container.querySelector('.tp-markdown__loading')).not.toBeNull();
    expect(noteOf(container)).toBeNull();
    await act(async () => {
      await jest.advanceTimersByTimeAsync(20);
    });
    expect(noteOf(container)).toHaveTextContent(MARKDOWN_TEXTS.plainSlow);
    expect(container.querySelector('.tp-markdown__plain')!.textContent).toBe(hostile);
    expect(container.querySelector('em')).toBeNull();
    expect(FakeWorker.started[0]!.terminated).toBe(true);

    FakeWorker.behaviour = 'parse';
    jest.useRealTimers();
    rerender(<Markdown>{long('# Fine again')}</Markdown>);
    expect(await screen.findByRole('heading', { name: 'Fine again' })).toBeInTheDocument();
    expect(FakeWorker.started).toHaveLength(2);
    expect(noteOf(container)).toBeNull();
  });

  it('shows a text the parser failed on as plain text with a note', async () => {
    FakeWorker.behaviour = 'fail';
    const text = long('>'.repeat(10_000));
    const { container } = render(<Markdown>{text}</Markdown>);
    await waitFor(() => expect(noteOf(container)).toHaveTextContent(MARKDOWN_TEXTS.plainFailed));
    expect(container.querySelector('.tp-markdown__plain')!.textContent).toBe(text);
  });

  it('shows long texts as plain text with a note when the worker cannot load, and tries no more', async () => {
    FakeWorker.behaviour = 'broken';
    const { container } = render(<Markdown>{long('# Not formatted')}</Markdown>);
    await waitFor(() => expect(noteOf(container)).toHaveTextContent(MARKDOWN_TEXTS.plainUnavailable));
    expect(screen.queryByRole('heading')).not.toBeInTheDocument();
    render(<Markdown>{long('# Nor this')}</Markdown>);
    expect(await screen.findAllByText(MARKDOWN_TEXTS.plainUnavailable)).toHaveLength(2);
    expect(FakeWorker.started).toHaveLength(1);
  });

  it('never parses a long text on the main thread where no worker can start: 400,000 characters of `*a` show at once, plain', async () => {
    delete (globalThis as { Worker?: unknown }).Worker;
    const hostile = '*a'.repeat(200_000);
    const started = performance.now();
    const { container } = render(<Markdown>{hostile}</Markdown>);
    await waitFor(() => expect(noteOf(container)).toHaveTextContent(MARKDOWN_TEXTS.plainUnavailable));
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(container.querySelector('.tp-markdown__plain')!.textContent).toBe(hostile);
  });
});

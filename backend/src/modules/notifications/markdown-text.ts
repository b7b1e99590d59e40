import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { MessageChannel, type MessagePort, receiveMessageOnPort, Worker } from 'node:worker_threads';

/**
 * The text a reader sees of member-written Markdown, read with the parser the page renders with
 * (frontends/ui's react-markdown: remark's `mdast-util-from-markdown` with GitHub-flavoured Markdown, as
 * remark-gfm adds it): the values of its text nodes, in document order. Left out: code (fenced, indented,
 * inline), link and image addresses, link titles, image descriptions, definitions and autolinks (a bare
 * or `<…>` address shown as a link). Raw HTML stays in: the page shows it as text (no rehype-raw).
 *
 * micromark is linear on ordinary text (about 5 ms per 5 KB) but not on every input: 100 KB of `*a`
 * takes minutes, 10,000 nested `>` overflow the stack. So the parse runs in a worker thread of its own
 * and the caller waits at most PARSE_BUDGET_MS for it; a text it cannot read in time (the thread is then
 * ended, a new one starts on the next call) or at all gives `undefined`.
 */
export const PARSE_BUDGET_MS = 500;

/** How long a new thread may take to load the parser before the call gives up. */
const START_BUDGET_MS = 10_000;

const require = createRequire(import.meta.url);
const moduleUrl = (name: string): string => pathToFileURL(require.resolve(name)).href;

/** The thread's code (CommonJS, as eval workers are): loads the parser, then reads each text it is sent. */
const WORKER_SOURCE = `
const { workerData } = require('node:worker_threads');
const { signal, port, modules } = workerData;
const done = () => { Atomics.store(signal, 0, 1); Atomics.notify(signal, 0); };
Promise.all(modules.map((url) => import(url))).then(([{ fromMarkdown }, { gfm }, { gfmFromMarkdown }]) => {
  const options = { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] };
  port.on('message', (markdown) => {
    let texts;
    try {
      texts = [];
      const stack = [fromMarkdown(markdown, options)];
      while (stack.length > 0) {
        const node = stack.pop();
        if (node.type === 'text' || node.type === 'html') texts.push(node.value);
        // An autolink's text is its address: only a [text](address) link has text of its own.
        else if (node.type === 'link' && markdown[node.position.start.offset] !== '[') continue;
        // code, inlineCode, image, definition and the like have no children: nothing of theirs is read.
        else if (node.children) for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]);
      }
    } catch {
      texts = null;
    }
    port.postMessage(texts);
    done();
  });
  done();
}, () => { port.postMessage('unavailable'); done(); });
`;

interface Reader {
  worker: Worker;
  port: MessagePort;
  signal: Int32Array;
}

let reader: Reader | undefined;

/** Waits (blocking, up to `ms`) for the thread's signal; false when it did not come in time. */
function signalled(signal: Int32Array, ms: number): boolean {
  return Atomics.wait(signal, 0, 0, ms) !== 'timed-out';
}

function end(current: Reader): void {
  if (reader === current) reader = undefined;
  current.port.close();
  void current.worker.terminate();
}

function startReader(): Reader | undefined {
  const signal = new Int32Array(new SharedArrayBuffer(4));
  const { port1, port2 } = new MessageChannel();
  const modules = ['mdast-util-from-markdown', 'micromark-extension-gfm', 'mdast-util-gfm'].map(moduleUrl);
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { signal, port: port2, modules },
    transferList: [port2],
  });
  worker.unref();
  port1.unref();
  // A thread that fails later is replaced on the next call (its signal never comes: the call times out).
  worker.on('error', () => undefined);
  const started: Reader = { worker, port: port1, signal };
  if (!signalled(signal, START_BUDGET_MS) || receiveMessageOnPort(port1)) {
    end(started);
    return undefined;
  }
  return started;
}

/**
 * The text nodes' values of `markdown` (see above), or `undefined` when it could not be read within
 * PARSE_BUDGET_MS. Synchronous: the caller's thread waits for the reader's.
 */
export function visibleTexts(markdown: string): string[] | undefined {
  const current = reader ?? (reader = startReader());
  if (!current) return undefined;
  Atomics.store(current.signal, 0, 0);
  current.port.postMessage(markdown);
  if (!signalled(current.signal, PARSE_BUDGET_MS)) {
    end(current);
    return undefined;
  }
  const answer = receiveMessageOnPort(current.port)?.message as string[] | null | undefined;
  return answer ?? undefined;
}

import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

/**
 * The text a reader sees of member-written Markdown, parsed as the page parses it: text nodes only, no
 * code, addresses or definitions. micromark is not linear on every input (100 KB of `*a` takes minutes),
 * so the parse runs in a worker within PARSE_BUDGET_MS, else `undefined`. docs/backend.md.
 */
export const PARSE_BUDGET_MS = 500;

/** How long a new thread may take to load the parser before the call gives up. */
const START_BUDGET_MS = 10_000;

const require = createRequire(import.meta.url);
const moduleUrl = (name: string): string => pathToFileURL(require.resolve(name)).href;

/**
 * The thread's code (CommonJS, as eval workers are): loads the parser, says `ready`, then answers each
 * `{ id, markdown }` with `{ id, texts }` (null: the parser failed on it).
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
Promise.all(workerData.modules.map((url) => import(url))).then(([{ fromMarkdown }, { gfm }, { gfmFromMarkdown }]) => {
  const options = { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] };
  parentPort.on('message', ({ id, markdown }) => {
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
    parentPort.postMessage({ id, texts });
  });
  parentPort.postMessage('ready');
}, () => parentPort.postMessage('unavailable'));
`;

interface Reader {
  worker: Worker;
  /** Whether the parser loaded (false: it could not, or not within START_BUDGET_MS). */
  ready: Promise<boolean>;
  /** The calls waiting for their text, by id. */
  waiting: Map<number, (texts: string[] | undefined) => void>;
  nextId: number;
}

let reader: Reader | undefined;

/** Ends a thread: every call still waiting on it gets `undefined`. */
function end(current: Reader): void {
  if (reader === current) reader = undefined;
  for (const answer of current.waiting.values()) answer(undefined);
  current.waiting.clear();
  void current.worker.terminate();
}

function startReader(): Reader {
  const modules = ['mdast-util-from-markdown', 'micromark-extension-gfm', 'mdast-util-gfm'].map(moduleUrl);
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { modules } });
  const current: Reader = { worker, ready: Promise.resolve(false), waiting: new Map(), nextId: 0 };
  current.ready = new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), START_BUDGET_MS);
    timer.unref();
    worker.on('message', (message: 'ready' | 'unavailable' | { id: number; texts: string[] | null }) => {
      if (typeof message === 'string') {
        clearTimeout(timer);
        resolve(message === 'ready');
        return;
      }
      current.waiting.get(message.id)?.(message.texts ?? undefined);
      current.waiting.delete(message.id);
    });
  });
  // A thread that fails (its stack, its memory) is ended; the next call starts a new one.
  worker.on('error', () => end(current));
  worker.on('exit', () => end(current));
  // After the listeners (a 'message' listener holds the process open again): the thread never keeps the
  // process alive.
  worker.unref();
  return current;
}

/**
 * The text nodes' values of `markdown` (see above), or `undefined` when it could not be read within
 * PARSE_BUDGET_MS.
 */
export async function visibleTexts(markdown: string): Promise<string[] | undefined> {
  const current = reader ?? (reader = startReader());
  if (!(await current.ready)) {
    end(current);
    return undefined;
  }
  return new Promise((resolve) => {
    const id = current.nextId++;
    const timer = setTimeout(() => end(current), PARSE_BUDGET_MS);
    timer.unref();
    current.waiting.set(id, (texts) => {
      clearTimeout(timer);
      resolve(texts);
    });
    current.worker.postMessage({ id, markdown });
  });
}

import type { Root } from 'hast';

export interface MarkdownRequest {
  id: number;
  text: string;
}
/** `ready` once the worker's code is loaded; `parsed` when a text's parse is done (its code highlighting may still wait on a grammar); then its tree (null: the parser failed on it). */
export type MarkdownResponse = 'ready' | { id: number; parsed: true } | { id: number; tree: Root | null };

/**
 * How long the worker may parse a text: 2 s plus 10 ms per 1,000 characters. Hostile text (`*a`
 * repeated) is cut off and shown plain; ordinary Markdown fits even on a busy machine. The budget bounds
 * only the wait for plain text: the page stays responsive regardless. Measurements: docs/frontend.md.
 */
export function parseBudgetMs(length: number): number {
  return 2_000 + Math.ceil(length / 100);
}
/**
 * After the parse, how long its code blocks may take to be highlighted: the grammars they name are
 * fetched first, which a slow connection makes long; past it the text is shown as plain text.
 */
export const MARKDOWN_HIGHLIGHT_BUDGET_MS = 15_000;
/** How long the worker's code may take to load before the page gives up on it. */
const START_BUDGET_MS = 15_000;

/** Why a text shows as plain text: its parse ran out of time, no worker can start here, or the parser failed. */
export type PlainReason = 'slow' | 'unavailable' | 'failed';
export type MarkdownOutcome = { tree: Root } | { plain: PlainReason };

interface Job {
  id: number;
  text: string;
  finish: (outcome: MarkdownOutcome) => void;
}

interface Thread {
  worker: Worker;
  ready: boolean;
  /** The job the worker has now (one at a time, so each one's budget is its own), with its deadline. */
  current: { job: Job; timer: ReturnType<typeof setTimeout> } | null;
}

/** Where the shell's files are served from (rspack's public path); the worker is beside its index.html. */
declare const __webpack_public_path__: string;

/** Only ever the worker's own address; a test may point it elsewhere. */
let workerUrl = (): URL =>
  new URL('markdown-worker.js', new URL(__webpack_public_path__, window.location.href));
let thread: Thread | null = null;
/** False once a worker could not start on this page (another origin, a dev server, a test's jsdom). */
let workersWork = true;
const queue: Job[] = [];
let nextId = 1;

function startThread(): Thread | null {
  if (thread) return thread;
  if (!workersWork || typeof Worker === 'undefined') return null;
  let worker: Worker;
  try {
    worker = new Worker(workerUrl());
  } catch {
    workersWork = false;
    return null;
  }
  const started: Thread = { worker, ready: false, current: null };
  const startTimer = setTimeout(() => fail(started, false), START_BUDGET_MS);
  worker.onmessage = (event: MessageEvent<MarkdownResponse>) => {
    const message = event.data;
    if (message === 'ready') {
      clearTimeout(startTimer);
      started.ready = true;
      return void next();
    }
    const current = started.current;
    if (!current || current.job.id !== message.id) return;
    clearTimeout(current.timer);
    if ('parsed' in message) {
      current.timer = setTimeout(() => timeOut(started), MARKDOWN_HIGHLIGHT_BUDGET_MS);
      return;
    }
    started.current = null;
    current.job.finish(message.tree ? { tree: message.tree } : { plain: 'failed' });
    next();
  };
  // The script could not load (or the worker broke): a worker that never said ready never will on this
  // page; one that did is started afresh for the next text.
  worker.onerror = () => fail(started, started.ready);
  thread = started;
  return started;
}

/** Ends a worker; its text (and, if no new worker can start, every text waiting) shows as plain text. */
function fail(failed: Thread, tryAgain: boolean): void {
  if (thread !== failed) return;
  thread = null;
  failed.worker.terminate();
  if (failed.current) {
    clearTimeout(failed.current.timer);
    failed.current.job.finish({ plain: tryAgain ? 'failed' : 'unavailable' });
  }
  if (!tryAgain) {
    workersWork = false;
    for (const job of queue.splice(0)) job.finish({ plain: 'unavailable' });
    return;
  }
  next();
}

/** A parse over its budget: the worker is ended mid-parse (the only way to stop it) and a new one takes the next text. */
function timeOut(slow: Thread): void {
  if (thread !== slow || !slow.current) return;
  const { job } = slow.current;
  slow.current = null;
  thread = null;
  slow.worker.terminate();
  job.finish({ plain: 'slow' });
  next();
}

function next(): void {
  if (queue.length === 0) return;
  const running = startThread();
  if (!running) {
    for (const job of queue.splice(0)) job.finish({ plain: 'unavailable' });
    return;
  }
  if (!running.ready || running.current) return;
  const job = queue.shift()!;
  running.current = { job, timer: setTimeout(() => timeOut(running), parseBudgetMs(job.text.length)) };
  running.worker.postMessage({ id: job.id, text: job.text } satisfies MarkdownRequest);
}

/** Whether a worker may be able to parse here (false once one failed to start on this page). */
export function markdownWorkerAvailable(): boolean {
  return workersWork && typeof Worker !== 'undefined';
}

/** Starts the worker ahead of the first text (a screen about to show Markdown), so its code loads meanwhile. */
export function warmMarkdownWorker(): void {
  startThread();
}

/**
 * Parses a text in the worker: its tree, or why it is to be shown as plain text. `cancel` drops a text
 * not started yet; one being parsed runs on (within its budget) and its result is dropped.
 */
export function parseInWorker(text: string): { result: Promise<MarkdownOutcome>; cancel: () => void } {
  let finish!: (outcome: MarkdownOutcome) => void;
  const result = new Promise<MarkdownOutcome>((resolve) => (finish = resolve));
  const job: Job = { id: nextId++, text, finish };
  queue.push(job);
  next();
  return {
    result,
    cancel: () => {
      const index = queue.indexOf(job);
      if (index >= 0) queue.splice(index, 1);
    },
  };
}

/** For tests: where the worker is loaded from, and a page where workers may start again. */
export function resetMarkdownWorkerForTests(url?: () => URL): void {
  if (thread) thread.worker.terminate();
  thread = null;
  workersWork = true;
  queue.splice(0);
  if (url) workerUrl = url;
}

import type { Browser, BrowserContext, Page, Request, TestInfo } from '@playwright/test';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** A request that took longer than this, or never ended, is listed in a failed test's report. */
const SLOW_MS = 2_000;
const MOST_LISTED = 20;
/** The server's request log (e2e/support/request-log.mjs) in the run's DATA_DIR. */
const SERVER_LOG = 'e2e-requests.log';
/** Around a slow request's start: connections the server closed then, as keep-alive would race a reuse. */
const CLOSES_AROUND_MS = 1_000;

interface Watched {
  method: string;
  url: string;
  type: string;
  started: number;
  status?: number;
  ended?: number;
  failure?: string;
}

/** What a page's own DevTools session saw of a request: whether Chromium sent it on a connection. */
interface Seen {
  url: string;
  at: number;
  sent: boolean;
}

/**
 * What Chromium did with each request of the contexts a test opens (its own and Playwright's): when it
 * started, whether Chromium ever sent it on a connection, when and how it ended. `report` lists the slow
 * and unfinished ones with the server's lines about them, for a failed test's report; the test itself
 * waits for none of it.
 */
export class NetworkWatch {
  private readonly requests = new Map<Request, Watched>();
  /** Per page, from a DevTools session of our own (Playwright's requests do not say if they were sent). */
  private readonly seen = new Map<string, Seen>();
  private readonly sentFirst = new Set<string>();
  private pages = 0;
  readonly started = Date.now();

  constructor(private readonly browser: Browser) {
    browser.on('context', this.watchContext);
    for (const context of browser.contexts()) this.watchContext(context);
  }

  stop(): void {
    this.browser.off('context', this.watchContext);
  }

  private readonly watchContext = (context: BrowserContext): void => {
    for (const page of context.pages()) this.watchPage(context, page);
    context.on('page', (page) => this.watchPage(context, page));
    context.on('request', (request) => {
      const watched: Watched = {
        method: request.method(),
        url: request.url(),
        type: request.resourceType(),
        started: Date.now(),
      };
      this.requests.set(request, watched);
    });
    context.on('requestfinished', (request) => {
      const watched = this.requests.get(request);
      if (!watched) return;
      watched.ended = Date.now();
      request.response().then(
        (response) => {
          watched.status = response?.status();
        },
        () => undefined,
      );
    });
    context.on('requestfailed', (request) => {
      const watched = this.requests.get(request);
      if (!watched) return;
      watched.ended = Date.now();
      watched.failure = request.failure()?.errorText ?? 'failed';
    });
  };

  /**
   * requestWillBeSentExtraInfo comes only once Chromium sends the request on a connection: a request
   * waiting for a free connection (six per host) or for the cache never gets one. The session is made
   * while the page starts, so its very first requests may go unseen ("sent: not known").
   */
  private watchPage(context: BrowserContext, page: Page): void {
    const prefix = `${++this.pages}:`;
    context
      .newCDPSession(page)
      .then(async (cdp) => {
        cdp.on('Network.requestWillBeSent', ({ requestId, request }) => {
          const key = prefix + requestId;
          this.seen.set(key, { url: request.url, at: Date.now(), sent: this.sentFirst.delete(key) });
        });
        cdp.on('Network.requestWillBeSentExtraInfo', ({ requestId }) => {
          const seen = this.seen.get(prefix + requestId);
          if (seen) seen.sent = true;
          else this.sentFirst.add(prefix + requestId);
        });
        // No response bodies kept for this session: it only looks at when requests are sent.
        await cdp.send('Network.enable', { maxTotalBufferSize: 0, maxResourceBufferSize: 0 });
      })
      // The page may close before the session is made.
      .catch(() => undefined);
  }

  /** Whether Chromium sent the request, from the DevTools record of the same URL nearest in time. */
  private sent(request: Watched): 'yes' | 'no' | 'not known' {
    let nearest: Seen | undefined;
    for (const seen of this.seen.values()) {
      if (seen.url !== request.url || Math.abs(seen.at - request.started) > 200) continue;
      if (!nearest || Math.abs(seen.at - request.started) < Math.abs(nearest.at - request.started)) {
        nearest = seen;
      }
    }
    return nearest ? (nearest.sent ? 'yes' : 'no') : 'not known';
  }

  /** The slow and unfinished requests, and what the server logged of them; empty when there are none. */
  report(dataDir = process.env.E2E_DATA_DIR): string {
    const now = Date.now();
    const all = [...this.requests.values()];
    const slow = all.filter((request) => (request.ended ?? now) - request.started >= SLOW_MS);
    if (slow.length === 0) return '';
    const server = serverLog(dataDir, this.started);
    const at = (time: number) => `+${((time - this.started) / 1000).toFixed(3)}s`;
    const lines = [
      `Requests of this test's pages that took ${SLOW_MS} ms or more (times from the test's start;`,
      "'sent: no' means Chromium never put the request on a connection):",
    ];
    for (const request of slow.slice(0, MOST_LISTED)) {
      const took = (((request.ended ?? now) - request.started) / 1000).toFixed(1);
      const outcome = request.failure
        ? `failed after ${took} s (${request.failure})`
        : request.ended
          ? `${request.status ?? '?'} after ${took} s`
          : `no end after ${took} s`;
      lines.push(
        `${at(request.started)} ${request.method} ${request.url} [${request.type}]: ${outcome}; ` +
          `sent: ${this.sent(request)}`,
      );
      // Chromium sends six requests at a time to a host: what else was under way while this one waited.
      const instant = request.started + 1_000;
      const inFlight = all.filter(
        (other) =>
          other !== request &&
          other.started <= instant &&
          (other.ended ?? now) > instant &&
          new URL(other.url).origin === new URL(request.url).origin,
      );
      const unsent = inFlight.filter((other) => this.sent(other) === 'no').length;
      lines.push(
        `    1 s after its start, ${inFlight.length} other(s) in flight to its host, ${unsent} not sent`,
      );
      if (server) lines.push(...server.about(request, at).map((line) => `    server: ${line}`));
    }
    if (slow.length > MOST_LISTED) lines.push(`… and ${slow.length - MOST_LISTED} more`);
    if (!server) lines.push(`(no server log ${SERVER_LOG} in E2E_DATA_DIR)`);
    return lines.join('\n');
  }

  /** Attaches the report to a test that failed (nothing for one that passed, or had no slow request). */
  async attachIfFailed(testInfo: TestInfo): Promise<void> {
    if (testInfo.status === testInfo.expectedStatus) return;
    const body = this.report();
    if (body) await testInfo.attach('slow requests', { body, contentType: 'text/plain' });
  }
}

/** The server's lines of this test's time (e2e/support/request-log.mjs), to look up what it saw. */
function serverLog(dataDir: string | undefined, since: number) {
  const file = dataDir && join(dataDir, SERVER_LOG);
  if (!file || !existsSync(file)) return null;
  const events = readFileSync(file, 'utf8')
    .split('\n')
    .map((line) => {
      const [time = '', ...rest] = line.split(' ');
      return { time: Number(time), text: rest.join(' ') };
    })
    .filter((event) => event.time >= since - CLOSES_AROUND_MS);
  return {
    /** The server's requests for the same path from the request's start on, and how each ended. */
    about(request: Watched, at: (time: number) => string): string[] {
      const { pathname, search } = new URL(request.url);
      const until = request.ended ?? Date.now();
      const found: string[] = [];
      for (const event of events) {
        const match = /^req (\d+) conn (\d+) \S+ (.*)$/.exec(event.text);
        if (!match || match[3] !== pathname + search) continue;
        // Playwright hears of a request a little after Chromium sends it: the server may log it first.
        if (event.time < request.started - 1_000 || event.time > until) continue;
        const end = events.find((other) => other.text.startsWith(`req ${match[1]} `) && other !== event);
        const outcome = end
          ? `${end.text.split(' ').slice(2).join(' ')} at ${at(end.time)}`
          : 'no end logged';
        found.push(`${at(event.time)} req ${match[1]} on conn ${match[2]}: ${outcome}`);
      }
      if (found.length === 0) found.push('no request for this path logged while it waited');
      // A slow probe is logged when it ends, with how long it took: did it overlap the wait?
      for (const event of events) {
        const slow = /^slow .* (\d+)ms$/.exec(event.text);
        if (!slow || event.time < request.started || event.time - Number(slow[1]) > until) continue;
        found.push(`${at(event.time)} ${event.text}`);
      }
      const closes = events.filter(
        (event) => / timeout$/.test(event.text) && Math.abs(event.time - request.started) <= CLOSES_AROUND_MS,
      );
      if (closes.length > 0) {
        found.push(
          `${closes.length} idle connection(s) timed out within ${CLOSES_AROUND_MS} ms of its start: ` +
            closes.map((event) => `${event.text.split(' ')[1]} at ${at(event.time)}`).join(', '),
        );
      }
      return found;
    },
  };
}

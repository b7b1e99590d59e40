import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { CreatedPaste, CurrentUser, ThreadCard, UserProfile } from '@termpaste/contracts';
import { call, json, refusal } from './client.js';
import { DEFAULT_URL, normalizeUrl, readSaved, saveLogin, settings } from './config.js';
import { RequestError, UsageError } from './errors.js';
import { CLI_MESSAGES } from './messages.js';
import { PASTE_PAGE, ROUTES } from './routes.js';
import { promptHidden, readStdin } from './terminal.js';

type Env = Record<string, string | undefined>;

const JSON_ACCEPT = { Accept: 'application/json' };

/** `termpaste login [--url URL]`: checks the token (GET /api/auth/user) and saves URL and token. */
export async function login(options: { url?: string }, env: Env = process.env): Promise<void> {
  const saved = await readSaved(env);
  const url = normalizeUrl(options.url ?? (env.TERMPASTE_URL || saved.url || DEFAULT_URL));
  let token = env.TERMPASTE_TOKEN;
  if (!token?.trim())
    token = process.stdin.isTTY
      ? await promptHidden(CLI_MESSAGES.tokenPrompt)
      : (await readStdin()).toString('utf8');
  token = token.trim();
  if (!token) throw new UsageError(CLI_MESSAGES.noToken);

  const answer = await call(url + ROUTES.currentUser, { token, headers: JSON_ACCEPT });
  if (answer.status !== 200) throw refusal(answer, { url });
  const user = json<CurrentUser | null>(answer);
  if (typeof user?.username !== 'string')
    throw new RequestError(CLI_MESSAGES.unexpectedAnswer(answer.status));
  const file = await saveLogin({ url, token }, env);
  process.stdout.write(`${CLI_MESSAGES.loggedIn(url, user.username, file)}\n`);
}

interface Input {
  /** How messages name it: the file as given, or "standard input". */
  name: string;
  title: string | undefined;
  bytes: Buffer;
}

/**
 * `termpaste [FILE…] [--title T] [--lang L] [--allow-secrets]`: one paste per file (standard input for `-`, or for no file
 * when it is not a terminal), each URL printed on its own line as it is made. Every file is read before
 * the first paste, so a missing one pastes nothing.
 */
export async function paste(
  files: string[],
  options: { title?: string; lang?: string; allowSecrets?: boolean },
  env: Env = process.env,
): Promise<void> {
  if (files.length === 0) {
    if (process.stdin.isTTY) throw new UsageError(CLI_MESSAGES.noInput);
    files = ['-'];
  }
  if (files.filter((file) => file === '-').length > 1) throw new UsageError(CLI_MESSAGES.stdinTwice);
  const { url, token } = await signedIn(env);

  const inputs: Input[] = [];
  for (const file of files) {
    if (file === '-') {
      inputs.push({ name: 'standard input', title: options.title, bytes: await readStdin() });
      continue;
    }
    inputs.push({
      name: file,
      title: options.title ?? path.basename(file),
      bytes: await readInputFile(file),
    });
  }

  for (const input of inputs) {
    const query = new URLSearchParams();
    if (input.title !== undefined) query.set('title', input.title);
    if (options.lang !== undefined) query.set('lang', options.lang);
    if (options.allowSecrets) query.set('allowSecrets', 'true');
    const search = query.size > 0 ? `?${query}` : '';
    const answer = await call(`${url}${ROUTES.pastes}${search}`, {
      method: 'POST',
      token,
      headers: { ...JSON_ACCEPT, 'Content-Type': 'application/octet-stream' },
      body: input.bytes,
    });
    if (answer.status !== 201 && answer.status !== 200) throw refusal(answer, { what: input.name, url });
    const created = json<CreatedPaste>(answer);
    if (typeof created?.url !== 'string')
      throw new RequestError(CLI_MESSAGES.unexpectedAnswer(answer.status));
    process.stdout.write(`${created.url}\n`);
  }
}

async function readInputFile(file: string): Promise<Buffer> {
  try {
    if (!(await stat(file)).isFile()) throw new UsageError(CLI_MESSAGES.notAFile(file));
    return await readFile(file);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') throw new UsageError(CLI_MESSAGES.noSuchFile(file));
    throw new UsageError(CLI_MESSAGES.unreadable(file, code ?? String(error)));
  }
}

/** `termpaste get ID|URL`: the raw text, byte for byte, on standard output. */
export async function get(ref: string, env: Env = process.env): Promise<void> {
  const { url, token } = await settings(env);
  const paste = pasteRef(ref, url);
  // The token goes only to the forum it was made on.
  const sameForum = url !== undefined && paste.base === url;
  const answer = await call(paste.base + ROUTES.threadRaw(paste.id), {
    token: sameForum ? token : undefined,
  });
  if (answer.status !== 200) throw refusal(answer, { url: paste.base });
  await writeOut(answer.body);
}

/**
 * A paste's id and the forum it is on: a number (on the configured forum), or the URL of its page
 * (`…/thread/12`) or of its raw text (`…/api/threads/12/raw`).
 */
export function pasteRef(ref: string, configured: string | undefined): { base: string; id: string } {
  const trimmed = ref.trim();
  if (/^\d+$/.test(trimmed)) {
    if (!configured) throw new UsageError(CLI_MESSAGES.noUrl);
    return { base: configured, id: trimmed };
  }
  let parsed: URL;
  try {
    parsed = new URL(trimmed);
  } catch {
    throw new UsageError(CLI_MESSAGES.badPasteRef(ref));
  }
  const match = /\/(?:thread|api\/threads)\/(\d+)(?:\/raw)?\/?$/.exec(parsed.pathname);
  if (!match || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:'))
    throw new UsageError(CLI_MESSAGES.badPasteRef(ref));
  return { base: parsed.origin + parsed.pathname.slice(0, match.index), id: match[1]! };
}

/** `termpaste list`: the member's recent pastes, newest first: id, date, title, URL. */
export async function list(env: Env = process.env): Promise<void> {
  const { url, token } = await signedIn(env);
  const me = await call(url + ROUTES.currentUser, { token, headers: JSON_ACCEPT });
  if (me.status !== 200) throw refusal(me, { url });
  const user = json<CurrentUser | null>(me);
  if (typeof user?.id !== 'number') throw new RequestError(CLI_MESSAGES.unexpectedAnswer(me.status));
  const profile = await call(url + ROUTES.user(user.id), { token, headers: JSON_ACCEPT });
  if (profile.status !== 200) throw refusal(profile, { url });
  const threads = json<UserProfile>(profile).recentThreads ?? [];
  process.stdout.write(threads.length === 0 ? `${CLI_MESSAGES.noPastes}\n` : listing(threads, url));
}

/** One line a paste, in columns: `#12  2026-11-25 06:40  build log  https://host/thread/12`. */
export function listing(threads: Array<Pick<ThreadCard, 'id' | 'title' | 'createdAt'>>, url: string): string {
  const ids = threads.map((thread) => `#${thread.id}`);
  const idWidth = Math.max(...ids.map((id) => id.length));
  const titles = threads.map((thread) => thread.title.replace(/\s+/g, ' '));
  const titleWidth = Math.max(...titles.map((title) => title.length));
  return threads
    .map((thread, i) => {
      const date = new Date(thread.createdAt).toISOString().slice(0, 16).replace('T', ' ');
      return `${ids[i]!.padEnd(idWidth)}  ${date}  ${titles[i]!.padEnd(titleWidth)}  ${url}${PASTE_PAGE(thread.id)}\n`;
    })
    .join('');
}

async function signedIn(env: Env): Promise<{ url: string; token: string }> {
  const { url, token } = await settings(env);
  if (!token) throw new UsageError(CLI_MESSAGES.notLoggedIn);
  if (!url) throw new UsageError(CLI_MESSAGES.noUrl);
  return { url, token };
}

/** Writes bytes to standard output and waits until they are handed on (a pipe may be slow). */
function writeOut(bytes: Buffer): Promise<void> {
  return new Promise((resolve, reject) =>
    process.stdout.write(bytes, (error) => (error ? reject(error) : resolve())),
  );
}

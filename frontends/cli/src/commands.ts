import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type {
  CreatedPaste,
  CurrentUser,
  EditedPaste,
  ExpiresIn,
  HeldPost,
  PasteRef,
  PasteCard,
  PasteDetail,
  Revision,
  UserProfile,
  Visibility,
} from '@termpaste/contracts';
import { type Answer, call, json, refusal } from './client.js';
import { formatComments, lines } from './comments.js';
import { DEFAULT_URL, normalizeUrl, readSaved, saveLogin, settings } from './config.js';
import { RequestError, UsageError } from './errors.js';
import { CLI_MESSAGES } from './messages.js';
import { PASTE_PAGE, ROUTES } from './routes.js';
import { defaultSigningKey, signPaste } from './signing.js';
import { promptHidden, readStdin } from './terminal.js';

type Env = Record<string, string | undefined>;

const JSON_ACCEPT = { Accept: 'application/json' };

/** `termpaste login [--url URL]`: checks the token (GET /api/auth/user) and saves URL and token. */
export async function login(
  options: { url?: string; json?: boolean },
  env: Env = process.env,
): Promise<void> {
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
  if (options.json) printJson({ url, username: user.username, file });
  else process.stdout.write(`${CLI_MESSAGES.loggedIn(url, user.username, file)}\n`);
}

interface Input {
  /** How messages name it: the file as given, or "standard input". */
  name: string;
  title: string | undefined;
  bytes: Buffer;
}

/** The options of a new paste (`termpaste [FILE…]`) beside its title and language. */
export interface CreateOptions {
  title?: string;
  lang?: string;
  allowSecrets?: boolean;
  unlisted?: boolean;
  private?: boolean;
  expire?: string;
  burn?: boolean;
  /** `--tag`, each as given (repeated, or a comma list). */
  tag?: string[];
  /** `--sign`: an SSH signature of each paste's bytes (ssh-keygen -Y sign) goes with it. */
  sign?: boolean;
  /** `--key FILE`: the SSH key to sign with (default ~/.ssh/id_ed25519). */
  key?: string;
  json?: boolean;
}

/** The `--tag` values as one `?tags=` list: split at commas, trimmed, blanks dropped (the server judges them). */
export function tagsOf(values: readonly string[] | undefined): string | undefined {
  const names = (values ?? []).flatMap((value) => value.split(',')).map((name) => name.trim());
  const given = names.filter((name) => name !== '');
  return given.length > 0 ? given.join(',') : undefined;
}

/** The language of an asciinema recording (asciicast v2), as the API names it. */
export const RECORDING_LANGUAGE = 'asciicast';

/** Whether a file is an asciinema recording by its name (`rec.cast`). */
export function isRecordingFile(name: string): boolean {
  return /\.cast$/i.test(name);
}

/**
 * `termpaste [FILE…] [--title T] [--lang L] [--tag NAME…] [--unlisted|--private] [--expire E] [--burn] [--allow-secrets]`:
 * one paste per file (`-` or a piped stdin), each URL (or, with --json, the server's answer) printed as
 * it is made. Every file is read before the first paste, so a missing one pastes nothing.
 */
export async function paste(files: string[], options: CreateOptions, env: Env = process.env): Promise<void> {
  const query = pasteQuery(options);
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

  // Every paste is signed before the first is sent: a key that cannot sign sends nothing.
  const keyFile = options.key ?? defaultSigningKey();
  const signatures: Array<string | undefined> = [];
  for (const input of inputs)
    signatures.push(options.sign ? await signPaste(input.bytes, keyFile, env) : undefined);

  for (const [i, input] of inputs.entries()) {
    const search = new URLSearchParams(query);
    if (input.title !== undefined) search.set('title', input.title);
    const signature = signatures[i];
    // A `.cast` file is sent as a terminal recording (one that is malformed is told so); one of another
    // name is recognised by the server from its content.
    if (!search.has('lang') && isRecordingFile(input.name)) search.set('lang', RECORDING_LANGUAGE);
    const answer = await call(`${url}${ROUTES.pastes}${search.size > 0 ? `?${search}` : ''}`, {
      method: 'POST',
      token,
      ...(signature === undefined
        ? { headers: { ...JSON_ACCEPT, 'Content-Type': 'application/octet-stream' }, body: input.bytes }
        : signedForm(input.bytes, signature)),
    });
    if (answer.status === 202) {
      printHeld(answer, options);
      continue;
    }
    if (answer.status !== 201 && answer.status !== 200) throw refusal(answer, { what: input.name, url });
    const created = json<CreatedPaste>(answer);
    if (typeof created?.url !== 'string')
      throw new RequestError(CLI_MESSAGES.unexpectedAnswer(answer.status), answer.status);
    if (options.json) printJson(created);
    else process.stdout.write(`${created.url}\n`);
  }
}

/** A form of the paste's exact bytes (`file`, nameless as curl's stdin, so nothing is guessed from a name) and its signature. */
export function signedForm(
  bytes: Buffer,
  signature: string,
): { headers: Record<string, string>; body: Buffer } {
  const boundary = `termpaste-${Math.random().toString(36).slice(2)}${Date.now().toString(36)}`;
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="signature"\r\n\r\n${signature}\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="-"\r\n` +
        'Content-Type: application/octet-stream\r\n\r\n',
    ),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { headers: { ...JSON_ACCEPT, 'Content-Type': `multipart/form-data; boundary=${boundary}` }, body };
}

/**
 * The query of `POST /api/pastes` for the options (the title is each file's own): `lang`, `tags`,
 * `visibility`, `expiresIn`, `burnAfterReading`, `allowSecrets`. Wrong usage throws before anything is read or sent.
 */
export function pasteQuery(options: Omit<CreateOptions, 'title' | 'json'>): URLSearchParams {
  const visibility = visibilityOf(options);
  const expiresIn = expiryOf(options.expire);
  const query = new URLSearchParams();
  if (options.lang !== undefined) query.set('lang', options.lang);
  const tags = tagsOf(options.tag);
  if (tags !== undefined) query.set('tags', tags);
  if (visibility !== undefined) query.set('visibility', visibility);
  if (expiresIn !== undefined) query.set('expiresIn', expiresIn);
  if (options.burn) query.set('burnAfterReading', 'true');
  if (options.allowSecrets) query.set('allowSecrets', 'true');
  return query;
}

/** What `--expire` takes: the contracts' EXPIRES_IN choices (commands.spec.ts checks they agree). */
export const EXPIRY_CHOICES = [
  '10m',
  '1h',
  '1d',
  '1w',
  '1mo',
  'never',
] as const satisfies readonly ExpiresIn[];

/** `--expire 1h` as the API's `expiresIn` (any letter case), or wrong usage. */
export function expiryOf(value: string | undefined): ExpiresIn | undefined {
  if (value === undefined) return undefined;
  const choice = EXPIRY_CHOICES.find((one) => one === value.trim().toLowerCase());
  if (!choice) throw new UsageError(CLI_MESSAGES.badExpiry(value, EXPIRY_CHOICES));
  return choice;
}

const VISIBILITY_FLAGS = ['public', 'unlisted', 'private'] as const satisfies readonly Visibility[];

/** `--public`, `--unlisted` or `--private` as the API's `visibility` (none: undefined); two is wrong usage. */
export function visibilityOf(options: Partial<Record<Visibility, boolean>>): Visibility | undefined {
  const chosen = VISIBILITY_FLAGS.filter((flag) => options[flag]);
  if (chosen.length > 1)
    throw new UsageError(CLI_MESSAGES.visibilityClash(chosen.map((flag) => `--${flag}`)));
  return chosen[0];
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

/**
 * `termpaste get ID|URL`: the raw text, byte for byte, on standard output; with --json the paste as
 * `GET /api/threads/{id}` answers it.
 */
export async function get(
  ref: string,
  options: { json?: boolean; comments?: boolean } = {},
  env: Env = process.env,
): Promise<void> {
  const { url, token } = await settings(env);
  const paste = pasteRef(ref, url);
  // The token goes only to the forum it was made on.
  const sameForum = url !== undefined && paste.base === url;
  if (options.comments && !options.json) {
    await getWithComments(paste, sameForum ? token : undefined);
    return;
  }
  const route = options.json ? ROUTES.thread(paste.id) : ROUTES.threadRaw(paste.id);
  const answer = await call(paste.base + route, {
    token: sameForum ? token : undefined,
    ...(options.json ? { headers: JSON_ACCEPT } : {}),
  });
  if (answer.status !== 200) throw refusal(answer, { url: paste.base });
  if (options.json) printJson(json<unknown>(answer));
  else await writeOut(answer.body);
}

/**
 * `get --comments`: the paste's text, then its comments (line comments with their lines and suggested
 * changes; an older version's lines read from its history).
 */
async function getWithComments(
  paste: { base: string; id: string },
  token: string | undefined,
): Promise<void> {
  const answer = await call(paste.base + ROUTES.thread(paste.id), { token, headers: JSON_ACCEPT });
  if (answer.status !== 200) throw refusal(answer, { url: paste.base });
  const detail = json<PasteDetail>(answer);
  const versions = new Map<number, string[] | null>();
  for (const reply of detail.replies) {
    const version = reply.outdated ? reply.anchor?.version : undefined;
    if (version === undefined || versions.has(version)) continue;
    const old = await call(paste.base + ROUTES.threadRevision(paste.id, version), {
      token,
      headers: JSON_ACCEPT,
    });
    versions.set(version, old.status === 200 ? lines(json<Revision>(old).content) : null);
  }
  const text = detail.content ?? '';
  process.stdout.write(`${text}${text.endsWith('\n') ? '' : '\n'}\n`);
  process.stdout.write(formatComments(detail, versions));
}

/**
 * A paste's ref and the forum it is on: a number or a 22-character key (on the configured forum), or the
 * URL of its page (`…/thread/12`) or of its raw text (`…/api/threads/12/raw`).
 */
export function pasteRef(ref: string, configured: string | undefined): { base: string; id: string } {
  const trimmed = unmarkKey(ref).trim();
  if (/^\d+$/.test(trimmed) || PASTE_KEY.test(trimmed)) {
    if (!configured) throw new UsageError(CLI_MESSAGES.noUrl);
    return { base: configured, id: trimmed };
  }
  let parsed: URL;
  try {
    parsed = new URL(trimmed);
  } catch {
    throw new UsageError(CLI_MESSAGES.badPasteRef(ref));
  }
  const match = /\/(?:thread|api\/threads)\/(\d+|[A-Za-z0-9_-]{22})(?:\/raw)?\/?$/.exec(parsed.pathname);
  if (!match || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:'))
    throw new UsageError(CLI_MESSAGES.badPasteRef(ref));
  return { base: parsed.origin + parsed.pathname.slice(0, match.index), id: match[1]! };
}

/** A paste's unguessable key (the contracts' PASTE_KEY_PATTERN: the package imports only types). */
export const PASTE_KEY = /^[A-Za-z0-9_-]{22}$/;

/**
 * One key in 64 starts with `-`, which the option parser would take for an option: main() marks such
 * words (no option of termpaste is 22 characters long) before parsing, pasteRef() reads them back.
 */
const KEY_MARK = 'key:';
const DASHED_KEY = /^-[A-Za-z0-9_-]{21}$/;

/** The arguments with each key that starts with `-` marked as no option (up to a `--`). */
export function markDashedKeys(args: string[]): string[] {
  const end = args.indexOf('--');
  return args.map((arg, i) => ((end === -1 || i < end) && DASHED_KEY.test(arg) ? KEY_MARK + arg : arg));
}

function unmarkKey(ref: string): string {
  return ref.startsWith(KEY_MARK) && PASTE_KEY.test(ref.slice(KEY_MARK.length))
    ? ref.slice(KEY_MARK.length)
    : ref;
}

/** The ref as the API writes it: a number stays a number. */
export function refValue(id: string): PasteRef {
  return /^\d+$/.test(id) ? Number(id) : id;
}

/** A paste on the forum the member is logged in to (a URL of another forum would get the token). */
async function ownPaste(ref: string, env: Env): Promise<{ url: string; token: string; id: string }> {
  const { url, token } = await signedIn(env);
  const paste = pasteRef(ref, url);
  if (paste.base !== url) throw new UsageError(CLI_MESSAGES.otherForum(paste.base, url));
  return { url, token, id: paste.id };
}

/** `termpaste delete ID|URL`: `DELETE /api/threads/{id}` (the author's own paste). */
export async function remove(
  ref: string,
  options: { json?: boolean } = {},
  env: Env = process.env,
): Promise<void> {
  const { url, token, id } = await ownPaste(ref, env);
  const answer = await call(url + ROUTES.thread(id), { method: 'DELETE', token, headers: JSON_ACCEPT });
  if (answer.status !== 204 && answer.status !== 200) throw refusal(answer, { url });
  if (options.json) printJson({ deleted: refValue(id) });
  else process.stdout.write(`${CLI_MESSAGES.deleted(url + PASTE_PAGE(id))}\n`);
}

/** What `edit` and `fork` may change beside the content. */
export interface ChangeOptions {
  title?: string;
  lang?: string;
  public?: boolean;
  unlisted?: boolean;
  private?: boolean;
  expire?: string;
  allowSecrets?: boolean;
  json?: boolean;
}

/**
 * The JSON body of `PATCH /api/threads/{id}` and `POST /api/threads/{id}/fork`: only what is given. Wrong
 * usage throws before anything is read or sent.
 */
export function changeBody(options: ChangeOptions & { burn?: boolean }, content?: string) {
  const visibility = visibilityOf(options);
  const expiresIn = expiryOf(options.expire);
  return {
    ...(options.title !== undefined ? { title: options.title } : {}),
    ...(content !== undefined ? { content } : {}),
    ...(options.lang !== undefined ? { language: options.lang } : {}),
    ...(visibility !== undefined ? { visibility } : {}),
    ...(expiresIn !== undefined ? { expiresIn } : {}),
    ...(options.burn ? { burnAfterReading: true } : {}),
  };
}

/**
 * The new content of `edit` or `fork` and how messages name it: FILE (`-`: standard input), else standard
 * input when it is a pipe and not empty, else none.
 */
async function newContent(file: string | undefined): Promise<{ content?: string; name: string }> {
  const stdin = 'standard input';
  if (file === undefined) {
    if (process.stdin.isTTY) return { name: 'the paste' };
    const bytes = await readStdin();
    return bytes.length === 0 ? { name: 'the paste' } : { content: text(bytes, stdin), name: stdin };
  }
  if (file === '-') return { content: text(await readStdin(), stdin), name: stdin };
  return { content: text(await readInputFile(file), file), name: file };
}

/** UTF-8 bytes as a string (a byte order mark kept), or wrong usage: JSON carries no other bytes. */
function text(bytes: Buffer, name: string): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw new UsageError(CLI_MESSAGES.notText(name, undefined));
  }
}

/**
 * `termpaste edit ID|URL [FILE] [--title T] [--lang L] [--public|--unlisted|--private] [--expire E] [--sign]`:
 * `PATCH /api/threads/{id}`; prints the paste's URL (its ref may change with its visibility). A new
 * content drops the paste's signature on the server unless `--sign` signs it.
 */
export async function edit(
  ref: string,
  file: string | undefined,
  options: ChangeOptions & { sign?: boolean; key?: string },
  env: Env = process.env,
): Promise<void> {
  changeBody(options);
  const { url, token, id } = await ownPaste(ref, env);
  const { content, name } = await newContent(file);
  if (options.sign && content === undefined) throw new UsageError(CLI_MESSAGES.signNeedsContent);
  const body: Record<string, unknown> = changeBody(options, content);
  if (options.sign && content !== undefined)
    body.signature = await signPaste(Buffer.from(content, 'utf8'), options.key ?? defaultSigningKey(), env);
  if (Object.keys(body).length === 0) throw new UsageError(CLI_MESSAGES.nothingToChange);
  const answer = await call(url + ROUTES.thread(id) + (options.allowSecrets ? '?allowSecrets=true' : ''), {
    method: 'PATCH',
    token,
    headers: { ...JSON_ACCEPT, 'Content-Type': 'application/json' },
    body: Buffer.from(JSON.stringify(body)),
  });
  if (answer.status !== 200) throw refusal(answer, { what: name, url });
  const edited = json<EditedPaste>(answer);
  if (edited?.id === undefined)
    throw new RequestError(CLI_MESSAGES.unexpectedAnswer(answer.status), answer.status);
  if (options.json) printJson(edited);
  else process.stdout.write(`${url}${PASTE_PAGE(edited.id)}\n`);
}

/**
 * `termpaste fork ID|URL [FILE] [--title T] [--lang L] [--public|--unlisted|--private] [--expire E] [--burn]`:
 * `POST /api/threads/{id}/fork` (the original's title and content unless given); prints the new paste's URL.
 */
export async function fork(
  ref: string,
  file: string | undefined,
  options: ChangeOptions & { burn?: boolean },
  env: Env = process.env,
): Promise<void> {
  changeBody(options);
  const { url, token, id } = await ownPaste(ref, env);
  const { content, name } = await newContent(file);
  const body = changeBody(options, content);
  const answer = await call(
    url + ROUTES.threadFork(id) + (options.allowSecrets ? '?allowSecrets=true' : ''),
    {
      method: 'POST',
      token,
      headers: { ...JSON_ACCEPT, 'Content-Type': 'application/json' },
      body: Buffer.from(JSON.stringify(body)),
    },
  );
  if (answer.status === 202) return printHeld(answer, options);
  if (answer.status !== 201 && answer.status !== 200) throw refusal(answer, { what: name, url });
  const created = json<{ id?: PasteRef }>(answer);
  if (created?.id === undefined)
    throw new RequestError(CLI_MESSAGES.unexpectedAnswer(answer.status), answer.status);
  if (options.json) printJson(created);
  else process.stdout.write(`${url}${PASTE_PAGE(created.id)}\n`);
}

/** `termpaste list`: the member's recent pastes, newest first: id, date, title, URL. */
export async function list(options: { json?: boolean } = {}, env: Env = process.env): Promise<void> {
  const { url, token } = await signedIn(env);
  const me = await call(url + ROUTES.currentUser, { token, headers: JSON_ACCEPT });
  if (me.status !== 200) throw refusal(me, { url });
  const user = json<CurrentUser | null>(me);
  if (typeof user?.id !== 'number') throw new RequestError(CLI_MESSAGES.unexpectedAnswer(me.status));
  const profile = await call(url + ROUTES.user(user.id), { token, headers: JSON_ACCEPT });
  if (profile.status !== 200) throw refusal(profile, { url });
  const threads = json<UserProfile>(profile).recentThreads ?? [];
  if (options.json) return printJson(threads);
  process.stdout.write(threads.length === 0 ? `${CLI_MESSAGES.noPastes}\n` : listing(threads, url));
}

/** One line a paste, in columns: `#12  2026-11-25 06:40  build log  https://host/thread/12`. */
export function listing(threads: Array<Pick<PasteCard, 'id' | 'title' | 'createdAt'>>, url: string): string {
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

/**
 * A paste held for review by the staff (202: a spam signal, or a new member's first posts): not
 * published yet, so no URL; the server's message instead (with --json, its object).
 */
function printHeld(answer: Answer, options: { json?: boolean }): void {
  const held = json<Partial<HeldPost> | null>(answer);
  if (typeof held?.message !== 'string')
    throw new RequestError(CLI_MESSAGES.unexpectedAnswer(answer.status), answer.status);
  if (options.json) printJson(held);
  else process.stdout.write(`${held.message}\n`);
}

/** One JSON document on a line of standard output (`--json`). */
function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value)}\n`);
}

/** Writes bytes to standard output and waits until they are handed on (a pipe may be slow). */
function writeOut(bytes: Buffer): Promise<void> {
  return new Promise((resolve, reject) =>
    process.stdout.write(bytes, (error) => (error ? reject(error) : resolve())),
  );
}

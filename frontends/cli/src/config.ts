import { chmod, mkdir, open, readFile, rename } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { CLI_MESSAGES } from './messages.js';
import { UsageError } from './errors.js';

/** Where `npm start` serves by default: the URL `termpaste login` uses when given none. */
export const DEFAULT_URL = 'http://localhost:3000';

/** What `termpaste login` saves. */
export interface SavedLogin {
  url: string;
  token: string;
}

/** The URL and token a command uses: TERMPASTE_URL and TERMPASTE_TOKEN over the saved ones. */
export interface Settings {
  url: string | undefined;
  token: string | undefined;
}

type Env = Record<string, string | undefined>;

/** `$XDG_CONFIG_HOME/termpaste/config.json`, `~/.config/termpaste/config.json` without it. */
export function configFile(env: Env = process.env): string {
  const base = env.XDG_CONFIG_HOME && path.isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : undefined;
  return path.join(base ?? path.join(os.homedir(), '.config'), 'termpaste', 'config.json');
}

/** The saved login, if any (a missing or unreadable file is no login). */
export async function readSaved(env: Env = process.env): Promise<Partial<SavedLogin>> {
  try {
    const parsed: unknown = JSON.parse(await readFile(configFile(env), 'utf8'));
    if (typeof parsed !== 'object' || parsed === null) return {};
    const { url, token } = parsed as Record<string, unknown>;
    return {
      ...(typeof url === 'string' ? { url } : {}),
      ...(typeof token === 'string' ? { token } : {}),
    };
  } catch {
    return {};
  }
}

export async function settings(env: Env = process.env): Promise<Settings> {
  const saved = await readSaved(env);
  return {
    url: env.TERMPASTE_URL ? normalizeUrl(env.TERMPASTE_URL) : saved.url,
    token: env.TERMPASTE_TOKEN?.trim() || saved.token,
  };
}

/**
 * Saves the login: the folder 0700, the file 0600 from its first byte (written beside, then renamed over
 * the old one), whatever the umask.
 */
export async function saveLogin(login: SavedLogin, env: Env = process.env): Promise<string> {
  const file = configFile(env);
  const dir = path.dirname(file);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await chmod(dir, 0o700);
  const temp = `${file}.${process.pid}.tmp`;
  const handle = await open(temp, 'w', 0o600);
  try {
    await handle.chmod(0o600);
    await handle.writeFile(`${JSON.stringify(login, null, 2)}\n`, 'utf8');
  } finally {
    await handle.close();
  }
  await rename(temp, file);
  return file;
}

/** An http(s) URL without its trailing slash (a path prefix is kept: a forum served under one). */
export function normalizeUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw new UsageError(CLI_MESSAGES.badUrl(value));
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(CLI_MESSAGES.badUrl(value));
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}

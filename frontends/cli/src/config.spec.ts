import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { UsageError } from './errors.js';
import { configFile, normalizeUrl, readSaved, saveLogin, settings } from './config.js';

describe('the saved login', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'termpaste-cli-config-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('lives in $XDG_CONFIG_HOME/termpaste, else ~/.config/termpaste (a relative XDG_CONFIG_HOME is ignored)', () => {
    expect(configFile({ XDG_CONFIG_HOME: '/x/conf' })).toBe('/x/conf/termpaste/config.json');
    expect(configFile({})).toBe(path.join(os.homedir(), '.config', 'termpaste', 'config.json'));
    expect(configFile({ XDG_CONFIG_HOME: 'relative' })).toBe(
      path.join(os.homedir(), '.config', 'termpaste', 'config.json'),
    );
  });

  it('is saved 0600 in a 0700 folder whatever the umask, and replaces the previous one', async () => {
    const env = { XDG_CONFIG_HOME: dir };
    const previous = process.umask(0o000);
    try {
      await saveLogin({ url: 'http://a.test', token: 'tp_one' }, env);
      const file = await saveLogin({ url: 'http://b.test', token: 'tp_two' }, env);
      expect((await stat(file)).mode & 0o777).toBe(0o600);
      expect((await stat(path.dirname(file))).mode & 0o777).toBe(0o700);
      expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ url: 'http://b.test', token: 'tp_two' });
    } finally {
      process.umask(previous);
    }
  });

  it('is overridden by TERMPASTE_URL and TERMPASTE_TOKEN, each on its own', async () => {
    const env = { XDG_CONFIG_HOME: dir };
    await saveLogin({ url: 'http://saved.test', token: 'tp_saved' }, env);
    expect(await settings(env)).toEqual({ url: 'http://saved.test', token: 'tp_saved' });
    expect(await settings({ ...env, TERMPASTE_URL: 'http://env.test/' })).toEqual({
      url: 'http://env.test',
      token: 'tp_saved',
    });
    expect(await settings({ ...env, TERMPASTE_TOKEN: 'tp_env' })).toEqual({
      url: 'http://saved.test',
      token: 'tp_env',
    });
  });

  it('is none when the file is missing or not ours', async () => {
    expect(await readSaved({ XDG_CONFIG_HOME: dir })).toEqual({});
    await saveLogin({ url: 'http://a.test', token: 'tp_one' }, { XDG_CONFIG_HOME: dir });
    await writeFile(configFile({ XDG_CONFIG_HOME: dir }), 'not json');
    expect(await readSaved({ XDG_CONFIG_HOME: dir })).toEqual({});
  });
});

describe('normalizeUrl', () => {
  it('keeps an http(s) URL without its trailing slash, with its path prefix', () => {
    expect(normalizeUrl('http://127.0.0.1:3000/')).toBe('http://127.0.0.1:3000');
    expect(normalizeUrl(' https://example.org/forum/ ')).toBe('https://example.org/forum');
  });

  it('refuses anything else as wrong usage', () => {
    expect(() => normalizeUrl('example.org')).toThrow(new UsageError('not an http(s) URL: example.org'));
    expect(() => normalizeUrl('ftp://example.org')).toThrow(UsageError);
  });
});

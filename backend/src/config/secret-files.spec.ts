import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError, loadConfig } from './config.js';
import { SECRET_VARIABLES } from './secret-files.js';

const SECRET = 's'.repeat(32);
const DATABASE_URL = 'postgres://u:p4ss@db:5432/termpaste';

describe('secrets from files (<NAME>_FILE)', () => {
  let cwd: string;

  beforeEach(() => {
    cwd = mkdtempSync(path.join(os.tmpdir(), 'termpaste-secret-files-'));
  });

  afterEach(() => {
    rmSync(cwd, { recursive: true, force: true });
  });

  function secretFile(name: string, content: string): string {
    const file = path.join(cwd, name);
    writeFileSync(file, content, { mode: 0o600 });
    return file;
  }

  function configError(env: Record<string, string>): string {
    try {
      loadConfig(env, cwd);
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return (error as Error).message;
    }
    throw new Error('expected a ConfigError');
  }

  it('reads each value from its file, less the trailing newline', () => {
    const config = loadConfig(
      {
        DATABASE_URL_FILE: secretFile('database-url', `${DATABASE_URL}\n`),
        SESSION_SECRET_FILE: secretFile('session-secret', `${SECRET}\r\n`),
        REDIS_URL_FILE: secretFile('redis-url', 'redis://:pw@redis:6379'),
        SMTP_URL_FILE: secretFile('smtp-url', 'smtp://u:pw@mail:587\n'),
        S3_BUCKET: 'avatars',
        S3_ACCESS_KEY_ID_FILE: secretFile('s3-id', 'AKIA\n'),
        S3_SECRET_ACCESS_KEY_FILE: secretFile('s3-key', 'k3y\n'),
        GITHUB_CLIENT_ID: 'gh-id',
        GITHUB_CLIENT_SECRET_FILE: secretFile('gh', 'gh-secret\n'),
        AKISMET_KEY_FILE: secretFile('akismet', 'ak\n'),
      },
      cwd,
    );
    expect(config.database).toMatchObject({ mode: 'external', url: DATABASE_URL });
    expect(config.sessionSecret).toBe(SECRET);
    expect(config.redisUrl).toBe('redis://:pw@redis:6379');
    expect(config.smtpUrl).toBe('smtp://u:pw@mail:587');
    expect(config.storage).toMatchObject({ accessKeyId: 'AKIA', secretAccessKey: 'k3y' });
    expect(config.sso.github).toMatchObject({ clientSecret: 'gh-secret' });
    expect(config.moderation.akismetKey).toBe('ak');
  });

  it('keeps every other byte of the file, inner newlines and spaces included', () => {
    const providers = [
      { id: 'corp', name: 'Corp', issuer: 'https://id.example', clientId: 'c', clientSecret: 'x' },
    ];
    const config = loadConfig(
      {
        DATABASE_URL: DATABASE_URL,
        SESSION_SECRET_FILE: secretFile('session-secret', ` ${SECRET} \n`),
        OIDC_PROVIDERS_FILE: secretFile('oidc', `${JSON.stringify(providers, null, 2)}\n`),
      },
      cwd,
    );
    expect(config.sessionSecret).toBe(` ${SECRET} `);
    expect(config.sso.oidc).toEqual([expect.objectContaining({ id: 'corp', clientSecret: 'x' })]);
  });

  it('takes a path relative to the working directory', () => {
    secretFile('session-secret', SECRET);
    expect(loadConfig({ DATABASE_URL, SESSION_SECRET_FILE: 'session-secret' }, cwd).sessionSecret).toBe(
      SECRET,
    );
  });

  it('refuses a variable set both directly and as a file, naming both, never the value', () => {
    const message = configError({
      DATABASE_URL,
      SESSION_SECRET: SECRET,
      SESSION_SECRET_FILE: secretFile('session-secret', 'other'.repeat(10)),
    });
    expect(message).toBe(
      'Invalid configuration: SESSION_SECRET and SESSION_SECRET_FILE are both set: keep one',
    );
  });

  it('lists every variable set both ways', () => {
    const message = configError({
      DATABASE_URL,
      DATABASE_URL_FILE: secretFile('db', DATABASE_URL),
      SMTP_URL: 'smtp://mail:25',
      SMTP_URL_FILE: secretFile('smtp', 'smtp://mail:25'),
    });
    expect(message).toContain('DATABASE_URL and DATABASE_URL_FILE are both set');
    expect(message).toContain('SMTP_URL and SMTP_URL_FILE are both set');
    expect(message).not.toContain('p4ss');
  });

  it('names the variable and the path of a missing file', () => {
    const missing = path.join(cwd, 'nope');
    expect(configError({ DATABASE_URL_FILE: missing })).toBe(
      `Invalid configuration: DATABASE_URL_FILE: cannot read ${missing} (ENOENT)`,
    );
  });

  it('names the variable and the path of an unreadable file, never its content', () => {
    const file = secretFile('locked', `${SECRET}\n`);
    chmodSync(file, 0o000);
    // root reads any file: a folder stands in for an unreadable one there.
    const target = process.getuid?.() === 0 ? cwd : file;
    const message = configError({ DATABASE_URL, SESSION_SECRET_FILE: target });
    expect(message).toMatch(
      new RegExp(`^Invalid configuration: SESSION_SECRET_FILE: cannot read ${target} \\((EACCES|EISDIR)\\)$`),
    );
    expect(message).not.toContain(SECRET);
  });

  it('refuses an empty file', () => {
    const file = secretFile('empty', '\n');
    expect(configError({ DATABASE_URL, SESSION_SECRET_FILE: file })).toBe(
      `Invalid configuration: SESSION_SECRET_FILE: ${file} is empty`,
    );
  });

  it('checks a value read from a file like one given directly, without echoing it', () => {
    const message = configError({ DATABASE_URL_FILE: secretFile('db', 'mysql://u:p4ss@db/x\n') });
    expect(message).toMatch(/^Invalid configuration: DATABASE_URL /);
    expect(message).not.toContain('p4ss');
  });

  it('treats an empty <NAME>_FILE as unset, like any empty variable', () => {
    expect(
      loadConfig({ DATABASE_URL, SESSION_SECRET: SECRET, SESSION_SECRET_FILE: '' }, cwd).sessionSecret,
    ).toBe(SECRET);
  });

  it('says SESSION_SECRET_FILE may stand for a missing SESSION_SECRET', () => {
    expect(configError({ DATABASE_URL, SESSION_SECRET: '' })).toBe(
      'Invalid configuration: SESSION_SECRET must be set when DATABASE_URL is set (at least 32 characters, ' +
        'the same on every instance), or SESSION_SECRET_FILE (a file holding it)',
    );
  });

  it('covers every credential, the metrics token included', () => {
    expect([...SECRET_VARIABLES].sort()).toEqual(
      [
        'AKISMET_KEY',
        'DATABASE_READ_URL',
        'DATABASE_URL',
        'GITHUB_CLIENT_SECRET',
        'METRICS_TOKEN',
        'OIDC_PROVIDERS',
        'REDIS_URL',
        'S3_ACCESS_KEY_ID',
        'S3_SECRET_ACCESS_KEY',
        'SESSION_SECRET',
        'SMTP_URL',
      ].sort(),
    );
  });
});

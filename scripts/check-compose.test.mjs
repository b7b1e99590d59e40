// node --test scripts/check-compose.test.mjs (npm run lint runs it): docker-compose.yml starts a production
// install without mailpit, a trial with it (--profile mail-catcher), and takes its secrets from files too.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const composeFile = readFileSync(path.join(root, 'docker-compose.yml'), 'utf8');
const hasCompose = spawnSync('docker-compose', ['version'], { stdio: 'ignore' }).status === 0;
const skip = hasCompose ? false : 'docker-compose not found (apt-get install docker-compose)';

function config(args) {
  return execFileSync('docker-compose', [...args, 'config'], { cwd: root, encoding: 'utf8', stdio: 'pipe' });
}

/** Each service's depends_on names, from `docker-compose config`'s normalised output (2-space indents). */
function dependencies(rendered) {
  const result = {};
  let service;
  let inDependsOn = false;
  for (const line of rendered.split('\n')) {
    const serviceMatch = /^ {2}([\w-]+):$/.exec(line);
    if (serviceMatch) [service, inDependsOn] = [serviceMatch[1], false];
    else if (/^ {4}depends_on:/.test(line)) inDependsOn = true;
    else if (/^ {4}\S/.test(line)) inDependsOn = false;
    else if (inDependsOn && service) {
      const dependency = /^ {4}(?:- | {2})([\w-]+):?$/.exec(line)?.[1];
      if (dependency) (result[service] ??= []).push(dependency);
    }
  }
  return result;
}

test('with .env.example the file is valid, with and without the mail-catcher profile', { skip }, () => {
  const base = ['--env-file', '.env.example', '-f', 'docker-compose.yml'];
  const production = config(base);
  config([...base, '--profile', 'mail-catcher']);
  const deps = dependencies(production);
  assert.deepEqual(deps.worker?.sort(), ['postgres', 'redis']);
  assert.deepEqual(deps.api?.sort(), ['postgres', 'redis']);
  for (const [service, names] of Object.entries(deps)) {
    assert.ok(!names.includes('mailpit'), `${service} must not need mailpit (a profile's service)`);
  }
});

test('mailpit runs only under the mail-catcher profile, and nothing defaults to it', () => {
  const mailpit = composeFile.slice(composeFile.indexOf('\n  mailpit:'));
  assert.match(mailpit.split('\n\n')[0], /\n {4}profiles: \['mail-catcher'\]\n/);
  assert.match(composeFile, /\n {2}SMTP_URL: \$\{SMTP_URL:-\}\n/);
});

test('secrets from files: the override file renders with the secrets left empty in .env', { skip }, () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'termpaste-compose-'));
  try {
    const envFile = path.join(dir, 'secrets.env');
    writeFileSync(envFile, 'POSTGRES_PASSWORD=\nSESSION_SECRET=\n');
    const rendered = config([
      '--env-file',
      envFile,
      '-f',
      'docker-compose.yml',
      '-f',
      'deploy/compose.secrets.yml',
    ]);
    assert.match(rendered, /SESSION_SECRET_FILE: \/run\/secrets\/session_secret/);
    assert.match(rendered, /DATABASE_URL_FILE: \/run\/secrets\/database_url/);
    assert.match(rendered, /POSTGRES_PASSWORD_FILE: \/run\/secrets\/postgres_password/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('every variable of .env.example reaches docker-compose.yml', () => {
  const names = [
    ...readFileSync(path.join(root, '.env.example'), 'utf8').matchAll(/^([A-Z][A-Z0-9_]*)=/gm),
  ].map((match) => match[1]);
  // Read by docker compose itself, not interpolated in the file.
  const composeOwn = new Set(['COMPOSE_PROFILES']);
  const missing = names.filter((name) => !composeOwn.has(name) && !composeFile.includes(`\${${name}`));
  assert.deepEqual(missing, []);
});

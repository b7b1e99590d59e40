// `npm run test:prod`: the production-mode smoke run (README, "Production"). Real processes on loopback,
// from Debian's packages and this checkout's build:
//
//   PostgreSQL (initdb + postgres in a temporary folder)   redis-server (append-only file, noeviction)
//   an SMTP listener (the npm package smtp-server)      one worker   node backend/dist/main.worker.js
//   two API instances  node backend/dist/main.js  (PROCESS_JOBS=off: they only enqueue)
//   nginx with deploy/nginx/web.conf.template (the web service) and deploy/nginx/admin.conf (the admin
//   origin), their placeholders filled in here as the nginx image fills them from the environment.
//
// Every request goes through nginx. Besides the production server (both APIs behind one upstream), the
// generated nginx.conf repeats that same server block on two more ports, each pinned to one API: "through
// api #1" and "through api #2" below mean through those, so the test knows which instance it talks to.
//
// Needs `npx nx run-many -t build` first (backend and frontends). Exits 0 when every check passed.
// TEST_PROD_KEEP=1 keeps the temporary folder (logs, nginx.conf) for a look afterwards.
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import os from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { prodTools } from './prod-tools.mjs';
import {
  assert,
  backendRequire,
  CheckFailed,
  freePort,
  mailText,
  Proc,
  processes,
  root,
  startedWhile,
  startPostgres,
  startRedis,
  startSmtp,
  stopStarting,
  waitFor,
} from './lib/stack.mjs';

const WebSocket = backendRequire('ws');
const pg = backendRequire('pg');
const { Redis } = backendRequire('ioredis');

/** The whole run, start-up included, must end within this. */
const DEADLINE_MS = 4 * 60_000;
const STARTED = Date.now();
const SESSION_SECRET = 'smoke-run-session-secret-0123456789abcdef';
const PASSWORD = 'correct horse battery staple';
/** The workers' job lock and stalled-check period (JOB_LOCK_SECONDS): the kill step waits about twice it. */
const JOB_LOCK_SECONDS = 5;
/** The remotes the web service serves (the admin remote has its own origin). */
const WEB_REMOTES = ['forum', 'messaging', 'settings'];

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
const elapsed = () => `${((Date.now() - STARTED) / 1000).toFixed(1)}s`;
const log = (line) => console.log(`[test:prod ${elapsed()}] ${line}`);

/**
 * Fills in a template's placeholders (a dollar sign and a name in braces), as the nginx image's envsubst
 * does; a line whose placeholder has a list of values is repeated once per value. An unknown placeholder
 * is an error, so a template and this script cannot drift apart silently.
 */
export function renderTemplate(text, values) {
  const placeholder = /\$\{(\w+)\}/g;
  const lines = text.split('\n').flatMap((line) => {
    const list = [...line.matchAll(placeholder)].map((m) => m[1]).find((name) => Array.isArray(values[name]));
    return list ? values[list].map((value) => line.replaceAll(`\${${list}}`, value)) : [line];
  });
  return lines.join('\n').replace(placeholder, (_, name) => {
    if (!(name in values)) throw new Error(`template placeholder \${${name}} has no value`);
    return String(values[name]);
  });
}

// ------------------------------------------------------------------------------------------------ nginx

/** The html root as deploy/web.Dockerfile lays it out: the shell, and each remote under remotes/<name>/. */
function webRoot(tmp) {
  const html = join(tmp, 'html');
  const shell = join(root, 'frontends', 'shell', 'dist');
  if (!existsSync(join(shell, 'index.html'))) {
    throw new Error('frontends/shell/dist is not built: run `npx nx run-many -t build` first');
  }
  cpSync(shell, html, { recursive: true });
  for (const name of WEB_REMOTES) {
    const dist = join(root, 'frontends', name, 'dist');
    if (!existsSync(join(dist, 'remoteEntry.js'))) throw new Error(`frontends/${name}/dist is not built`);
    cpSync(dist, join(html, 'remotes', name), { recursive: true });
  }
  const admin = join(tmp, 'admin-html');
  cpSync(join(root, 'frontends', 'admin', 'dist'), admin, { recursive: true });
  return { html, admin };
}

/**
 * nginx.conf for the run: the http-level fragments of deploy/ (the web template with both APIs in its
 * upstream; admin.conf for the admin origin), and the web template's server block twice more, each on
 * its own port with an upstream of one API.
 */
function nginxConf({ tmp, logDir, html, admin, ports, apis, publicUrl }) {
  const webTemplate = readFileSync(join(root, 'deploy', 'nginx', 'web.conf.template'), 'utf8');
  const web = renderTemplate(webTemplate, {
    API_UPSTREAM: apis.map((api) => `127.0.0.1:${api.port}`),
    WEB_LISTEN: `127.0.0.1:${ports.web}`,
    WEB_ROOT: html,
  });
  const serverAt = web.search(/^server \{/m);
  assert(serverAt > 0, 'deploy/nginx/web.conf.template: no top-level `server {` block found');
  const pinned = apis
    .map((api, i) =>
      [
        `# Pinned to api #${i + 1}: the production server block, on its own port, with one upstream server.`,
        `upstream termpaste_api_${i + 1} {`,
        `  server 127.0.0.1:${api.port};`,
        '  keepalive 8;',
        '}',
        web
          .slice(serverAt)
          .replace(/^(\s*listen) [^;]+;/m, `$1 127.0.0.1:${ports.pinned[i]};`)
          .replace(/http:\/\/termpaste_api(?=[;/])/g, `http://termpaste_api_${i + 1}`),
      ].join('\n'),
    )
    .join('\n');
  const adminConf = renderTemplate(readFileSync(join(root, 'deploy', 'nginx', 'admin.conf'), 'utf8'), {
    SHELL_ORIGIN: new URL(publicUrl).origin,
    WEB_LISTEN: `127.0.0.1:${ports.admin}`,
    WEB_ROOT: admin,
  });
  const temp = (name) => `${name}_temp_path ${join(tmp, 'nginx', name)};`;
  return [
    '# Generated by scripts/test-prod.mjs from deploy/nginx/*.',
    'daemon off;',
    'worker_processes 2;',
    `pid ${join(tmp, 'nginx', 'nginx.pid')};`,
    `error_log ${join(logDir, 'nginx-error.log')} warn;`,
    'events { worker_connections 512; }',
    'http {',
    existsSync('/etc/nginx/mime.types') ? 'include /etc/nginx/mime.types;' : '',
    'default_type application/octet-stream;',
    `access_log ${join(logDir, 'nginx-access.log')};`,
    'sendfile on;',
    temp('client_body'),
    temp('proxy'),
    temp('fastcgi'),
    temp('uwsgi'),
    temp('scgi'),
    web,
    pinned,
    adminConf,
    '}',
    '',
  ].join('\n');
}

async function startNginx(tools, tmp, logDir, options) {
  mkdirSync(join(tmp, 'nginx'));
  const confFile = join(tmp, 'nginx', 'nginx.conf');
  writeFileSync(confFile, nginxConf({ tmp, logDir, ...options }));
  const args = ['-p', join(tmp, 'nginx'), '-e', join(logDir, 'nginx-error.log'), '-c', confFile];
  const test = spawnSync(tools.nginx, [...args, '-t'], { encoding: 'utf8' });
  if (test.status !== 0) throw new Error(`nginx -t refused ${confFile}:\n${test.stderr}`);
  const proc = new Proc('nginx', tools.nginx, args, { env: { PATH: process.env.PATH }, logDir });
  await startedWhile(
    proc,
    'starting',
    waitFor(
      'nginx to listen',
      async () => (await fetch(`http://127.0.0.1:${options.ports.web}/`)).ok,
      10_000,
    ),
  );
  return { proc, confFile };
}

// ------------------------------------------------------------------------------------------ the checks

const results = [];
let failed = false;

async function check(name, run) {
  if (failed) {
    results.push({ name, status: 'not run' });
    return;
  }
  const started = Date.now();
  log(`… ${name}`);
  try {
    if (Date.now() - STARTED > DEADLINE_MS) throw new CheckFailed(`over the ${DEADLINE_MS / 1000}s deadline`);
    const detail = await run();
    results.push({ name, status: 'PASS', ms: Date.now() - started, detail });
    log(`PASS ${name}${detail ? `: ${detail}` : ''}`);
  } catch (error) {
    failed = true;
    results.push({ name, status: 'FAIL', ms: Date.now() - started, detail: error.message });
    log(`FAIL ${name}: ${error instanceof CheckFailed ? error.message : (error.stack ?? error.message)}`);
  }
}

/**
 * One HTTP request from the local address `from` (any of 127.0.0.0/8 reaches loopback): what nginx sees
 * as the client's address, as different machines would be. Answers `{ status, headers, text }`.
 */
function requestFrom(from, url, { method = 'GET', headers = {}, body } = {}) {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers, localAddress: from }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const answer = new Headers();
        for (let i = 0; i < res.rawHeaders.length; i += 2)
          answer.append(res.rawHeaders[i], res.rawHeaders[i + 1]);
        resolve({ status: res.statusCode, headers: answer, text: Buffer.concat(chunks).toString('utf8') });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Each member's own client address, 127.0.0.10 and up. */
let nextAddress = 10;
const newClientAddress = () => `127.0.0.${nextAddress++}`;

/**
 * A browser of one member, on a machine of its own (its own client address): its session cookie, and
 * requests with our own Origin (the CSRF check).
 */
class Member {
  constructor(env, username) {
    this.env = env;
    this.username = username;
    this.email = `${username}@example.com`;
    this.password = PASSWORD;
    this.address = newClientAddress();
    this.cookie = undefined;
    this.id = undefined;
  }

  /** `via`: the base URL to go through (nginx's production port unless told). */
  async request(method, path, body, via = this.env.publicUrl, headers = {}) {
    const res = await requestFrom(this.address, `${via}${path}`, {
      method,
      headers: {
        Origin: this.env.publicUrl,
        ...(this.cookie ? { Cookie: this.cookie } : {}),
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const session = res.headers.getSetCookie().find((cookie) => cookie.startsWith('termpaste.sid='));
    if (session) this.cookie = session.split(';')[0];
    const { text } = res;
    let json;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: res.status, headers: res.headers, text, json };
  }

  async expect(status, method, path, body, via) {
    const res = await this.request(method, path, body, via);
    assert(
      res.status === status,
      `${method} ${path} answered ${res.status}, not ${status}: ${res.text.slice(0, 300)}`,
    );
    return res;
  }

  async register() {
    const res = await this.expect(201, 'POST', '/api/register', {
      username: this.username,
      email: this.email,
      password: this.password,
    });
    assert(this.cookie, `registering ${this.username} set no session cookie`);
    this.id = res.json.id;
    return this;
  }

  /** Opens the link of the verification mail the SMTP listener got for this member (members write only then). */
  async verify() {
    const escaped = this.env.publicUrl.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const pattern = new RegExp(`${escaped}/verify-email\\?token=([A-Za-z0-9_-]+)`);
    const token = await waitFor(`the verification mail to ${this.email}`, () => {
      const mail = this.env.smtp.received.findLast((message) => message.to.includes(this.email));
      return mail && pattern.exec(mailText(mail.raw))?.[1];
    });
    await this.expect(200, 'POST', '/api/verify-email', { token });
    return this;
  }

  async notifications() {
    return (await this.expect(200, 'GET', '/api/notifications')).json;
  }

  /** A live socket on `/ws/chat` through `via`, recording every frame. */
  async connect(via, query = '') {
    const url = `${via.replace(/^http/, 'ws')}/ws/chat${query}`;
    const ws = new WebSocket(url, { headers: { Cookie: this.cookie }, origin: this.env.publicUrl });
    const frames = [];
    ws.on('message', (data) => frames.push(JSON.parse(String(data))));
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    ws.on('error', () => undefined);
    return { ws, frames, close: () => ws.close() };
  }
}

// ---------------------------------------------------------------------------------------------- the run

const tmpRoots = [];
let cleaningUp;

async function cleanup() {
  stopStarting();
  cleaningUp ??= (async () => {
    // The app processes first (they close their connections), then nginx, Redis and PostgreSQL.
    const order = ['worker', 'api1', 'api2', 'nginx', 'redis', 'postgres'];
    const byOrder = [...processes].sort(
      (a, b) => order.indexOf(a.name.replace(/-\d+$/, '')) - order.indexOf(b.name.replace(/-\d+$/, '')),
    );
    for (const proc of byOrder) {
      // PostgreSQL: SIGINT is its fast shutdown; nginx: SIGQUIT is its graceful one.
      const signal = proc.name === 'postgres' ? 'SIGINT' : proc.name === 'nginx' ? 'SIGQUIT' : 'SIGTERM';
      await proc.stop(signal, 10_000).catch(() => undefined);
    }
    for (const tmp of tmpRoots) {
      if (process.env.TEST_PROD_KEEP === '1') log(`kept ${tmp}`);
      else rmSync(tmp, { recursive: true, force: true });
    }
  })();
  return cleaningUp;
}

for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
]) {
  process.once(signal, () => {
    log(`${signal}: stopping everything`);
    cleanup().finally(() => process.exit(code));
  });
}

async function main() {
  const tools = prodTools();
  if (tools.missing.length > 0) {
    console.error(`test:prod needs ${tools.missing.join('; ')}`);
    return 1;
  }
  for (const file of ['backend/dist/main.js', 'backend/dist/main.worker.js']) {
    if (!existsSync(join(root, file))) {
      console.error(`test:prod needs ${file}: run \`npx nx run-many -t build\` first`);
      return 1;
    }
  }

  const tmp = mkdtempSync(join(os.tmpdir(), 'termpaste-prod-'));
  tmpRoots.push(tmp);
  // nginx's workers and PostgreSQL run as other users when we are root: they must enter the folder.
  chmodSync(tmp, 0o755);
  const logDir = join(tmp, 'logs');
  mkdirSync(logDir);
  log(`temporary folder ${tmp}`);

  const env = {};
  let smtp;
  let redisClient;
  let db;
  const sockets = [];
  try {
    await check('start PostgreSQL, Redis, an SMTP listener, a worker, two APIs and nginx', async () => {
      const [postgres, redis, mail] = await Promise.all([
        startPostgres(tools, tmp, logDir),
        startRedis(tools, tmp, logDir),
        startSmtp(),
      ]);
      smtp = mail;
      env.smtp = mail;
      env.postgres = postgres;
      env.redis = redis;
      const ports = {
        web: await freePort(),
        admin: await freePort(),
        pinned: [await freePort(), await freePort()],
      };
      env.publicUrl = `http://127.0.0.1:${ports.web}`;
      env.adminUrl = `http://127.0.0.1:${ports.admin}`;
      env.pinned = ports.pinned.map((port) => `http://127.0.0.1:${port}`);

      // What every backend process gets, as docker-compose.yml's x-backend-env gives it.
      const backendEnv = {
        PATH: process.env.PATH,
        HOME: process.env.HOME ?? tmp,
        NODE_ENV: 'production',
        HOST: '127.0.0.1',
        DATABASE_URL: postgres.url,
        REDIS_URL: redis.url,
        SMTP_URL: mail.url,
        SESSION_SECRET,
        PUBLIC_URL: env.publicUrl,
        LOG_FORMAT: 'json',
        REMOTE_URLS: JSON.stringify({ admin: `${env.adminUrl}/remoteEntry.js` }),
        ALLOWED_ORIGINS: env.adminUrl,
        // As compose sets it: web's nginx is trusted for the client address (rate limits count per client).
        TRUST_PROXY: '1',
        // The owner: alice, once she verifies her address (no setup code then).
        OWNER_EMAIL: 'alice@example.com',
        // A killed worker's job is taken up after about twice this (BullMQ's default, 30 s, would make
        // the kill step take a minute).
        JOB_LOCK_SECONDS: String(JOB_LOCK_SECONDS),
      };
      env.backendEnv = backendEnv;
      env.workerHealthPort = await freePort();
      env.startWorker = async (label) => {
        const proc = new Proc(label, process.execPath, [join(root, 'backend/dist/main.worker.js')], {
          env: {
            ...backendEnv,
            DATA_DIR: join(tmp, 'worker'),
            WORKER_HEALTH_PORT: String(env.workerHealthPort),
          },
          logDir,
        });
        await startedWhile(
          proc,
          'starting',
          waitFor(
            `${label}'s /health`,
            async () => (await fetch(`http://127.0.0.1:${env.workerHealthPort}/health`)).ok,
            30_000,
            200,
          ),
        );
        return proc;
      };
      // The worker first: it runs the migrations, and the APIs, started together, find them done.
      let workerRuns = 0;
      env.newWorker = () => env.startWorker(`worker-${++workerRuns}`);
      env.worker = await env.newWorker();

      env.apis = await Promise.all(
        [1, 2].map(async (n) => {
          const port = await freePort();
          const proc = new Proc(`api${n}`, process.execPath, [join(root, 'backend/dist/main.js')], {
            env: { ...backendEnv, PORT: String(port), DATA_DIR: join(tmp, `api${n}`), PROCESS_JOBS: 'off' },
            logDir,
          });
          await startedWhile(
            proc,
            'starting',
            waitFor(
              `api #${n}'s /api/ready`,
              async () => (await fetch(`http://127.0.0.1:${port}/api/ready`)).ok,
              60_000,
              200,
            ),
          );
          return { proc, port };
        }),
      );
      const dirs = webRoot(tmp);
      env.nginx = await startNginx(tools, tmp, logDir, {
        ...dirs,
        ports,
        apis: env.apis,
        publicUrl: env.publicUrl,
      });
      redisClient = new Redis(redis.url, { maxRetriesPerRequest: 1 });
      db = new pg.Client({ connectionString: postgres.url });
      await db.connect();
      return `nginx ${env.publicUrl} (api #1 only: ${env.pinned[0]}, api #2 only: ${env.pinned[1]}, admin origin ${env.adminUrl})`;
    });

    await check('through nginx: /api/health and /api/ready answer 200, on each API too', async () => {
      for (const base of [env.publicUrl, ...env.pinned]) {
        for (const path of ['/api/health', '/api/ready']) {
          const res = await fetch(`${base}${path}`);
          assert(res.status === 200, `${base}${path} answered ${res.status}: ${await res.text()}`);
        }
      }
    });

    await check(
      'through nginx: the shell, its remotes, remotes.json from the API, the admin origin',
      async () => {
        const page = await fetch(`${env.publicUrl}/thread/1`);
        assert(
          page.ok && (page.headers.get('content-type') ?? '').startsWith('text/html'),
          'no shell page on a deep link',
        );
        assert(page.headers.get('x-content-type-options') === 'nosniff', 'no nosniff on the shell page');
        // The page has the backend's security headers (one source: its configuration).
        const api = await fetch(`${env.publicUrl}/api/health`);
        const csp = page.headers.get('content-security-policy');
        assert(csp && csp === api.headers.get('content-security-policy'), `the shell page's CSP is ${csp}`);
        assert(csp.includes(env.adminUrl), `the CSP does not allow the admin remote's origin: ${csp}`);
        assert(page.headers.get('referrer-policy') === 'no-referrer', 'the shell page sends referrers');
        assert(page.headers.get('x-frame-options') === 'DENY', 'the shell page may be framed');
        for (const name of WEB_REMOTES) {
          const entry = await fetch(`${env.publicUrl}/remotes/${name}/remoteEntry.js`);
          assert(entry.ok, `/remotes/${name}/remoteEntry.js answered ${entry.status}`);
          assert(entry.headers.get('cache-control') === 'no-cache', `${name}'s remoteEntry.js is cached`);
        }
        // Precompressed at build time and sent as built (gzip_static): the .gz file, its length known.
        const zipped = await requestFrom('127.0.0.1', `${env.publicUrl}/remotes/forum/remoteEntry.js`, {
          headers: { 'Accept-Encoding': 'gzip' },
        });
        const built = statSync(join(root, 'frontends/forum/dist/remoteEntry.js.gz')).size;
        assert(
          zipped.headers.get('content-encoding') === 'gzip' &&
            Number(zipped.headers.get('content-length')) === built,
          `remoteEntry.js came as ${zipped.headers.get('content-encoding')}, ${zipped.headers.get('content-length')} bytes, not the build's ${built}-byte .gz`,
        );
        const missing = await fetch(`${env.publicUrl}/remotes/forum/static/js/missing.js`);
        assert(missing.status === 404, `a missing chunk answered ${missing.status}, not 404`);
        const manifest = await (await fetch(`${env.publicUrl}/remotes.json`)).json();
        assert(
          manifest.forum === '/remotes/forum/remoteEntry.js' &&
            manifest.admin === `${env.adminUrl}/remoteEntry.js`,
          `unexpected remotes.json: ${JSON.stringify(manifest)}`,
        );
        const admin = await fetch(`${env.adminUrl}/remoteEntry.js`, { headers: { Origin: env.publicUrl } });
        assert(admin.ok, `the admin origin answered ${admin.status}`);
        assert(
          admin.headers.get('access-control-allow-origin') === env.publicUrl,
          `the admin origin does not allow the shell's (CORS: ${admin.headers.get('access-control-allow-origin')})`,
        );
        const other = await fetch(`${env.adminUrl}/remoteEntry.js`, {
          headers: { Origin: 'https://evil.example' },
        });
        assert(!other.headers.get('access-control-allow-origin'), 'the admin origin allows any origin');
      },
    );

    const alice = new Member(env, 'alice');
    const bob = new Member(env, 'bob');
    const mentioned = ['carol', 'dave', 'erin', 'frank', 'grace'].map((name) => new Member(env, name));
    let threadId;

    await check(
      'through nginx: register and verify members (alice, OWNER_EMAIL, is the owner) and post a paste',
      async () => {
        for (const member of [alice, bob, ...mentioned]) await member.register();
        // The worker sends the verification mails over SMTP; their links let the members write.
        for (const member of [alice, bob, ...mentioned]) await member.verify();
        const me = (await alice.expect(200, 'GET', '/api/auth/user')).json;
        assert(me.isAdmin === true && me.isOwner === true, `alice is not the owner: ${JSON.stringify(me)}`);
        const created = await alice.expect(201, 'POST', '/api/threads', {
          title: 'Smoke test paste',
          content: '```\nhello from the production-mode smoke run\n```',
        });
        threadId = created.json.id;
        const thread = await bob.expect(200, 'GET', `/api/threads/${threadId}`);
        assert(
          thread.json.title === 'Smoke test paste',
          `the paste reads back as ${thread.text.slice(0, 200)}`,
        );
        return `${2 + mentioned.length} members, paste #${threadId}`;
      },
    );

    await check(
      'a reply notifies through the worker only: none while it is stopped, then it is made',
      async () => {
        await env.worker.stop('SIGTERM');
        const aliceLive = await alice.connect(env.pinned[1], '?scope=user');
        sockets.push(aliceLive);
        const reply = await bob.expect(201, 'POST', `/api/threads/${threadId}/replies`, {
          content: 'Nice paste!',
        });
        const jobId = `reply-${reply.json.id}`;
        await waitFor('the reply job to wait in Redis', () =>
          redisClient.lpos('bull:notifications:wait', jobId).then((at) => at !== null),
        );
        await sleep(2000);
        assert(
          (await alice.notifications()).unreadCount === 0,
          'a notification was made while no worker ran',
        );
        assert(
          (await redisClient.lpos('bull:notifications:wait', jobId)) !== null,
          'the job left the wait list while no worker ran: an API processed it',
        );
        env.worker = await env.newWorker();
        const page = await waitFor('the notification', async () => {
          const list = await alice.notifications();
          return list.notifications.length === 1 && list;
        });
        assert(page.unreadCount === 1, `unread count ${page.unreadCount}, not 1`);
        assert(page.notifications[0].type === 'reply', `a ${page.notifications[0].type} notification`);
        assert(
          page.notifications[0].content.startsWith('bob replied'),
          `says ${page.notifications[0].content}`,
        );
        await waitFor(
          "the live notification on alice's socket on api #2 (made by the worker, carried by Redis)",
          () => aliceLive.frames.some((frame) => frame.type === 'notification'),
          5000,
        );
        return `job ${jobId} waited in Redis for 2 s with no worker; the restarted worker made the notification`;
      },
    );

    await check(
      'a chat message posted through api #1 reaches a socket connected through api #2',
      async () => {
        const onApi2 = await alice.connect(env.pinned[1]);
        const balanced = await alice.connect(env.publicUrl);
        sockets.push(onApi2, balanced);
        const content = `hello from api #1 at ${Date.now()}`;
        await bob.expect(201, 'POST', '/api/chat/messages', { content }, env.pinned[0]);
        for (const [label, socket] of [
          ['api #2', onApi2],
          ['the load-balanced /ws', balanced],
        ]) {
          await waitFor(
            `the chat message on the socket through ${label}`,
            () =>
              socket.frames.some(
                (frame) => frame.type === 'chat_message' && frame.message?.content === content,
              ),
            5000,
          );
        }
      },
    );

    await check('forgot password: the reset mail goes out over SMTP with a link that works', async () => {
      const before = smtp.received.length;
      await bob.expect(200, 'POST', '/api/forgot-password', { email: bob.email });
      const mail = await waitFor('the reset mail at the SMTP listener', () =>
        smtp.received.slice(before).find((message) => message.to.includes(bob.email)),
      );
      const text = mailText(mail.raw);
      const escaped = env.publicUrl.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      const link = new RegExp(`${escaped}/reset-password\\?token=([A-Za-z0-9_-]+)`).exec(text);
      assert(link, `no ${env.publicUrl}/reset-password link in the mail:\n${text.slice(0, 1500)}`);
      const page = await fetch(link[0]);
      assert(
        page.ok && (page.headers.get('content-type') ?? '').startsWith('text/html'),
        `the link answered ${page.status}`,
      );
      const visitor = new Member(env, 'visitor');
      await visitor.expect(200, 'POST', '/api/reset-password', {
        token: link[1],
        newPassword: 'a brand new password',
      });
      // The reset signed bob out everywhere: the old session is gone, the new password works.
      const stale = await bob.request('GET', '/api/auth/user');
      assert(stale.status === 401, `bob's old session still works after the reset (${stale.status})`);
      bob.cookie = undefined;
      bob.password = 'a brand new password';
      await bob.expect(200, 'POST', '/api/login', { usernameOrEmail: bob.username, password: bob.password });
      return `mail to ${mail.to.join(', ')}, link ${link[0].slice(0, env.publicUrl.length + 30)}…`;
    });

    await check(
      'kill -9 the worker mid-job: after a restart the job completes, with no duplicate notification',
      async () => {
        // A lock on one mentioned member's unread counter: the job makes the first notifications, then
        // waits for it in the middle of its fan-out, with the job active in Redis.
        const blocked = mentioned[2];
        const lock = new pg.Client({ connectionString: env.postgres.url });
        await lock.connect();
        let killedAt;
        let restartedAt;
        try {
          await lock.query('BEGIN');
          await lock.query(
            `INSERT INTO notification_counters (user_id) VALUES ($1)
           ON CONFLICT (user_id) DO UPDATE SET unread = notification_counters.unread`,
            [blocked.id],
          );
          const reply = await bob.expect(201, 'POST', `/api/threads/${threadId}/replies`, {
            content: `Thanks all: ${mentioned.map((member) => `@${member.username}`).join(' ')}`,
          });
          const source = `reply:${reply.json.id}`;
          const jobId = `reply-${reply.json.id}`;
          const count = async () =>
            Number(
              (await db.query('SELECT count(*) FROM notifications WHERE source = $1', [source])).rows[0]
                .count,
            );
          const waiting = await waitFor('the job to wait on the lock mid-fan-out', async () => {
            const { rows } = await db.query(
              `SELECT pid FROM pg_stat_activity
             WHERE wait_event_type = 'Lock' AND query LIKE '%notification_counters%' AND pid <> $1`,
              [lock.processID],
            );
            return rows.length === 1 && (await count()) === 3 && rows[0].pid;
          });
          assert(
            (await redisClient.lpos('bull:notifications:active', jobId)) !== null,
            'the job is not active',
          );

          await env.worker.stop('SIGKILL');
          killedAt = Date.now();
          await waitFor(
            "PostgreSQL to drop the killed worker's connection (its transaction rolled back)",
            async () =>
              (await db.query('SELECT 1 FROM pg_stat_activity WHERE pid = $1', [waiting])).rows.length === 0,
            10_000,
          );
          await lock.query('ROLLBACK');

          // BullMQ hands a dead worker's job to another once its lock expired (lockDuration) and two
          // stalled-job checks (stalledInterval; at most one a period across workers) saw it, both
          // JOB_LOCK_SECONDS here. Restarting once the dead worker's lock and its last check's mark are
          // gone makes that exactly two checks of the new worker: at its start, and one period later.
          await waitFor(
            "the dead worker's job lock and stalled-check mark to expire",
            async () =>
              (await redisClient.exists(
                `bull:notifications:${jobId}:lock`,
                'bull:notifications:stalled-check',
              )) === 0,
            40_000,
            250,
          );
          assert((await count()) === 3, 'notifications were made with the worker dead: an API ran the job');
          restartedAt = Date.now();
          env.worker = await env.newWorker();
          await waitFor(
            'the job to complete on the restarted worker',
            async () => (await count()) === 1 + mentioned.length,
            150_000,
            500,
          );
          // Two stalled-job checks, one period apart: JOB_LOCK_SECONDS, not BullMQ's 30 s, sets it.
          const takenUpAfter = Date.now() - restartedAt;
          assert(
            takenUpAfter < 4 * JOB_LOCK_SECONDS * 1000,
            `the restarted worker took ${seconds(takenUpAfter)} to finish the job (JOB_LOCK_SECONDS=${JOB_LOCK_SECONDS} not applied?)`,
          );
          const duplicates = await db.query(
            `SELECT user_id, source, count(*) FROM notifications GROUP BY user_id, source HAVING count(*) > 1`,
          );
          assert(duplicates.rows.length === 0, `duplicate notifications: ${JSON.stringify(duplicates.rows)}`);
          const counters = await db.query(
            `SELECT c.user_id, c.unread,
             (SELECT count(*)::int FROM notifications n WHERE n.user_id = c.user_id AND NOT n.is_read) AS actual
           FROM notification_counters c WHERE c.unread <> (SELECT count(*) FROM notifications n
             WHERE n.user_id = c.user_id AND NOT n.is_read)`,
          );
          assert(counters.rows.length === 0, `unread counters off: ${JSON.stringify(counters.rows)}`);
          for (const member of mentioned) {
            const page = await member.notifications();
            assert(
              page.notifications.length === 1 &&
                page.unreadCount === 1 &&
                page.notifications[0].type === 'mention',
              `${member.username} has ${JSON.stringify(page).slice(0, 300)}`,
            );
          }
          const alicePage = await alice.notifications();
          assert(
            alicePage.notifications.length === 2 && alicePage.unreadCount === 2,
            `alice has ${alicePage.notifications.length} notifications, ${alicePage.unreadCount} unread (not 2)`,
          );
          const job = await redisClient.hgetall(`bull:notifications:${jobId}`);
          assert(job.finishedOn && !job.failedReason, `the job did not complete: ${JSON.stringify(job)}`);
          return (
            `3 of 6 made before the kill; the worker restarted ${seconds(restartedAt - killedAt)} after it ` +
            `(lock expired), the rest made ${seconds(Date.now() - restartedAt)} after that, each once ` +
            `(job stalled ${job.stc ?? 0} time(s), then completed)`
          );
        } finally {
          await lock.end().catch(() => undefined);
        }
      },
    );

    await check('the queue dashboard (/api/admin/queues) is for admins only; /api/docs answers', async () => {
      const asAdmin = await alice.request('GET', '/api/admin/queues');
      assert(asAdmin.status === 200, `an admin got ${asAdmin.status} from /api/admin/queues`);
      const asMember = await mentioned[0].request('GET', '/api/admin/queues');
      assert([401, 403].includes(asMember.status), `a member got ${asMember.status} from /api/admin/queues`);
      const docs = await fetch(`${env.publicUrl}/api/docs`);
      assert(docs.ok, `/api/docs answered ${docs.status}`);
    });

    await check(
      'behind nginx (TRUST_PROXY=1) rate limits count per client address; a forged X-Forwarded-For changes nothing',
      async () => {
        // Registrations: 5 an hour per address by default. One machine registers 5 accounts, the 6th is
        // refused; claiming another address in X-Forwarded-For does not help (nginx appends the real one,
        // the one proxy trusted); a member on another machine is not held back.
        const shared = newClientAddress();
        const crowd = Array.from({ length: 6 }, (_, i) => new Member(env, `crowd${i}`));
        for (const member of crowd) member.address = shared;
        for (const member of crowd.slice(0, 5)) await member.register();
        const sixth = crowd[5];
        const body = { username: sixth.username, email: sixth.email, password: sixth.password };
        const refused = await sixth.request('POST', '/api/register', body);
        assert(
          refused.status === 429 &&
            /^Too many attempts\. Try again in \d+ seconds\.$/.test(refused.json?.message),
          `the 6th registration from one address answered ${refused.status}: ${refused.text.slice(0, 200)}`,
        );
        const forged = await sixth.request('POST', '/api/register', body, undefined, {
          'X-Forwarded-For': '203.0.113.7',
        });
        assert(forged.status === 429, `a forged X-Forwarded-For got past the limit: ${forged.status}`);
        await new Member(env, 'elsewhere').register();
        return `5 registrations from ${shared}, the 6th refused (forged address too); another address registers`;
      },
    );

    await check('through nginx: /api/ready still answers 200', async () => {
      const res = await fetch(`${env.publicUrl}/api/ready`);
      assert(res.status === 200, `/api/ready answered ${res.status}: ${await res.text()}`);
    });
  } finally {
    for (const socket of sockets) socket.close();
    redisClient?.disconnect();
    await db?.end().catch(() => undefined);
    if (failed) {
      for (const proc of processes)
        console.log(`\n--- last lines of ${proc.name} (${proc.logFile})\n${proc.tail(40)}`);
    }
    await cleanup();
    await smtp?.close();
  }

  console.log('\nProduction-mode smoke run (two APIs, a worker, nginx, PostgreSQL, Redis, SMTP):');
  for (const result of results) {
    const time = result.ms === undefined ? '' : ` (${(result.ms / 1000).toFixed(1)}s)`;
    console.log(`  ${result.status.padEnd(7)} ${result.name}${time}`);
    if (result.status === 'FAIL') console.log(`          ${result.detail}`);
  }
  console.log(`\ntest:prod ${failed ? 'FAILED' : 'PASSED'} in ${elapsed()}`);
  return failed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  async (error) => {
    console.error(error);
    await cleanup();
    process.exit(1);
  },
);

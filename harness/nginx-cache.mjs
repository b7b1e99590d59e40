// nginx as the web image runs it (deploy/nginx/web.conf.template, page cache and all) in front of any
// upstream on loopback: for the production-mode run's checks of the cache and the bench's visitor row.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { root } from './paths.mjs';
import { Proc, startedWhile } from './proc.mjs';
import { freePort, waitFor } from './wait.mjs';

/**
 * Fills in a template's placeholders (a dollar sign and a name in braces), as the nginx image's envsubst
 * does; a line whose placeholder has a list of values is repeated once per value. An unknown placeholder
 * is an error, so a template and its users cannot drift apart silently.
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

/** The web template filled in for a loopback run: its http-level fragment and its server block. */
export function webConf({ upstreams, listen, webRoot, cachePath }) {
  const template = readFileSync(join(root, 'deploy', 'nginx', 'web.conf.template'), 'utf8');
  return renderTemplate(template, {
    API_UPSTREAM: upstreams,
    WEB_LISTEN: listen,
    WEB_ROOT: webRoot,
    WEB_CACHE_PATH: cachePath,
  });
}

/**
 * Debian's nginx (`nginxBin`) with the web template in front of `upstream` (host:port), on a free loopback
 * port, its files under `dir` (made here). Resolves `{ url, proc, stop }` once it answers.
 */
export async function startWebNginx({ nginxBin, upstream, dir, logDir, name = 'nginx-edge', workers = 1 }) {
  mkdirSync(dir, { recursive: true });
  // Its workers run as another user when we are root: they must enter the folder.
  chmodSync(dir, 0o755);
  const webRoot = join(dir, 'html');
  mkdirSync(webRoot, { recursive: true });
  writeFileSync(join(webRoot, 'index.html'), '<!doctype html><title>edge</title>\n');
  const port = await freePort();
  const temp = (what) => `${what}_temp_path ${join(dir, what)};`;
  const conf = [
    'daemon off;',
    `worker_processes ${workers};`,
    `pid ${join(dir, 'nginx.pid')};`,
    `error_log ${join(logDir, `${name}-error.log`)} warn;`,
    'events { worker_connections 1024; }',
    'http {',
    existsSync('/etc/nginx/mime.types') ? 'include /etc/nginx/mime.types;' : '',
    'default_type application/octet-stream;',
    'access_log off;',
    'sendfile on;',
    ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(temp),
    webConf({
      upstreams: [upstream],
      listen: `127.0.0.1:${port}`,
      webRoot,
      cachePath: join(dir, 'cache'),
    }),
    '}',
    '',
  ].join('\n');
  const confFile = join(dir, 'nginx.conf');
  writeFileSync(confFile, conf);
  const args = ['-p', dir, '-e', join(logDir, `${name}-error.log`), '-c', confFile];
  const test = spawnSync(nginxBin, [...args, '-t'], { encoding: 'utf8' });
  if (test.status !== 0) throw new Error(`nginx -t refused ${confFile}:\n${test.stderr}`);
  const proc = new Proc(name, nginxBin, args, { env: { PATH: process.env.PATH }, logDir });
  const url = `http://127.0.0.1:${port}`;
  // Any answer will do (the app page asks the upstream for its headers): it listens.
  await startedWhile(
    proc,
    'starting',
    waitFor(
      'nginx to listen',
      () =>
        fetch(`${url}/index.html`).then(
          () => true,
          () => false,
        ),
      10_000,
    ),
  );
  return { url, proc, stop: () => proc.stop('SIGQUIT', 10_000).catch(() => undefined) };
}

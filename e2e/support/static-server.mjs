// A tiny static server standing in for deploy/nginx/admin.conf in the e2e run: one remote's dist/ on an
// origin of its own, with CORS and nginx's cache rules. docs/testing.md.
//
//   node e2e/support/static-server.mjs --root frontends/admin/dist --port 4100 --allow-origin http://127.0.0.1:3000
import { createReadStream } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    root: { type: 'string' },
    port: { type: 'string' },
    host: { type: 'string', default: '127.0.0.1' },
    'allow-origin': { type: 'string', default: '*' },
    'wait-for': { type: 'string', default: 'remoteEntry.js' },
    'wait-timeout': { type: 'string', default: '600' },
  },
});
if (!values.root || !values.port) {
  console.error(
    'usage: static-server.mjs --root <dir> --port <port> [--host 127.0.0.1] [--allow-origin <origin>]',
  );
  process.exit(2);
}

const root = resolve(values.root);
const port = Number(values.port);
const allowedOrigins = values['allow-origin'].split(',').map((origin) => origin.trim());

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.wasm': 'application/wasm',
};
/** A content hash in the file name: the file never changes (as backend/src/http/frontends.ts). */
const FINGERPRINTED = /[.-][0-9a-f]{8,}(\.[a-z0-9]+)+$/;

function corsHeaders(origin) {
  if (allowedOrigins.includes('*')) return { 'Access-Control-Allow-Origin': '*' };
  if (origin && allowedOrigins.includes(origin))
    return { 'Access-Control-Allow-Origin': origin, Vary: 'Origin' };
  return { Vary: 'Origin' };
}

async function waitForBuild() {
  const marker = join(root, values['wait-for']);
  const deadline = Date.now() + Number(values['wait-timeout']) * 1000;
  let told = false;
  for (;;) {
    try {
      await access(marker);
      return;
    } catch {
      if (Date.now() > deadline) throw new Error(`${marker} did not appear in ${values['wait-timeout']} s`);
      if (!told) console.log(`static-server: waiting for ${marker}`);
      told = true;
      await new Promise((done) => setTimeout(done, 500));
    }
  }
}

const server = createServer(async (req, res) => {
  const cors = corsHeaders(req.headers.origin);
  if (req.method === 'OPTIONS') {
    res.writeHead(204, {
      ...cors,
      'Access-Control-Allow-Methods': 'GET, HEAD, OPTIONS',
      'Access-Control-Allow-Headers': req.headers['access-control-request-headers'] ?? '',
      'Access-Control-Max-Age': '600',
    });
    return res.end();
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { ...cors, Allow: 'GET, HEAD, OPTIONS' });
    return res.end();
  }
  let pathname;
  try {
    pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://localhost').pathname);
  } catch {
    res.writeHead(400, cors);
    return res.end();
  }
  const file = normalize(join(root, pathname === '/' ? 'index.html' : pathname));
  if (file !== root && !file.startsWith(root + sep)) {
    res.writeHead(403, cors);
    return res.end();
  }
  let info;
  try {
    info = await stat(file);
  } catch {
    info = null;
  }
  if (!info?.isFile()) {
    res.writeHead(404, { ...cors, 'Content-Type': 'text/plain; charset=utf-8' });
    return res.end(`Not found: ${pathname}\n`);
  }
  res.writeHead(200, {
    ...cors,
    'Content-Type': TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream',
    'Content-Length': info.size,
    'Cache-Control': FINGERPRINTED.test(file) ? 'public, max-age=31536000, immutable' : 'no-cache',
    'X-Content-Type-Options': 'nosniff',
  });
  if (req.method === 'HEAD') return res.end();
  createReadStream(file)
    .on('error', () => res.destroy())
    .pipe(res);
});

await waitForBuild();
server.listen(port, values.host, () => {
  console.log(`static-server: ${root} on http://${values.host}:${port} (CORS: ${allowedOrigins.join(', ')})`);
});
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => server.close(() => process.exit(0)));
}

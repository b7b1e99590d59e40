// nginx in front: the APIs' health, the shell and its remotes as built, the admin origin.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { root } from '../../harness/paths.mjs';
import { assert } from '../../harness/wait.mjs';
import { WEB_REMOTES } from './context.mjs';
import { requestFrom } from './user.mjs';

export const health = {
  name: 'through nginx: /api/health (liveness) and /api/ready answer 200, on each API too',
  async run(env) {
    for (const base of [env.publicUrl, ...env.pinned]) {
      for (const path of ['/api/health', '/api/ready']) {
        const res = await fetch(`${base}${path}`);
        assert(res.status === 200, `${base}${path} answered ${res.status}: ${await res.text()}`);
      }
      const health = await (await fetch(`${base}/api/health`)).json();
      assert(
        health.status === 'ok' && health.db === 'up',
        `${base}/api/health said ${JSON.stringify(health)}`,
      );
    }
  },
};

export const webAssets = {
  name: 'through nginx: the shell, its remotes, remotes.json from the API, the admin origin',
  async run(env) {
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
};

export const stillReady = {
  name: 'through nginx: /api/ready still answers 200',
  async run(env) {
    const res = await fetch(`${env.publicUrl}/api/ready`);
    assert(res.status === 200, `/api/ready answered ${res.status}: ${await res.text()}`);
  },
};

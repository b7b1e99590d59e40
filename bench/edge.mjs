// A visitor's reads through nginx's page cache beside the app alone: Debian's nginx with the web
// template's own cache rules (deploy/nginx/web.conf.template, one worker) on a free loopback port in
// front of this size's app; home and the 200-reply paste, as a visitor (no cookie).
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { startWebNginx } from '../harness/nginx-cache.mjs';
import { prodTools } from '../harness/prod-tools.mjs';
import { load, summarize } from './load.mjs';
import { ensureDir, label, log, resultsDir } from './settings.mjs';

/** The visitor reads measured through nginx (their names in size.reads), with the table's names. */
export const EDGE_ROUTES = [
  ['home', 'home, first page'],
  ['detailVisitor', 'paste detail, 200 replies'],
];

/** The goal: a visitor's read through the cache at least as fast as from the app alone. */
const EDGE_MIN_RATIO = 1;

/** Fills `size.result.edge`: each route through nginx and from the app alone, or why not measured. */
export async function measureEdge(size) {
  const { nginx: nginxBin } = prodTools();
  if (!nginxBin) {
    size.result.edge = { skipped: 'nginx is not installed (apt-get install nginx, or set NGINX_BIN)' };
    log(`  ${label(size.pastes)} through nginx: ${size.result.edge.skipped}`);
    return;
  }
  ensureDir(resultsDir);
  const dir = mkdtempSync(join(os.tmpdir(), 'termpaste-bench-edge-'));
  const nginx = await startWebNginx({
    nginxBin,
    upstream: new URL(size.app.url).host,
    dir,
    logDir: resultsDir,
    name: `nginx-edge-${label(size.pastes).replace(/\s/g, '')}`,
  });
  const edge = {};
  try {
    for (const [name] of EDGE_ROUTES) {
      const { path } = size.reads.find(([n]) => n === name)[1];
      // Kept by the first read: the second says HIT (else the cache is not working: no figure).
      await fetch(`${nginx.url}${path}`).then((res) => res.arrayBuffer());
      const status = (await fetch(`${nginx.url}${path}`)).headers.get('x-cache-status');
      const through = summarize(await load(nginx.url, { path }), { cacheStatus: status });
      // The app alone: this run's figure of the route when it was measured, else measured here.
      const alone = size.result.routes[name] ?? summarize(await load(size.app.url, { path }));
      edge[name] = { nginx: through, app: alone };
      log(
        `  ${label(size.pastes)} ${name} through nginx: ${through.rps} req/s (${status}), app alone ${alone.rps}`,
      );
    }
  } finally {
    await nginx.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  size.result.edge = edge;
}

/** The goal's verdict over the runs: true met, false missed, null not measured. */
export function edgeGoal(report) {
  const checks = report.runs.flatMap((run) =>
    !run.edge || run.edge.skipped
      ? []
      : EDGE_ROUTES.map(([name]) => {
          const r = run.edge[name];
          return (
            r.nginx.cacheStatus === 'HIT' && r.nginx.rps >= EDGE_MIN_RATIO * r.app.rps && !r.nginx.errors
          );
        }),
  );
  return { key: 'edge', ok: checks.length === 0 ? null : checks.every(Boolean) };
}

/** The table's rows: `row(measure, small, large, goal, ok)`, `both(f)` a cell for each size. */
export function edgeRows(row, both, ok) {
  const fmt = (n) => Math.round(n).toLocaleString('en');
  const ms = (n) => `${n < 10 ? n.toFixed(1) : Math.round(n)} ms`;
  for (const [name, title] of EDGE_ROUTES) {
    row(
      `visitor ${title}: through nginx's page cache / the app alone`,
      ...both((run) => {
        if (!run.edge) return '–';
        if (run.edge.skipped) return `not measured: ${run.edge.skipped}`;
        const { nginx, app } = run.edge[name];
        const errors =
          nginx.errors || nginx.non2xx ? ` · **${nginx.errors} errors, ${nginx.non2xx} non-2xx**` : '';
        return `${fmt(nginx.rps)} req/s · p99 ${ms(nginx.p99)} (${nginx.cacheStatus}) / ${fmt(app.rps)} req/s · p99 ${ms(app.p99)} · ${(nginx.rps / app.rps).toFixed(2)}×${errors}`;
      }),
      `through nginx ≥ ${EDGE_MIN_RATIO}× the app alone (a repeated read: HIT)`,
      ok,
    );
  }
}

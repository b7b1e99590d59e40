// node scripts/image-size.mjs [--before]: each image's size, measured without Docker. It lays out the
// files each Dockerfile's runtime stage adds to its base image (running the same npm commands in a temp
// folder) and adds them up; the base images' sizes are published figures (BASE_IMAGES). --before also
// measures the backend image as it was built until the runtime stage installed only the backend's
// dependencies (the whole build context, every workspace's packages, `npm prune --omit=dev`).
// Needs the builds: npx nx run-many -t build --projects=@termpaste/backend,@termpaste/shell,...
import { execFileSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * The bases' sizes as `docker image ls` shows them once pulled (linux/amd64, uncompressed), from their
 * Docker Hub tag pages; approximate, and not measured here (no Docker engine). Update with the tags.
 */
export const BASE_IMAGES = {
  'node:20-bookworm-slim': {
    bytes: 200e6,
    source: 'Docker Hub, library/node, tag 20-bookworm-slim (≈200 MB)',
  },
  'nginx:1.28-alpine': { bytes: 50e6, source: 'Docker Hub, library/nginx, tag 1.28-alpine (≈50 MB)' },
};

/** Bytes of the files and symbolic links under `target` (what a layer's tar holds), not following links. */
export function treeBytes(target, keep = () => true) {
  const stat = lstatSync(target);
  if (!stat.isDirectory()) return keep(target) ? stat.size : 0;
  let total = 0;
  for (const entry of readdirSync(target)) total += treeBytes(path.join(target, entry), keep);
  return total;
}

function npm(args, cwd) {
  execFileSync('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], { cwd, stdio: 'inherit' });
}

function requireBuilt(folder) {
  const full = path.join(root, folder);
  if (!existsSync(full)) throw new Error(`${folder} is missing: build it first (npx nx run-many -t build)`);
  return full;
}

/** The workspaces' folders, from the root manifest. */
function workspaces() {
  return JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).workspaces;
}

/** deploy/Dockerfile's runtime stage: the manifests, the backend's production dependencies, the builds. */
function backendImage() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'termpaste-image-'));
  try {
    for (const file of ['package.json', 'package-lock.json', '.npmrc'])
      cpSync(path.join(root, file), path.join(dir, file));
    for (const workspace of workspaces()) {
      mkdirSync(path.join(dir, workspace), { recursive: true });
      cpSync(path.join(root, workspace, 'package.json'), path.join(dir, workspace, 'package.json'));
    }
    npm(
      [
        'ci',
        '--omit=dev',
        '--workspace=@termpaste/backend',
        '--include-workspace-root=false',
        '--ignore-scripts',
      ],
      dir,
    );
    execFileSync(process.execPath, [path.join(root, 'scripts/approved-install-scripts.mjs')], {
      cwd: dir,
      stdio: 'inherit',
    });
    rmSync(path.join(dir, 'node_modules/typescript'), { recursive: true, force: true });
    const dependencies = treeBytes(dir);
    const builds = treeBytes(requireBuilt('backend/dist')) + treeBytes(requireBuilt('contracts/dist'));
    return {
      dependencies,
      builds,
      app: dependencies + builds + treeBytes(path.join(root, 'scripts/approved-install-scripts.mjs')),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The former runtime stage: the whole build stage's /app (context, installs, builds), pruned. */
function backendImageBefore() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'termpaste-image-before-'));
  try {
    // The build context: what git tracks (.dockerignore drops node_modules, dist and local data).
    const files = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' })
      .split('\0')
      .filter(Boolean);
    for (const file of files) {
      if (!existsSync(path.join(root, file))) continue;
      mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      cpSync(path.join(root, file), path.join(dir, file));
    }
    npm(['ci', '--ignore-scripts'], dir);
    for (const folder of ['backend/dist', 'contracts/dist'])
      cpSync(requireBuilt(folder), path.join(dir, folder), { recursive: true });
    npm(['prune', '--omit=dev'], dir);
    return { app: treeBytes(dir) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** web.Dockerfile and admin.Dockerfile: nginx with the built files (less the .br copies) and its template. */
function staticImage(folders, template) {
  const notBrotli = (file) => !file.endsWith('.br');
  return {
    app:
      folders.reduce((sum, folder) => sum + treeBytes(requireBuilt(folder), notBrotli), 0) +
      treeBytes(path.join(root, template)),
  };
}

const mb = (bytes) => `${(bytes / 1e6).toFixed(1)} MB`;

function row(image, base, app) {
  return [image, base, mb(app), `≈ ${mb(BASE_IMAGES[base].bytes + app)}`];
}

export function printTable(rows) {
  const header = ['image', 'base', 'added to the base', 'total'];
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((cells) => cells[column].length)),
  );
  const line = (cells) => `| ${cells.map((cell, column) => cell.padEnd(widths[column])).join(' | ')} |`;
  console.log(
    [line(header), `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`, ...rows.map(line)].join(
      '\n',
    ),
  );
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const rows = [];
  if (process.argv.includes('--before')) {
    rows.push(row('backend (before: whole /app, pruned)', 'node:20-bookworm-slim', backendImageBefore().app));
  }
  const backend = backendImage();
  rows.push(row('backend (deploy/Dockerfile)', 'node:20-bookworm-slim', backend.app));
  const remotes = ['shell', 'forum', 'messaging', 'settings'].map((name) => `frontends/${name}/dist`);
  rows.push(
    row(
      'web (deploy/web.Dockerfile)',
      'nginx:1.28-alpine',
      staticImage(remotes, 'deploy/nginx/web.conf.template').app,
    ),
  );
  rows.push(
    row(
      'admin (deploy/admin.Dockerfile)',
      'nginx:1.28-alpine',
      staticImage(['frontends/admin/dist'], 'deploy/nginx/admin.conf').app,
    ),
  );
  console.log(
    `\nbackend: ${mb(backend.dependencies)} of manifests and node_modules, ${mb(backend.builds)} of builds`,
  );
  printTable(rows);
  for (const [name, { source }] of Object.entries(BASE_IMAGES)) console.log(`${name}: ${source}`);
}

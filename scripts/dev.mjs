// `npm run dev`: the backend in watch mode and every frontend with hot reload.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { nx } from '../harness/nx.mjs';

const require = createRequire(import.meta.url);
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const DEV_PORTS = { shell: 3001, forum: 3101, messaging: 3102, settings: 3103, admin: 3104 };

await nx([
  'run-many',
  '-t',
  'build',
  '--projects=@termpaste/contracts,@termpaste/ui,@termpaste/backend',
  '--output-style=static',
]);

const remoteUrls = Object.fromEntries(
  Object.entries(DEV_PORTS)
    .filter(([name]) => name !== 'shell')
    .map(([name, port]) => [name, `http://localhost:${port}/remoteEntry.js`]),
);
const tsc = (project) =>
  `node ${require.resolve('typescript/bin/tsc')} -w --preserveWatchOutput -p ${project}`;
const rsbuild = join(root, 'node_modules/.bin/rsbuild');

const commands = [
  { name: 'contracts', command: tsc('contracts/tsconfig.build.json') },
  { name: 'ui', command: tsc('frontends/ui/tsconfig.build.json') },
  { name: 'backend:tsc', command: tsc('backend/tsconfig.build.json') },
  {
    name: 'backend',
    command: 'node --watch backend/dist/main.js',
    env: {
      REMOTE_URLS: JSON.stringify(remoteUrls),
      // Pages come from the shell's dev server (its origin, proxied to /api and /ws): allowed by name,
      // so they pass the origin check even when PUBLIC_URL is set (unset, any loopback origin does).
      ALLOWED_ORIGINS: `http://localhost:${DEV_PORTS.shell},http://127.0.0.1:${DEV_PORTS.shell}`,
    },
  },
  ...Object.keys(DEV_PORTS).map((name) => ({
    name,
    command: `node ${rsbuild} dev`,
    cwd: `frontends/${name}`,
  })),
];

const concurrently = join(root, 'node_modules/concurrently/dist/bin/concurrently.js');
const child = spawn(
  process.execPath,
  [
    concurrently,
    '--kill-others-on-fail',
    '--names',
    commands.map((c) => c.name).join(','),
    ...commands.map((c) => {
      const env = Object.entries(c.env ?? {})
        .map(([k, v]) => `${k}='${v}'`)
        .join(' ');
      return `${c.cwd ? `cd ${c.cwd} && ` : ''}${env ? `${env} ` : ''}${c.command}`;
    }),
  ],
  { stdio: 'inherit', cwd: root },
);
console.log(`\nTermpaste dev: open http://localhost:${DEV_PORTS.shell} (API on http://localhost:3000)\n`);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => process.exit(code ?? 0));

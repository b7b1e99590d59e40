// Runs Nx without its background daemon or cloud prompts, so `npm start` and `npm test` leave no process behind.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const nxBin = require.resolve('nx/bin/nx.js');

export function nx(args, { env = {} } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [nxBin, ...args], {
      stdio: 'inherit',
      env: { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NX_TUI: 'false', ...env },
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (code === 0) resolve();
      else reject(new Error(`nx ${args.join(' ')} failed (${signal ?? `exit ${code}`})`));
    });
  });
}

// Runs Nx without its background daemon or cloud prompts, so `npm start` and `npm test` leave no process behind.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const nxBin = require.resolve('nx/bin/nx.js');

/**
 * `output`, when given, receives everything Nx prints (which still goes to this process's stdout and stderr):
 * `npm test` keeps the end of a failed step's output for its closing summary.
 */
export function nx(args, { env = {}, output } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [nxBin, ...args], {
      stdio: output ? ['inherit', 'pipe', 'pipe'] : 'inherit',
      env: { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NX_TUI: 'false', ...env },
    });
    if (output) {
      child.stdout.on('data', (chunk) => (process.stdout.write(chunk), output(chunk)));
      child.stderr.on('data', (chunk) => (process.stderr.write(chunk), output(chunk)));
    }
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (code === 0) resolve();
      else reject(new Error(`nx ${args.join(' ')} failed (${signal ?? `exit ${code}`})`));
    });
  });
}

// Runs Nx without its background daemon or cloud prompts, so `npm start` and `npm test` leave no process behind.
import { createRequire } from 'node:module';
import { run } from './run.mjs';

const require = createRequire(import.meta.url);
const nxBin = require.resolve('nx/bin/nx.js');

/** `output`, when given, also receives everything Nx prints (run.mjs). */
export function nx(args, { env = {}, output } = {}) {
  return run(process.execPath, [nxBin, ...args], {
    env: { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NX_TUI: 'false', ...env },
    output,
    failed: (why) => `nx ${args.join(' ')} failed (${why})`,
  });
}

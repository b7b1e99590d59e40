// Where the checkout is, and the backend's own dependencies (ws, pg, ioredis, smtp-server) wherever npm
// put them: the tools use the versions the app runs with.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const backendRequire = createRequire(join(root, 'backend', 'package.json'));

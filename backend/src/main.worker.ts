import 'reflect-metadata';
import { StartupError } from './common/startup-error.js';
import { startWorker } from './worker.module.js';

// A production queue worker: `npm run worker` (node dist/main.worker.js), with the API's environment.
startWorker().catch((error: unknown) => {
  console.error(error instanceof StartupError ? error.message : error);
  process.exit(1);
});

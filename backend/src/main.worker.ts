import 'reflect-metadata';
import { StartupError } from './common/startup-error.js';
import { startTracing, stopTracing } from './infra/tracing/tracing.js';

// A production queue worker: `npm run worker` (node dist/main.worker.js), with the API's environment.
// Tracing first, as in main.ts; the last spans are sent before the process exits.
startTracing('termpaste-worker')
  .then(() => import('./worker.module.js'))
  .then(({ startWorker }) =>
    startWorker({ exit: (code) => void stopTracing().finally(() => process.exit(code)) }),
  )
  .catch((error: unknown) => {
    console.error(error instanceof StartupError ? error.message : error);
    void stopTracing().finally(() => process.exit(1));
  });

import 'reflect-metadata';
import { StartupError } from './common/startup-error.js';
import { defaultLogFormat } from './config/config.js';
import { startTracing, stopTracing } from './infra/tracing/tracing.js';
import { createRootLogger } from './logging/json-logs.js';

function startupFailed(error: unknown): void {
  const message = error instanceof StartupError ? error.message : undefined;
  const format = process.env.LOG_FORMAT || defaultLogFormat(process.env);
  if (format === 'json') {
    createRootLogger({ logLevel: 'info' }).fatal(
      message === undefined ? { err: error } : {},
      message ?? 'Start-up failed',
    );
  } else {
    console.error(message ?? error);
  }
  void stopTracing().finally(() => process.exit(1));
}

// Tracing (when OTEL_EXPORTER_OTLP_ENDPOINT is set) starts before the app's modules are imported: it
// instruments http, express and pg as they load. The last spans are sent before the process exits.
startTracing('termpaste-api')
  .then(() => import('./bootstrap.js'))
  .then(({ bootstrap }) =>
    bootstrap({ exit: (code) => void stopTracing().finally(() => process.exit(code)) }),
  )
  .catch(startupFailed);

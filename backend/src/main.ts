import 'reflect-metadata';
import { bootstrap } from './bootstrap.js';
import { StartupError } from './common/startup-error.js';
import { defaultLogFormat } from './config/config.js';
import { createRootLogger } from './logging/json-logs.js';

bootstrap().catch((error: unknown) => {
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
  process.exit(1);
});

import 'reflect-metadata';
import { bootstrap } from './bootstrap.js';
import { StartupError } from './common/startup-error.js';

bootstrap().catch((error: unknown) => {
  console.error(error instanceof StartupError ? error.message : error);
  process.exit(1);
});

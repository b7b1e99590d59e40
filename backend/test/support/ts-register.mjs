// `node --import ./ts-register.mjs file.ts`: runs our ESM TypeScript in a plain Node process (the child
// processes of the crash tests, support/app-process.ts) through the same hooks as jest's global setup.
import { register } from 'node:module';

register('./ts-loader.mjs', import.meta.url);

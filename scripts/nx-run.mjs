// `node scripts/nx-run.mjs <nx args>`: Nx without its daemon or cloud prompts (see nx.mjs).
import { nx } from './nx.mjs';

try {
  await nx(process.argv.slice(2));
} catch (error) {
  console.error(error.message);
  process.exit(1);
}

// `node scripts/nx-run.mjs <nx args>`: Nx without its daemon or cloud prompts (see harness/nx.mjs).
import { nx } from '../harness/nx.mjs';

try {
  await nx(process.argv.slice(2));
} catch (error) {
  console.error(error.message);
  process.exit(1);
}

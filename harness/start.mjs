// What `npm start` does: build whatever is missing or stale (Nx cache), then serve everything on one port.
import { nx } from './nx.mjs';

export async function buildAndServe() {
  try {
    await nx(['run-many', '-t', 'build', '--output-style=static']);
  } catch (error) {
    console.error(`\n${error.message}`);
    process.exit(1);
  }
  // The backend runs in this very process, so Ctrl-C reaches it directly and it stops PostgreSQL cleanly.
  await import('../backend/dist/main.js');
}

import { register } from 'node:module';

register('./support/ts-loader.mjs', import.meta.url);

/** One PostgreSQL for the whole run (see support/test-cluster.ts); the teardown stops it. */
export default async function globalSetup() {
  const { startTestCluster } = await import('./support/test-cluster.ts');
  globalThis.termpasteTestCluster = await startTestCluster();
}

export default async function globalTeardown() {
  await globalThis.termpasteTestCluster?.stop();
  globalThis.termpasteTestCluster = undefined;
}

import { startCluster, stopCluster } from './cluster.ts';

/** Starts the cluster before the tests and stops it after them (Playwright's global setup). */
export default async function globalSetup(): Promise<() => Promise<void>> {
  const cluster = await startCluster();
  // The tests read the instances' process ids to kill one of them.
  process.env.DP_CLUSTER = JSON.stringify(cluster);
  return () => stopCluster(cluster);
}

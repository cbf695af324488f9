/**
 * What request metrics cost each request (issue 17, docs/decisions/023): the work of the metrics
 * plugin's `onResponse` hook (one observe on the real app's request histogram, with its label
 * names and buckets, plus Fastify's `reply.elapsedTime`), timed over many calls, against the
 * time one request through the full stack takes (autocannon against bench/servers/full-stack.ts,
 * one process). Prints both and the share; the machine may be shared, so the figures are noisy.
 */
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import type { Histogram } from 'prom-client';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { openDatabase } from '../apps/server/src/db/client.ts';
// The plugin that declares `app.metrics` (type-checked against the server's declarations, which
// name the plugin only where its module is imported).
import type { Metrics } from '../apps/server/src/plugins/metrics.ts';

const CALLS = 1_000_000;
const ROUTES = [
  '/api/users/current',
  '/api/users/userIdTaken/:email',
  '/api/health',
  '(unmatched)',
];

const app = await buildApp({
  config: loadConfig({ APP_ENV: 'test', LOG_LEVEL: 'warn' }),
  database: await openDatabase({ dataDir: null }),
  secret: randomBytes(32),
  webRoot: null,
  backgroundIntervalMs: 0,
});
await app.ready();
const metrics: Metrics = app.metrics;
const histogram = metrics.registry.getSingleMetric('http_request_duration_seconds') as
  Histogram<'method' | 'route' | 'status_code'> | undefined;
if (!histogram) throw new Error('the request histogram is not registered');

let best = Infinity;
for (let round = 0; round < 5; round++) {
  const started = process.hrtime.bigint();
  for (let i = 0; i < CALLS; i++) {
    // As the hook does: the elapsed time from Fastify's own clock, then one observe.
    const elapsedMs = Number(process.hrtime.bigint() - started) / 1e6;
    histogram.observe(
      { method: 'GET', route: ROUTES[i & 3]!, status_code: 200 },
      (elapsedMs % 50) / 1000,
    );
  }
  best = Math.min(best, Number(process.hrtime.bigint() - started) / CALLS);
}
await app.close();

const server = fork(fileURLToPath(new URL('./servers/full-stack.ts', import.meta.url)), {
  stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
});
const port = await new Promise<number>((resolve) =>
  server.once('message', (message: { port: number }) => resolve(message.port)),
);
const url = `http://127.0.0.1:${port}/api/bench/ping`;
await autocannon({ url, connections: 20, duration: 2 });
const result = await autocannon({ url, connections: 20, duration: 5 });
server.kill();
const requestNs = 1e9 / result.requests.average;
console.log(`request metrics hook: ${best.toFixed(0)} ns per request (best of 5 × ${CALLS} calls)`);
console.log(
  `full stack, one process: ${Math.round(result.requests.average)} req/s, ${(requestNs / 1000).toFixed(1)} µs per request`,
);
console.log(`share of a request: ${((100 * best) / requestNs).toFixed(2)} %`);

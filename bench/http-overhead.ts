/**
 * How much the full plugin stack costs: requests per second of a trivial route through every
 * DealerPass plugin versus Fastify's bare hello world, same machine, same run, same autocannon
 * flags. Each server runs in its own process; rounds alternate to spread out machine noise, and
 * each side's figure is its median round, so one round that another process disturbed (seen on
 * this shared machine: 43,000 then 11,000 requests per second) decides nothing.
 * Target (issue 2): ratio ≥ 0.8.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const FLAGS = { connections: 20, pipelining: 1, duration: Number(process.env.BENCH_SECONDS ?? 5) };
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const TARGET = 0.8;

async function start(script: string): Promise<{ child: ChildProcess; port: number }> {
  const child = fork(fileURLToPath(new URL(script, import.meta.url)), {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (message: { port: number }) => resolve(message.port));
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
  return { child, port };
}

async function measure(url: string): Promise<number> {
  const result = await autocannon({ url, ...FLAGS });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return result.requests.average;
}

const bare = await start('./servers/bare.ts');
const full = await start('./servers/full-stack.ts');
try {
  const bareUrl = `http://127.0.0.1:${bare.port}/`;
  const fullUrl = `http://127.0.0.1:${full.port}/api/bench/ping`;
  await measure(bareUrl); // warm-up both, results discarded
  await measure(fullUrl);
  const bareRates: number[] = [];
  const fullRates: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    bareRates.push(await measure(bareUrl));
    fullRates.push(await measure(fullUrl));
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;
  const ratio = median(fullRates) / median(bareRates);
  console.log(`autocannon flags: ${JSON.stringify(FLAGS)}, median of ${ROUNDS} alternating rounds`);
  console.log(
    `bare Fastify hello world: ${Math.round(median(bareRates))} req/s (${bareRates.map(Math.round).join(', ')})`,
  );
  console.log(
    `DealerPass full stack:    ${Math.round(median(fullRates))} req/s (${fullRates.map(Math.round).join(', ')})`,
  );
  console.log(
    `ratio full/bare: ${ratio.toFixed(3)} (target ≥ ${TARGET}) ${ratio >= TARGET ? 'PASS' : 'FAIL'}`,
  );
  process.exitCode = ratio >= TARGET ? 0 : 1;
} finally {
  bare.child.kill();
  full.child.kill();
}

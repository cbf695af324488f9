/**
 * What the server stack costs per request, against Fastify's bare hello world, in one run with
 * the same autocannon flags for every server (each in its own process):
 * - the full stack on a trivial public route (issue 2, target ratio ≥ 0.8);
 * - `GET /api/users/current` with a real session (issue 16 item 3): session lookup, the account's
 *   row, the response schema, every hook and header; target ≥ 0.15 on PostgreSQL (when
 *   BENCH_DATABASE_URL is set: a scratch database, emptied) and ≥ 0.10 on PGlite.
 * Every request comes from another client address (X-Forwarded-For, the servers trust the proxy),
 * so the rate limits stay on and are measured, but no one client reaches its limit. Rounds
 * alternate to spread machine noise, and each figure is its median round.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const FLAGS = { connections: 20, pipelining: 1, duration: Number(process.env.BENCH_SECONDS ?? 5) };
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

interface Server {
  child: ChildProcess;
  port: number;
  rawIds: string[];
}

async function start(script: string, env: Record<string, string> = {}): Promise<Server> {
  const child = fork(fileURLToPath(new URL(script, import.meta.url)), {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: { ...process.env, ...env },
  });
  const message = await new Promise<{ port: number; rawIds?: string[] }>((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
  return { child, port: message.port, rawIds: message.rawIds ?? [] };
}

let client = 0;
/** A new client address per request: 10.x.y.z, 16 million before one repeats. */
function nextAddress(): string {
  client = (client + 1) % 0xffffff;
  return `10.${client >> 16}.${(client >> 8) & 255}.${client & 255}`;
}

async function measure(url: string, cookie?: string): Promise<number> {
  const result = await autocannon({
    url,
    ...FLAGS,
    requests: [
      {
        setupRequest: (request) => ({
          ...request,
          headers: {
            ...request.headers,
            'x-forwarded-for': nextAddress(),
            ...(cookie ? { cookie } : {}),
          },
        }),
      },
    ],
  });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return result.requests.average;
}

interface Target {
  label: string;
  url: string;
  cookie?: string;
  /** Ratio to bare Fastify this must reach. */
  target: number;
  rates: number[];
}

const servers: Server[] = [];
try {
  const bare = await start('./servers/bare.ts');
  servers.push(bare);
  const full = await start('./servers/full-stack.ts');
  servers.push(full);
  const targets: Target[] = [
    {
      label: 'full stack, public ping',
      url: `http://127.0.0.1:${full.port}/api/bench/ping`,
      target: 0.8,
      rates: [],
    },
  ];
  const postgresUrl = process.env.BENCH_DATABASE_URL;
  if (postgresUrl) {
    const onPostgres = await start('./servers/signed-in.ts', { BENCH_DATABASE_URL: postgresUrl });
    servers.push(onPostgres);
    targets.push({
      label: 'GET /api/users/current, PostgreSQL',
      url: `http://127.0.0.1:${onPostgres.port}/api/users/current`,
      cookie: `__Host-dp-session=${onPostgres.rawIds[0]}`,
      target: 0.15,
      rates: [],
    });
  }
  const onPglite = await start('./servers/signed-in.ts', { BENCH_DATABASE_URL: '' });
  servers.push(onPglite);
  targets.push({
    label: 'GET /api/users/current, PGlite',
    url: `http://127.0.0.1:${onPglite.port}/api/users/current`,
    cookie: `__Host-dp-session=${onPglite.rawIds[0]}`,
    target: 0.1,
    rates: [],
  });

  const bareUrl = `http://127.0.0.1:${bare.port}/`;
  // Warm-up of every server (JIT, pools, caches), results discarded.
  await measure(bareUrl);
  for (const target of targets) await measure(target.url, target.cookie);
  const bareRates: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    bareRates.push(await measure(bareUrl));
    for (const target of targets) target.rates.push(await measure(target.url, target.cookie));
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;
  const rounds = (values: number[]) => values.map(Math.round).join(', ');
  console.log(
    `autocannon flags: ${JSON.stringify(FLAGS)}, a new X-Forwarded-For per request, median of ${ROUNDS} alternating rounds`,
  );
  console.log(
    `bare Fastify hello world: ${Math.round(median(bareRates))} req/s (${rounds(bareRates)})`,
  );
  let failed = false;
  for (const target of targets) {
    const ratio = median(target.rates) / median(bareRates);
    const pass = ratio >= target.target;
    if (!pass) failed = true;
    console.log(
      `${target.label}: ${Math.round(median(target.rates))} req/s (${rounds(target.rates)}); ` +
        `ratio ${ratio.toFixed(3)} (target ≥ ${target.target}) ${pass ? 'PASS' : 'FAIL'}`,
    );
  }
  if (!postgresUrl)
    console.log('PostgreSQL (target ≥ 0.15): skipped, BENCH_DATABASE_URL is not set');
  process.exitCode = failed ? 1 : 0;
} finally {
  // Each server closes and (on PostgreSQL) drops its scratch database before it exits.
  await Promise.all(
    servers.map(
      (server) =>
        new Promise((resolve) => {
          server.child.once('exit', resolve);
          server.child.kill();
        }),
    ),
  );
}

/**
 * Signed-in load (issue 16 item 4): 500 concurrent clients, each signed in with a session of its
 * own, reading the account pages for 60 s on PostgreSQL, against the full server in its own
 * process (bench/servers/signed-in.ts, a scratch database made for the run and dropped after).
 * A client's visit is what the web app asks for as it opens the account pages: the account, the
 * session's sign-in method, the account again (Billing Details), the year's payment history.
 * Each request carries another client address (X-Forwarded-For, the server trusts the proxy), so
 * the rate limits stay on without one address taking every request.
 * Target: 0 errors (none refused, failed or timed out), p99 ≤ 250 ms. Prints throughput, p50, p99.
 *
 * BENCH_DATABASE_URL (required): a PostgreSQL server's URL, e.g. postgres://postgres@127.0.0.1/postgres.
 * BENCH_CLIENTS (500), BENCH_SECONDS (60).
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 500);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const P99_TARGET_MS = 250;
const databaseUrl = process.env.BENCH_DATABASE_URL;
if (!databaseUrl) {
  console.error('BENCH_DATABASE_URL is required (a PostgreSQL server; a scratch database is made)');
  process.exit(2);
}

const child = fork(fileURLToPath(new URL('./servers/signed-in.ts', import.meta.url)), {
  stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  env: { ...process.env, BENCH_DATABASE_URL: databaseUrl, BENCH_SESSIONS: String(CLIENTS) },
});
const { port, rawIds } = await new Promise<{ port: number; rawIds: string[] }>(
  (resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (code) => reject(new Error(`the server exited with ${code}`)));
  },
);

let address = 0;
let session = 0;
interface Visit {
  cookie?: string;
}
/** Every request: the visit's session (a new visit takes the next one) and a new client address. */
function signedIn(path: string) {
  return {
    method: 'GET' as const,
    path,
    setupRequest: (request: autocannon.Request, context: Visit) => {
      context.cookie ??= `__Host-dp-session=${rawIds[session++ % rawIds.length]}`;
      address = (address + 1) % 0xffffff;
      return {
        ...request,
        headers: {
          ...request.headers,
          cookie: context.cookie,
          'x-forwarded-for': `10.${address >> 16}.${(address >> 8) & 255}.${address & 255}`,
        },
      };
    },
  };
}

const year = new Date().getUTCFullYear();
try {
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: CLIENTS,
    duration: SECONDS,
    requests: [
      signedIn('/api/users/current'),
      signedIn('/api/auth/session'),
      signedIn('/api/users/current'),
      signedIn(`/api/users/paymentHistory?year=${year}`),
    ],
  });
  const failures = result.errors + result.timeouts + result.non2xx;
  const ok = failures === 0 && result.latency.p99 <= P99_TARGET_MS;
  console.log(
    `${CLIENTS} signed-in clients (${rawIds.length} sessions), ${SECONDS} s on PostgreSQL, account-page reads`,
  );
  console.log(
    `throughput: ${Math.round(result.requests.average)} requests/s (${result.requests.total} in all)`,
  );
  console.log(
    `latency: p50 ${result.latency.p50} ms, p90 ${result.latency.p90} ms, p99 ${result.latency.p99} ms, max ${result.latency.max} ms`,
  );
  console.log(
    `errors: ${failures} (connection errors ${result.errors}, timeouts ${result.timeouts}, non-2xx ${result.non2xx})`,
  );
  console.log(
    `target: 0 errors and p99 ≤ ${P99_TARGET_MS} ms: ${ok ? 'PASS' : 'FAIL'} (the machine's other load shows in these figures)`,
  );
  process.exitCode = ok ? 0 : 1;
} finally {
  await new Promise((resolve) => {
    child.once('exit', resolve);
    child.kill();
  });
}

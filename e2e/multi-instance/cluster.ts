import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { writeTestAccountsFile } from '../fixtures/test-accounts-file.ts';

/**
 * The multi-instance set-up of R13 on this machine (docs/decisions/022): a fresh PostgreSQL
 * database, three built DealerPass instances as separate processes sharing it and one Redis, and
 * Debian's HAProxy in front of them with deploy/haproxy.cfg, the same file compose.yaml uses.
 */

export const REPO = fileURLToPath(new URL('../..', import.meta.url));
export const LB_PORT = Number(process.env.E2E_PORT ?? 3120);
export const INSTANCE_PORTS = [LB_PORT + 1, LB_PORT + 2, LB_PORT + 3];
export const PUBLIC_URL = `http://localhost:${LB_PORT}`;
const ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const HAPROXY = process.env.HAPROXY_PATH ?? '/usr/sbin/haproxy';

export interface Cluster {
  databaseName: string;
  redisPrefix: string;
  logDir: string;
  /** Process ids of the three instances, by port. */
  instances: Record<number, number>;
  haproxy: number;
}

function logFile(dir: string, name: string) {
  return createWriteStream(join(dir, `${name}.log`));
}

async function waitFor(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    try {
      const response = await fetch(url);
      if (response.status === 200) return;
      last = `HTTP ${response.status}`;
    } catch (error) {
      last = (error as Error).message;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${url} did not answer 200 within ${timeoutMs} ms (last: ${last})`);
}

function track(child: ChildProcess, name: string, log: NodeJS.WritableStream): number {
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  if (child.pid === undefined) throw new Error(`${name} did not start`);
  return child.pid;
}

export async function startCluster(): Promise<Cluster> {
  if (!existsSync(HAPROXY))
    throw new Error(`HAProxy is not installed at ${HAPROXY} (apt-get install haproxy)`);
  if (!existsSync(join(REPO, 'apps/web/dist/index.html')))
    throw new Error('the web app is not built (npm run build)');
  const databaseName = `dp_multi_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`create database ${databaseName}`);
  await admin.end();
  const databaseUrl = new URL(ADMIN_URL);
  databaseUrl.pathname = `/${databaseName}`;

  const logDir = join(REPO, 'test-results', 'multi-instance');
  mkdirSync(logDir, { recursive: true });
  const redisPrefix = `dp-multi-${randomBytes(5).toString('hex')}:`;
  const shared = {
    PATH: process.env.PATH ?? '',
    APP_ENV: 'test',
    HOST: '127.0.0.1',
    // Every instance presents the balancer's origin: one issuer, one cookie origin (R13).
    PUBLIC_URL,
    // HAProxy reaches the instances from this machine's loopback (docs/decisions/030).
    TRUST_PROXY: '127.0.0.1',
    DATABASE_URL: databaseUrl.toString(),
    REDIS_URL,
    REDIS_KEY_PREFIX: redisPrefix,
    SECRET_KEY: randomBytes(32).toString('base64url'),
    CAPTCHA_DIFFICULTY: '5000',
    LOG_LEVEL: 'info',
  };
  // The browser tests' own accounts (docs/decisions/065), for the seeding instance.
  const testAccountsFile = writeTestAccountsFile(logDir);
  const instances: Record<number, number> = {};
  // All three at once on the empty database: they migrate one after the other under the lock.
  for (const port of INSTANCE_PORTS) {
    // One instance seeds the test accounts (an account past its trial, for cancel → REACTIVATE).
    const seeding = port === INSTANCE_PORTS[0];
    const child = spawn(process.execPath, ['apps/server/src/main.ts', '--no-env-file'], {
      cwd: REPO,
      env: {
        ...shared,
        PORT: String(port),
        SEED_DEMO_DATA: String(seeding),
        ...(seeding ? { TEST_ACCOUNTS_FILE: testAccountsFile } : {}),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    instances[port] = track(child, `instance ${port}`, logFile(logDir, `instance-${port}`));
    child.unref();
  }
  const haproxy = spawn(HAPROXY, ['-db', '-f', join(REPO, 'deploy/haproxy.cfg')], {
    cwd: REPO,
    env: {
      PATH: process.env.PATH ?? '',
      DP_LISTEN: `127.0.0.1:${LB_PORT}`,
      DP_APP1: `127.0.0.1:${INSTANCE_PORTS[0]}`,
      DP_APP2: `127.0.0.1:${INSTANCE_PORTS[1]}`,
      DP_APP3: `127.0.0.1:${INSTANCE_PORTS[2]}`,
      DP_SHOW_INSTANCE: '1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const haproxyPid = track(haproxy, 'haproxy', logFile(logDir, 'haproxy'));
  haproxy.unref();
  const cluster = { databaseName, redisPrefix, logDir, instances, haproxy: haproxyPid };
  try {
    for (const port of INSTANCE_PORTS) {
      await waitFor(`http://127.0.0.1:${port}/api/health/ready`, 60_000);
    }
    await waitFor(`${PUBLIC_URL}/api/health/ready`, 10_000);
  } catch (error) {
    await stopCluster(cluster);
    throw error;
  }
  return cluster;
}

function stop(pid: number, signal: NodeJS.Signals = 'SIGTERM'): void {
  try {
    process.kill(pid, signal);
  } catch {
    // already gone (the instance the test killed)
  }
}

export async function stopCluster(cluster: Cluster): Promise<void> {
  for (const pid of Object.values(cluster.instances)) stop(pid);
  stop(cluster.haproxy);
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`drop database if exists ${cluster.databaseName} with (force)`);
  await admin.end();
  const { Redis } = await import('ioredis');
  const redis = new Redis(REDIS_URL);
  const keys = await redis.keys(`${cluster.redisPrefix}*`);
  if (keys.length > 0) await redis.del(...keys);
  await redis.quit();
}

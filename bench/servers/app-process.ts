import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface RunningApp {
  /** http://localhost:<port>, the app's public URL. */
  url: string;
  stop(): Promise<void>;
}

/** A port nobody listens on now (BENCH_PORT if set). */
async function freePort(): Promise<number> {
  if (process.env.BENCH_PORT) return Number(process.env.BENCH_PORT);
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/**
 * DealerPass as `npm start` runs it (apps/server/src/main.ts, the built web app, embedded
 * defaults and the demo accounts) on an embedded database in a temporary folder, removed by stop().
 */
export async function startApp(env: Record<string, string> = {}): Promise<RunningApp> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'dealerpass-bench-'));
  const child: ChildProcess = spawn(
    process.execPath,
    [fileURLToPath(new URL('../../apps/server/src/main.ts', import.meta.url))],
    {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: {
        ...process.env,
        APP_ENV: 'demo',
        PORT: String(port),
        HOST: 'localhost',
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
        DATABASE_URL: '',
        SMTP_URL: '',
        ...env,
      },
    },
  );
  const url = `http://localhost:${port}`;
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) => reject(new Error(`the app exited with ${code}`))),
  );
  exited.catch(() => undefined); // a later crash is the caller's to notice, not an unhandled rejection
  const deadline = Date.now() + 120_000;
  for (;;) {
    const healthy = await Promise.race([
      fetch(`${url}/api/health`).then(
        (response) => response.ok,
        () => false,
      ),
      exited,
    ]);
    if (healthy) break;
    if (Date.now() > deadline) throw new Error('the app did not start within 2 minutes');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return {
    url,
    async stop() {
      child.removeAllListeners('exit');
      const gone = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await gone;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

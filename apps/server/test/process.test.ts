import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const MAIN = fileURLToPath(new URL('../src/main.ts', import.meta.url));

/** Starts the server; `cwd` given, it reads the .env there, otherwise it ignores any .env. */
function run(env: Record<string, string>, cwd?: string) {
  const child = spawn(process.execPath, cwd ? [MAIN] : [MAIN, '--no-env-file'], {
    env: { PATH: process.env.PATH ?? '', ...env },
    ...(cwd ? { cwd } : {}),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, output: () => output };
}

describe('the server process', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'dealerpass-process-'));
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it('refuses to start with a wrong setting and names it', async () => {
    const server = run({ PORT: 'eighty', DATA_DIR: dataDir });
    expect(await server.exited).toBe(78);
    expect(server.output()).toMatch(/PORT \(got "eighty"\)/);
  });

  it('reads .env from the directory it starts in; the environment wins over the file', async () => {
    await writeFile(join(dataDir, '.env'), 'PORT=eighty\nDATA_DIR=./from-env-file\n');
    try {
      const fromFile = run({}, dataDir);
      expect(await fromFile.exited).toBe(78);
      expect(fromFile.output()).toMatch(/PORT \(got "eighty"\)/);
      const fromEnvironment = run({ PORT: 'ninety' }, dataDir);
      expect(await fromEnvironment.exited).toBe(78);
      expect(fromEnvironment.output()).toMatch(/PORT \(got "ninety"\)/);
      const ignoring = spawn(process.execPath, [MAIN, '--no-env-file'], {
        cwd: dataDir,
        env: { PATH: process.env.PATH ?? '', APP_ENV: 'nowhere' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      ignoring.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      expect(await new Promise((resolve) => ignoring.on('exit', resolve))).toBe(78);
      expect(output).not.toMatch(/PORT/); // the file's PORT=eighty was not read
      expect(output).toMatch(/APP_ENV/);
    } finally {
      await rm(join(dataDir, '.env'));
    }
  });

  it('starts on the embedded defaults, creates its secret, answers, and stops cleanly on SIGTERM', async () => {
    const server = run({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, APP_ENV: 'test' });
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setInterval(() => {
        const match = /"Server listening at http:\/\/127\.0\.0\.1:(\d+)"/.exec(server.output());
        if (match) {
          clearInterval(timer);
          resolve(Number(match[1]));
        }
      }, 50);
      void server.exited.then((code) => {
        clearInterval(timer);
        reject(new Error(`exited with ${code}: ${server.output()}`));
      });
    });
    const health = await fetch(`http://127.0.0.1:${port}/api/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ database: { engine: 'pglite', status: 'up' } });

    const secret = await stat(join(dataDir, 'secret.key'));
    expect(secret.mode & 0o777).toBe(0o600);
    expect((await readFile(join(dataDir, 'secret.key'), 'utf8')).trim()).toMatch(
      /^[A-Za-z0-9+/]{43}=$/,
    );

    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(server.output()).toContain('shutting down');
  }, 60_000);
});

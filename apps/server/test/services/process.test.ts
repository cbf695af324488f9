import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_ACCOUNTS_CONTENT } from '../factories/test-accounts-fixtures.ts';

const MAIN = fileURLToPath(new URL('../../src/main.ts', import.meta.url));

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

/** Resolves with the port once the server listens; rejects with its output if it exits first. */
function listening(server: ReturnType<typeof run>): Promise<number> {
  return new Promise<number>((resolve, reject) => {
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
    const port = await listening(server);
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

/**
 * R17 (docs/decisions/030): a production server refuses to start on a database that holds the
 * demo configuration's accounts or staff members (public passwords, public authenticator
 * secrets), unless SEED_DEMO_DATA says so; then it warns at every start.
 */
describe('a production server and the demo data (R17)', () => {
  let dataDir: string;
  const production = (extra: Record<string, string> = {}) => ({
    APP_ENV: 'production',
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    PUBLIC_URL: 'https://dealerpass.example',
    SECRET_KEY: 'a'.repeat(44),
    ALLOW_SANDBOX_IN_PRODUCTION: 'true',
    ...extra,
  });
  const WARNING =
    /"level":40,[^\n]*"msg":"SEED_DEMO_DATA is set: this production server runs with the demo/;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'dealerpass-demo-production-'));
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it('starts on an empty database, and says nothing of demo data', async () => {
    const server = run(production());
    await listening(server);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(server.output()).not.toMatch(/demo/i);
  }, 60_000);

  it('refuses a database the demo configuration seeded, naming what it found and the way out', async () => {
    // The same data folder, once started by the demo configuration (accounts and staff seeded).
    const demo = run({
      APP_ENV: 'demo',
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SECRET_KEY: production().SECRET_KEY,
    });
    await listening(demo);
    demo.child.kill('SIGTERM');
    expect(await demo.exited).toBe(0);

    const refused = run(production());
    expect(await refused.exited).toBe(78);
    const output = refused.output();
    expect(output).toContain('Refusing to start: this production database holds demo data (R17).');
    expect(output).toMatch(
      /demo accounts \(public password\): active@example\.com, [^\n]*migrated\.dealer/,
    );
    expect(output).toMatch(
      /demo staff members \(public password and authenticator secret\): admin\.staff@example\.com, billing\.staff@example\.com, support\.staff@example\.com/,
    );
    expect(output).toContain('Delete them from the database, or set SEED_DEMO_DATA=true');
    expect(output).not.toMatch(/Server listening/);

    // SEED_DEMO_DATA=false is no permission either.
    const refusedAgain = run(production({ SEED_DEMO_DATA: 'false' }));
    expect(await refusedAgain.exited).toBe(78);
  }, 90_000);

  it('starts with SEED_DEMO_DATA=true, and warns at every start', async () => {
    for (let start = 0; start < 2; start++) {
      const server = run(production({ SEED_DEMO_DATA: 'true' }));
      const port = await listening(server);
      expect((await fetch(`http://127.0.0.1:${port}/api/health/ready`)).status).toBe(200);
      await expect.poll(() => server.output()).toMatch(WARNING);
      expect(server.output()).toMatch(/"demoStaff":\["admin\.staff@example\.com"/);
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
    }
  }, 90_000);
});

/**
 * The tests' own accounts (docs/decisions/065): a test server seeds them from TEST_ACCOUNTS_FILE
 * only when each sign-in and e-mail has the test-only form, and a production server later finds
 * them by that form (R17) and names them.
 */
describe('the test accounts file, from a test server to a production one', () => {
  let dataDir: string;
  let file: string;
  const testServer = () => ({
    APP_ENV: 'test',
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    SECRET_KEY: 'b'.repeat(44),
    SEED_DEMO_DATA: 'true',
    TEST_ACCOUNTS_FILE: file,
  });

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'dealerpass-test-accounts-'));
    file = join(dataDir, 'test-accounts.json');
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it('refuses to start on an entry outside the form, naming it; and the setting outside APP_ENV=test', async () => {
    await writeFile(
      file,
      JSON.stringify({
        ...TEST_ACCOUNTS_CONTENT,
        staff: [{ ...TEST_ACCOUNTS_CONTENT.staff[0], email: 'ops@example.com' }],
      }),
    );
    const refused = run(testServer());
    expect(await refused.exited).toBe(78);
    expect(refused.output()).toContain(`TEST_ACCOUNTS_FILE (${file}): not a test accounts file`);
    expect(refused.output()).toContain(
      'staff.0.email: must be a test-only e-mail of the form e2e-…@example.com (got "ops@example.com")',
    );
    expect(refused.output()).not.toMatch(/Server listening/);

    const demo = run({ ...testServer(), APP_ENV: 'demo' });
    expect(await demo.exited).toBe(78);
    expect(demo.output()).toMatch(
      /TEST_ACCOUNTS_FILE \(got "[^"]+"\): is for the tests' servers only/,
    );
  }, 60_000);

  it('seeds the file with APP_ENV=test; a production server then refuses, naming them', async () => {
    await writeFile(file, JSON.stringify(TEST_ACCOUNTS_CONTENT));
    const seeding = run(testServer());
    await listening(seeding);
    seeding.child.kill('SIGTERM');
    expect(await seeding.exited).toBe(0);

    const refused = run({
      APP_ENV: 'production',
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      PUBLIC_URL: 'https://dealerpass.example',
      SECRET_KEY: testServer().SECRET_KEY,
      ALLOW_SANDBOX_IN_PRODUCTION: 'true',
    });
    expect(await refused.exited).toBe(78);
    const output = refused.output();
    expect(output).toContain('Refusing to start: this production database holds demo data (R17).');
    const accounts = /demo accounts \(public password\): ([^\n]*)/.exec(output)?.[1]?.split(', ');
    for (const account of TEST_ACCOUNTS_CONTENT.accounts)
      expect(accounts).toContain(account.signIn);
    const staff = /demo staff members \([^)]*\): ([^\n]*)/.exec(output)?.[1]?.split(', ');
    for (const member of TEST_ACCOUNTS_CONTENT.staff) expect(staff).toContain(member.email);
  }, 120_000);
});

/**
 * Issue 27, item 10: a database first started with one secret refuses another at start, in one
 * line naming the setting, instead of the cipher's stack trace when the provider loads its keys.
 */
describe('a data folder started with another secret', () => {
  let dataDir: string;
  const start = (extra: Record<string, string>) =>
    run({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, APP_ENV: 'test', ...extra });
  const first = Buffer.alloc(32, 1).toString('base64');
  const other = Buffer.alloc(32, 2).toString('base64');

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'dealerpass-secret-'));
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it('exits 78 naming SECRET_KEY (or the data folder’s secret.key) and the way out, and starts again with the first', async () => {
    const original = start({ SECRET_KEY: first });
    await listening(original);
    original.child.kill('SIGTERM');
    expect(await original.exited).toBe(0);

    const wrong = start({ SECRET_KEY: other });
    expect(await wrong.exited).toBe(78);
    const lines = wrong
      .output()
      .split('\n')
      .filter((line) => line.trim() && !line.startsWith('oidc-provider WARNING'));
    expect(lines).toEqual([
      `Refusing to start: SECRET_KEY does not match the one the data folder ${dataDir} was first started with (its sealed data cannot be opened). Start with the original SECRET_KEY (or the original ${dataDir}/secret.key), or with an empty database. See README, "Running in production".`,
    ]);

    // Without SECRET_KEY the server makes DATA_DIR/secret.key, which is not the first secret either.
    const generated = start({});
    expect(await generated.exited).toBe(78);
    expect(generated.output()).toContain(
      `Refusing to start: the secret in ${dataDir}/secret.key (no SECRET_KEY set) does not match`,
    );
    expect(generated.output()).not.toMatch(/Decipheriv|at open/);

    const again = start({ SECRET_KEY: first });
    await listening(again);
    again.child.kill('SIGTERM');
    expect(await again.exited).toBe(0);
  }, 120_000);
});

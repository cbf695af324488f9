import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * `npm test` (docs/decisions/033): lint, types, unit tests, the web build and the API tests run
 * side by side, then the browser tests once the build is there. Each stage's output is kept in
 * test-stages/<name>.log and printed whole when the stage ends, so parallel output never
 * interleaves; any failed stage fails the run. The stages' times are printed at the end and
 * written to test-stages/times.txt (.ci/run adds them to its own).
 *
 * The API stage runs the whole suite on PostgreSQL when TEST_DATABASE_URL is set, plus the
 * embedded database's smoke set on PGlite; without it the whole suite runs on PGlite.
 * `node tooling/test-all.ts api lint` runs only the named stages.
 */

interface Stage {
  name: string;
  command: string[];
  env?: Record<string, string>;
  /** Stages that must have passed before this one starts. */
  after?: string[];
}

const serverProjects = ['--project', 'server', '--project', 'server-isolated'];
const api = process.env.TEST_DATABASE_URL
  ? ['vitest', 'run', ...serverProjects, '--project', 'server-pglite']
  : ['vitest', 'run', ...serverProjects];

const STAGES: Stage[] = [
  { name: 'api', command: ['npx', ...api] },
  { name: 'lint', command: ['npm', 'run', '--silent', 'lint'] },
  { name: 'typecheck', command: ['npm', 'run', '--silent', 'typecheck'] },
  // One worker: the API stage beside it has the machine's other processes. The lint rules'
  // proofs (tooling/eslint-rules.test.ts) lint their snippets without writing them, and the
  // import-cycle proofs write theirs only into tooling/lint-cycle-fixture/, which lint, the cycle
  // check, tsc and Prettier leave out, so this stage runs beside lint and types from the start.
  {
    name: 'unit',
    command: ['npm', 'run', '--silent', 'test:unit'],
    env: { VITEST_MAX_WORKERS: '1' },
  },
  { name: 'build', command: ['npm', 'run', '--silent', 'build'] },
  {
    name: 'e2e',
    command: ['npx', 'playwright', 'test', '-c', 'e2e/playwright.config.ts'],
    // Started once every other stage has passed, the API tests included: beside the API suite's
    // three workers (its fuzz sweep and its own headless mail checks) the browser tests' axe
    // runs took over a minute a page and ran out of their limits (docs/decisions/059).
    after: ['build', 'lint', 'typecheck', 'unit', 'api'],
  },
];

const LOGS = join(import.meta.dirname, '..', 'test-stages');

const wanted = process.argv.slice(2);
const unknown = wanted.filter((name) => !STAGES.some((stage) => stage.name === name));
if (unknown.length > 0) {
  console.error(
    `unknown stage: ${unknown.join(', ')} (stages: ${STAGES.map((s) => s.name).join(', ')})`,
  );
  process.exit(2);
}
const stages = wanted.length ? STAGES.filter((stage) => wanted.includes(stage.name)) : STAGES;

mkdirSync(LOGS, { recursive: true });
const started = Date.now();
const results = new Map<string, { ok: boolean; ms: number; skipped?: boolean }>();
const running = new Map<string, Promise<boolean>>();

function run(stage: Stage): Promise<boolean> {
  const log = join(LOGS, `${stage.name}.log`);
  const out = createWriteStream(log);
  const begin = Date.now();
  say(`▶ ${stage.name}: ${stage.command.join(' ')}`);
  const [file, ...args] = stage.command as [string, ...string[]];
  const child = spawn(file, args, {
    env: { ...process.env, FORCE_COLOR: '0', ...stage.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.pipe(out, { end: false });
  child.stderr.pipe(out, { end: false });
  return new Promise((resolve) => {
    child.on('close', (code, signal) => {
      out.end(() => {
        const ms = Date.now() - begin;
        const ok = code === 0;
        results.set(stage.name, { ok, ms });
        const status = ok ? 'passed' : `FAILED (${signal ?? `exit ${code}`})`;
        say(`\n━━━━ ${stage.name}: ${status} in ${duration(ms)} ━━━━`);
        say(readFileSync(log, 'utf8').trimEnd());
        say(`━━━━ end of ${stage.name} ━━━━\n`);
        resolve(ok);
      });
    });
  });
}

async function start(stage: Stage): Promise<boolean> {
  const before = (stage.after ?? []).filter((name) => running.has(name));
  const passed = await Promise.all(before.map((name) => running.get(name)!));
  if (passed.includes(false)) {
    say(`■ ${stage.name}: not run (${before.join(', ')} did not all pass)`);
    results.set(stage.name, { ok: false, ms: 0, skipped: true });
    return false;
  }
  return run(stage);
}

for (const stage of stages) running.set(stage.name, start(stage));
await Promise.all(running.values());

const lines = [
  ...stages.map((stage) => {
    const result = results.get(stage.name)!;
    const status = result.skipped ? 'not run' : result.ok ? 'passed' : 'FAILED';
    return `${stage.name.padEnd(10)} ${duration(result.ms).padStart(7)}  ${status}`;
  }),
  `${'npm test'.padEnd(10)} ${duration(Date.now() - started).padStart(7)}  (wall clock; stages overlap)`,
];
writeFileSync(join(LOGS, 'times.txt'), `${lines.join('\n')}\n`);
say(`Stage times:\n${lines.join('\n')}`);
process.exit([...results.values()].every((result) => result.ok) ? 0 : 1);

function duration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)}m${String(seconds % 60).padStart(2, '0')}s`;
}

/** The run's own report goes to standard output; the stages' errors are in their logs. */
function say(text: string): void {
  process.stdout.write(`${text}\n`);
}

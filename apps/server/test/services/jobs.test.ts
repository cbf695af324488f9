import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobRuns } from '../../src/db/schema.ts';
import {
  createJobScheduler,
  type JobReporter,
  type JobScheduler,
} from '../../src/services/jobs/job-scheduler.ts';
import { JOB_LEASE_MS } from '../../src/services/jobs/job-slots.ts';
import { buildTestApp, type TestApp } from '../support/helper.ts';

/** One sample's value from the Prometheus text, by its name and labels as written there. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

const quiet: JobReporter = { jobRegistered: () => {}, jobRun: () => {} };

/** Issue 26 item 6, docs/decisions/046: the jobs plugin. */
describe('background jobs', () => {
  let t: TestApp;
  let failNext = false;
  let probeRuns = 0;
  beforeAll(async () => {
    t = await buildTestApp({
      routes: (app) =>
        app.jobs.register({
          name: 'test-probe',
          schedule: '0 6 * * *',
          run: async () => {
            probeRuns += 1;
            if (failNext) {
              failNext = false;
              throw new Error('probe failed');
            }
          },
        }),
    });
  });
  afterAll(() => t.close());

  /** A second instance's scheduler on the same database (the jobs' claims are in the database). */
  function instance(options: { clock?: () => Date; leaseRenewalMs?: number } = {}): JobScheduler {
    return createJobScheduler({
      db: t.app.db,
      log: t.app.log,
      reporter: quiet,
      timeZone: 'America/New_York',
      scheduled: false,
      ...options,
    });
  }

  it('shows one row per job in the metrics: last run, duration and failures', async () => {
    const before = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
    for (const job of [...t.app.jobs.names()]) {
      expect(sample(before, `dealerpass_job_last_run_timestamp_seconds{job="${job}"}`)).toBe(0);
      expect(sample(before, `dealerpass_job_runs_total{job="${job}",result="failed"}`)).toBe(0);
    }
    expect(t.app.jobs.names()).toEqual(
      expect.arrayContaining([
        'mail-dispatch',
        'purge-expired',
        'price-table-refresh',
        'test-probe',
      ]),
    );

    expect(await t.app.jobs.run('test-probe', new Date('2026-11-27T11:00:00Z'))).toBe('ran');
    failNext = true;
    expect(await t.app.jobs.run('test-probe', new Date('2026-11-28T11:00:00Z'))).toBe('failed');
    expect(probeRuns).toBe(2);
    expect(await t.app.jobs.run('purge-expired')).toBe('ran');
    const after = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
    const probe = (name: string, extra = '') => sample(after, `${name}{job="test-probe"${extra}}`);
    expect(probe('dealerpass_job_runs_total', ',result="completed"')).toBe(1);
    expect(probe('dealerpass_job_runs_total', ',result="failed"')).toBe(1);
    expect(probe('dealerpass_job_last_run_timestamp_seconds')).toBeGreaterThan(
      Date.now() / 1000 - 60,
    );
    expect(probe('dealerpass_job_last_duration_seconds')).toBeGreaterThanOrEqual(0);
    expect(sample(after, 'dealerpass_job_runs_total{job="purge-expired",result="completed"}')).toBe(
      1,
    );
    // The failure is kept with the job's claim too, for whoever reads the table.
    const [row] = await t.app.db.select().from(jobRuns).where(eq(jobRuns.name, 'test-probe'));
    expect(row?.lastError).toBe('probe failed');
  });

  it('runs a `once` job once per scheduled time however many instances fire it', async () => {
    let runs = 0;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const job = {
      name: 'test-once',
      schedule: '0 6 * * *',
      run: async () => {
        runs += 1;
        await held;
      },
    };
    const [a, b, c] = [instance(), instance(), instance()];
    for (const scheduler of [a, b, c]) scheduler.register(job);
    const slot = new Date('2026-12-01T11:00:00Z');
    const first = [a.run('test-once', slot), b.run('test-once', slot)];
    // The next time fired while the first run still holds its lease: not started beside it.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await c.run('test-once', new Date('2026-12-02T11:00:00Z'))).toBe('taken');
    release();
    expect((await Promise.all(first)).sort()).toEqual(['ran', 'taken']);
    expect(runs).toBe(1);
    // The same time again (a late instance) is not run again; the next one is.
    expect(await c.run('test-once', slot)).toBe('taken');
    expect(await c.run('test-once', new Date('2026-12-02T11:00:00Z'))).toBe('ran');
    expect(runs).toBe(2);
    await Promise.all([a.close(), b.close(), c.close()]);
  });

  it('lets the next time go ahead when the instance that held a run stopped (its lease ran out)', async () => {
    let now = new Date();
    const clock = () => now;
    const stopped = instance({ clock, leaseRenewalMs: 3_600_000 });
    const alive = instance({ clock });
    let runs = 0;
    const never = new Promise<void>(() => {});
    stopped.register({ name: 'test-lease', schedule: '0 6 * * *', run: () => never });
    alive.register({ name: 'test-lease', schedule: '0 6 * * *', run: async () => void runs++ });
    void stopped.run('test-lease', new Date('2026-12-01T11:00:00Z'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    const next = new Date('2026-12-02T11:00:00Z');
    expect(await alive.run('test-lease', next)).toBe('taken');
    now = new Date(now.getTime() + JOB_LEASE_MS + 1000);
    expect(await alive.run('test-lease', new Date('2026-12-03T11:00:00Z'))).toBe('ran');
    expect(runs).toBe(1);
    await alive.close();
  });

  it('runs jobs on their schedule and stops them on close, waiting for the run in flight', async () => {
    const scheduler = createJobScheduler({
      db: t.app.db,
      log: t.app.log,
      reporter: quiet,
      timeZone: 'America/New_York',
      scheduled: true,
    });
    let started = 0;
    let finished = 0;
    scheduler.register({
      name: 'test-every-second',
      schedule: { everySeconds: 1 },
      runs: 'every-instance',
      run: async () => {
        started += 1;
        await new Promise((resolve) => setTimeout(resolve, 300));
        finished += 1;
      },
    });
    const deadline = Date.now() + 10_000;
    while (started < 2 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(started).toBeGreaterThanOrEqual(2);
    // Close in the middle of a run: it finishes, and nothing starts after.
    while (started === finished) await new Promise((resolve) => setTimeout(resolve, 20));
    await scheduler.close();
    expect(finished).toBe(started);
    const after = started;
    await new Promise((resolve) => setTimeout(resolve, 2_200));
    expect(started).toBe(after);
  });

  it('refuses a schedule croner cannot read, and a name used twice, when the job is registered', () => {
    const scheduler = instance();
    expect(() =>
      scheduler.register({ name: 'test-bad', schedule: '61 * * * *', run: async () => {} }),
    ).toThrow();
    scheduler.register({ name: 'test-twice', schedule: '@daily', run: async () => {} });
    expect(() =>
      scheduler.register({ name: 'test-twice', schedule: '@daily', run: async () => {} }),
    ).toThrow(/twice/);
  });
});

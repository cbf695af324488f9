import { hostname } from 'node:os';
import { Cron } from 'croner';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.ts';
import { claimJobSlot, finishJobSlot, JOB_LEASE_RENEWAL_MS, renewJobLease } from './job-slots.ts';

/**
 * When a job runs: a cron pattern (5 fields, or 6 with seconds first; croner's syntax) read in
 * the business time zone, or a plain interval in seconds.
 */
export type JobSchedule = string | { everySeconds: number };

/** What a job's run is handed. */
export interface JobRun {
  /** The scheduled time this run stands for (the same on every instance). */
  slot: Date;
}

export interface JobDefinition {
  /** kebab-case; the metrics' `job` label and the claim's key. */
  name: string;
  schedule: JobSchedule;
  /** The service function; its dependencies are bound where the job is registered. */
  run: (run: JobRun) => Promise<unknown>;
  /**
   * `once` (the default): one instance runs each scheduled time, claimed in `job_runs`; for a
   * job that moves money or sends mail. `every-instance`: each instance runs it, for a job that
   * refreshes the instance's own state or claims its rows itself (`FOR UPDATE SKIP LOCKED` and a
   * lease: the billing run, the mail dispatch).
   */
  runs?: 'once' | 'every-instance';
}

/** How a run ended: ran (completed), failed (threw), taken (another instance has this time). */
export type JobOutcome = 'ran' | 'failed' | 'taken' | 'busy';

/** What the scheduler reports of every run (plugins/metrics.ts). */
export interface JobReporter {
  jobRegistered(name: string): void;
  jobRun(name: string, outcome: 'ran' | 'failed', seconds: number, endedAt: Date): void;
}

export interface JobScheduler {
  /** Adds a job; with scheduling on, it starts on its schedule at once. */
  register(job: JobDefinition): void;
  /**
   * Runs a job now, outside its schedule (a script, a test, a route's nudge), for `slot` (by
   * default now). A run already in flight in this instance is not started twice: `busy`.
   */
  run(name: string, slot?: Date): Promise<JobOutcome>;
  names(): string[];
  /** Stops every schedule and waits for the runs in flight. */
  close(): Promise<void>;
}

interface Registered {
  job: JobDefinition;
  cron: Cron | null;
  inFlight: Promise<JobOutcome> | null;
}

/**
 * The scheduled time a firing stands for, the same instant on every instance: a pattern's last
 * time at or before the firing (not the moment the timer fired, which each event loop delays
 * differently), an interval's start on the grid of its length since the epoch.
 */
function slotOf(cron: Cron, when: JobSchedule, fired: Date): Date {
  if (typeof when !== 'string') {
    const length = when.everySeconds * 1000;
    return new Date(Math.floor(fired.getTime() / length) * length);
  }
  return cron.previousRuns(1, new Date(fired.getTime() + 1))[0] ?? fired;
}

/**
 * The background jobs' scheduler (issue 26 item 6): croner's timers, one run at a time per job
 * and instance, a claim per scheduled time for `once` jobs, and a report of every run.
 */
export function createJobScheduler(deps: {
  db: Database;
  log: FastifyBaseLogger;
  reporter: JobReporter;
  timeZone: string;
  /** False: nothing runs on a timer, only through `run` (the tests, the scripts). */
  scheduled: boolean;
  /** The scheduler's clock (real time; a test may hand in its own). */
  clock?: () => Date;
  leaseRenewalMs?: number;
}): JobScheduler {
  const clock = deps.clock ?? (() => new Date());
  const holder = `${hostname()}:${process.pid}`;
  const jobs = new Map<string, Registered>();
  let closed = false;

  async function runOnce(entry: Registered, slot: Date): Promise<JobOutcome> {
    const { job } = entry;
    const once = (job.runs ?? 'once') === 'once';
    if (once && !(await claimJobSlot(deps.db, { name: job.name, slot, holder, now: clock() }))) {
      return 'taken';
    }
    const renewal = once
      ? setInterval(() => {
          renewJobLease(deps.db, { name: job.name, slot, now: clock() }).catch((error: unknown) =>
            deps.log.warn({ err: error, job: job.name }, 'job lease renewal failed'),
          );
        }, deps.leaseRenewalMs ?? JOB_LEASE_RENEWAL_MS)
      : undefined;
    renewal?.unref();
    const started = performance.now();
    let error: unknown = null;
    try {
      await job.run({ slot });
    } catch (thrown) {
      error = thrown ?? new Error('job failed');
    } finally {
      clearInterval(renewal);
    }
    const outcome = error === null ? 'ran' : 'failed';
    deps.reporter.jobRun(job.name, outcome, (performance.now() - started) / 1000, clock());
    if (error !== null) deps.log.error({ err: error, job: job.name }, 'job failed');
    if (once) {
      const message = error instanceof Error ? error.message : error === null ? null : 'failed';
      await finishJobSlot(deps.db, { name: job.name, slot, now: clock(), error: message }).catch(
        (failure: unknown) =>
          deps.log.warn({ err: failure, job: job.name }, 'job end not recorded'),
      );
    }
    return outcome;
  }

  function start(entry: Registered, slot: Date): Promise<JobOutcome> {
    if (entry.inFlight) return Promise.resolve('busy');
    const run = runOnce(entry, slot)
      .catch((error: unknown) => {
        // Only the claim can throw here (the database unreachable): counted as a failure.
        deps.reporter.jobRun(entry.job.name, 'failed', 0, clock());
        deps.log.error({ err: error, job: entry.job.name }, 'job not started');
        return 'failed' as const;
      })
      .finally(() => {
        entry.inFlight = null;
      });
    entry.inFlight = run;
    return run;
  }

  function schedule(entry: Registered): Cron {
    const { schedule: when } = entry.job;
    const pattern = typeof when === 'string' ? when : '* * * * * *';
    const cron: Cron = new Cron(
      pattern,
      {
        timezone: deps.timeZone,
        unref: true,
        ...(typeof when === 'string' ? {} : { interval: when.everySeconds }),
      },
      () => {
        // The time the schedule stood for, not the moment the timer fired: the same instant on
        // every instance, whatever their event loops' delays.
        const fired = clock();
        void start(entry, slotOf(cron, when, fired));
      },
    );
    return cron;
  }

  return {
    register(job) {
      if (jobs.has(job.name)) throw new Error(`job ${job.name} is registered twice`);
      if (!/^[a-z][a-z0-9-]*$/.test(job.name)) throw new Error(`job name ${job.name}: kebab-case`);
      const entry: Registered = { job, cron: null, inFlight: null };
      // A pattern croner refuses stops the server at start, not at the first run.
      const probe = new Cron(typeof job.schedule === 'string' ? job.schedule : '* * * * * *', {
        paused: true,
      });
      probe.stop();
      jobs.set(job.name, entry);
      deps.reporter.jobRegistered(job.name);
      if (deps.scheduled && !closed) entry.cron = schedule(entry);
    },
    run(name, slot) {
      const entry = jobs.get(name);
      if (!entry) throw new Error(`no job ${name}`);
      return start(entry, slot ?? clock());
    },
    names: () => [...jobs.keys()],
    async close() {
      closed = true;
      for (const entry of jobs.values()) entry.cron?.stop();
      await Promise.all([...jobs.values()].map((entry) => entry.inFlight));
    },
  };
}

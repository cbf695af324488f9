import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { BillingRunResult } from '../services/billing/run-billing.ts';
import type { JobReporter } from '../services/jobs/job-scheduler.ts';
import { countOutbox } from '../services/mail/count-outbox.ts';

/** The label of every request no route matched: one series, whatever the URL was. */
export const UNMATCHED_ROUTE = '(unmatched)';
/**
 * The label of every file of the built web app: each hashed asset is a route of its own, and a
 * label per file would add series at every deploy (issue 27, item 5).
 */
export const STATIC_ROUTE = '(static)';
/** The label of the web app's page answered for a path no route matched (its own routes, 001 §2). */
export const PAGE_ROUTE = '(page)';

/** Requests answered by the web app's page fallback (plugins/web-app.ts marks them). */
const pageFallbacks = new WeakSet<FastifyRequest>();

/** Marks a request the web app's page fallback answers: its series is {@link PAGE_ROUTE}. */
export function countAsPage(request: FastifyRequest): void {
  pageFallbacks.add(request);
}

/**
 * prom-client's default gauges that end in `_total`, which the exposition format keeps for
 * counters (`promtool check metrics` refuses them): each is the sum of the per-type gauge of the
 * same name without the suffix (`sum(nodejs_active_handles)`), so nothing is lost by leaving them out.
 */
const MISNAMED_DEFAULTS = [
  'nodejs_active_handles_total',
  'nodejs_active_requests_total',
  'nodejs_active_resources_total',
];

/** Request durations in seconds: most answers take a few milliseconds; a charge can take seconds. */
const REQUEST_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** A billing run: from an empty check (milliseconds) to a large batch (minutes). */
const RUN_BUCKETS = [0.05, 0.25, 1, 5, 15, 60, 300, 900, 3600];

/**
 * The process's own metrics (CPU, memory, event loop, GC), collected once per process: they
 * describe the process, not an app, and each collector left running (the event-loop monitor
 * samples every 10 ms) would be one more in a test process that builds hundreds of apps.
 */
let processRegistry: Registry | null = null;
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
    for (const name of MISNAMED_DEFAULTS) processRegistry.removeSingleMetric(name);
  }
  return processRegistry;
}

/** What a billing run's caller and the jobs' scheduler report (docs/decisions/023, 046). */
export interface Metrics extends JobReporter {
  /** The app's own metrics (requests, billing, mail, pool). */
  registry: Registry;
  /** Everything `/metrics` shows: the app's metrics and the process's, in the text format. */
  scrape(): Promise<{ contentType: string; body: string }>;
  /** A billing run ended: its counts and how long it took. `kind` says which schedule ran it. */
  billingRun(result: BillingRunResult, seconds: number, kind: 'full' | 'takeover'): void;
  /** A billing run threw. */
  billingRunFailed(kind: 'full' | 'takeover'): void;
  /** A mail dispatch ended: mails handed to the SMTP server, and attempts that failed. */
  mailDispatched(result: { sent: number; failed: number }): void;
}

/**
 * Prometheus metrics (issue 17, docs/decisions/023): request durations by matched route and
 * status, billing-run outcomes and durations, the mail outbox, the database pool, and the
 * process's default metrics, in a registry of this app's own (tests build many apps in one
 * process). Gauges that need the database are read only when `/metrics` is scraped.
 */
export default fp(
  async (app) => {
    const registry = new Registry();
    const perProcess = processMetrics();

    const requests = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time from receiving a request to sending its answer, by matched route pattern and status',
      labelNames: ['method', 'route', 'status_code'] as const,
      buckets: REQUEST_BUCKETS,
      registers: [registry],
    });
    // One observe per request, on a time Fastify keeps anyway (reply.elapsedTime): no extra clock.
    app.addHook('onResponse', (request, reply, done) => {
      requests.observe(
        {
          method: request.method,
          route: routeLabel(request),
          status_code: reply.statusCode,
        },
        reply.elapsedTime / 1000,
      );
      done();
    });

    const billingOutcomes = new Counter({
      name: 'dealerpass_billing_outcomes_total',
      help: 'Accounts handled by billing runs: charged, declined, retried (a charge to try again later) or deactivated (a pending cancellation recorded as ended)',
      labelNames: ['outcome'] as const,
      registers: [registry],
    });
    const billingRuns = new Counter({
      name: 'dealerpass_billing_runs_total',
      help: 'Billing runs by schedule (full or takeover of abandoned charges) and result',
      labelNames: ['kind', 'result'] as const,
      registers: [registry],
    });
    const billingDuration = new Histogram({
      name: 'dealerpass_billing_run_duration_seconds',
      help: 'Duration of billing runs that completed',
      labelNames: ['kind'] as const,
      buckets: RUN_BUCKETS,
      registers: [registry],
    });
    for (const outcome of ['charged', 'declined', 'retried', 'deactivated']) {
      billingOutcomes.inc({ outcome }, 0);
    }

    const mailSent = new Counter({
      name: 'dealerpass_mail_sent_total',
      help: 'Mails handed to the SMTP server',
      registers: [registry],
    });
    const mailFailures = new Counter({
      name: 'dealerpass_mail_failures_total',
      help: 'Failed attempts to hand a mail to the SMTP server (each is retried with backoff until the last)',
      registers: [registry],
    });
    const db = app.db;
    new Gauge({
      name: 'dealerpass_mail_outbox',
      help: 'Rows of the mail outbox by status: pending (waiting to be sent), failed (given up); read from the database on scrape',
      labelNames: ['status'] as const,
      registers: [registry],
      async collect() {
        const counts = await countOutbox(db);
        this.set({ status: 'pending' }, counts.pending);
        this.set({ status: 'failed' }, counts.failed);
      },
    });

    // One series per registered job in each (docs/decisions/046): when it last ended, how long
    // it took, and how many runs failed. A run another instance claimed is not this one's.
    const jobLastRun = new Gauge({
      name: 'dealerpass_job_last_run_timestamp_seconds',
      help: 'When the job last ended in this instance (Unix time; 0: not yet)',
      labelNames: ['job'] as const,
      registers: [registry],
    });
    const jobDuration = new Gauge({
      name: 'dealerpass_job_last_duration_seconds',
      help: 'How long the job’s last run in this instance took',
      labelNames: ['job'] as const,
      registers: [registry],
    });
    const jobRuns = new Counter({
      name: 'dealerpass_job_runs_total',
      help: 'Runs of the job in this instance, completed or failed',
      labelNames: ['job', 'result'] as const,
      registers: [registry],
    });

    // PostgreSQL: the pool's connections. PGlite has none (one in-process connection), so these
    // series are absent there rather than a constant that would read as a healthy pool.
    const database = app.database;
    if (database.poolUse() !== null) {
      new Gauge({
        name: 'dealerpass_db_pool_connections',
        help: 'Connections of the PostgreSQL pool: total (open), idle, waiting (queries queued for a connection), max (the pool size)',
        labelNames: ['state'] as const,
        registers: [registry],
        collect() {
          const use = database.poolUse();
          if (!use) return;
          this.set({ state: 'total' }, use.total);
          this.set({ state: 'idle' }, use.idle);
          this.set({ state: 'waiting' }, use.waiting);
          this.set({ state: 'max' }, use.max);
        },
      });
    }

    const metrics: Metrics = {
      registry,
      async scrape() {
        const merged = Registry.merge([perProcess, registry]);
        return { contentType: merged.contentType, body: await merged.metrics() };
      },
      billingRun(result, seconds, kind) {
        billingRuns.inc({ kind, result: 'completed' });
        billingDuration.observe({ kind }, seconds);
        billingOutcomes.inc({ outcome: 'charged' }, result.charged);
        billingOutcomes.inc({ outcome: 'declined' }, result.declined);
        billingOutcomes.inc({ outcome: 'retried' }, result.retryLater);
        billingOutcomes.inc({ outcome: 'deactivated' }, result.deactivated);
      },
      billingRunFailed(kind) {
        billingRuns.inc({ kind, result: 'failed' });
      },
      mailDispatched({ sent, failed }) {
        mailSent.inc(sent);
        mailFailures.inc(failed);
      },
      jobRegistered(job) {
        jobLastRun.set({ job }, 0);
        jobDuration.set({ job }, 0);
        jobRuns.inc({ job, result: 'completed' }, 0);
        jobRuns.inc({ job, result: 'failed' }, 0);
      },
      jobRun(job, outcome, seconds, endedAt) {
        jobLastRun.set({ job }, endedAt.getTime() / 1000);
        jobDuration.set({ job }, seconds);
        jobRuns.inc({ job, result: outcome === 'ran' ? 'completed' : 'failed' });
      },
    };
    app.decorate('metrics', metrics);
  },
  { name: 'metrics', dependencies: ['config'] },
);

/**
 * Runs a billing run and reports it: its counts and duration when it completes, a failure when
 * it throws (rethrown for the caller's log). The run itself knows nothing of metrics.
 */
export async function measureBillingRun(
  metrics: Metrics,
  kind: 'full' | 'takeover',
  run: () => Promise<BillingRunResult>,
): Promise<BillingRunResult> {
  const started = performance.now();
  try {
    const result = await run();
    metrics.billingRun(result, (performance.now() - started) / 1000, kind);
    return result;
  } catch (error) {
    metrics.billingRunFailed(kind);
    throw error;
  }
}

/**
 * The matched route's pattern (`/api/signup/detail/update/:leadID/1`), never the raw URL; one
 * fixed label for all the web app's files, one for its page fallback, one for everything else.
 */
function routeLabel(request: FastifyRequest): string {
  if (pageFallbacks.has(request)) return PAGE_ROUTE;
  const url = request.routeOptions.url;
  if (url === undefined) return UNMATCHED_ROUTE;
  // @fastify/static names the file it serves in the route's config.
  return 'file' in request.routeOptions.config ? STATIC_ROUTE : url;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The app's metrics: the registry `/metrics` answers from, and what jobs report to it. */
    metrics: Metrics;
  }
}

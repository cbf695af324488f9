import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { purgeExpiredCaptchaRedemptions } from '../services/captcha/redeem-captcha.ts';
import { purgeExpiredFailureBudgets } from '../services/limits/failure-budget-stores.ts';
import { CHARGE_LEASE_MS, runBilling } from '../services/billing/run-billing.ts';
import {
  createJobScheduler,
  type JobDefinition,
  type JobScheduler,
} from '../services/jobs/job-scheduler.ts';
import { purgeExpiredOidcPayloads } from '../identity/provider/db-adapter.ts';
import { measureBillingRun } from './metrics.ts';
import { remindExpiringCards } from '../services/billing/remind-expiring-cards.ts';
import { refreshMrrHistory } from '../services/overview/refresh-mrr-history.ts';

export interface JobOptions {
  /** False: no job runs on a timer, only through `app.jobs.run(name)` (the tests). */
  scheduled: boolean;
}

/**
 * The background jobs (issue 26 item 6, docs/decisions/046): croner's schedules, one run at a
 * time per job and instance, `dealerpass_job_*` metrics per job, stopped (and their runs awaited)
 * when the app closes.
 *
 * Adding a job is one call here, with a name, a schedule and the service function:
 *
 *   app.jobs.register({
 *     name: 'annual-invoices',
 *     schedule: '0 6 * * *', // 06:00 in the business time zone; or { everySeconds: 300 }
 *     run: () => issueAnnualInvoices(app.deps.billing),
 *   });
 *
 * By default a job runs `once` per scheduled time across all instances (a claim in `job_runs`):
 * right for a job that moves money or sends mail. It must still finish what a stopped run left
 * (its own rows claimed or unique, as the billing run's periods and the outbox's rows are),
 * because a run whose instance stopped is not taken over until the next scheduled time.
 * `runs: 'every-instance'` is for a job that refreshes the instance's own state, or claims its
 * rows itself. A test runs a job with `await app.jobs.run(name)`.
 */
export default fp(
  async (app, options: JobOptions) => {
    const jobs = createJobScheduler({
      db: app.db,
      log: app.log,
      reporter: app.metrics,
      timeZone: app.config.billing.timeZone,
      scheduled: options.scheduled,
    });
    app.decorate('jobs', jobs);
    // Before every onClose hook (the database's, the mail transport's): no run outlives them.
    app.addHook('preClose', () => jobs.close());

    for (const job of builtInJobs(app)) jobs.register(job);
  },
  { name: 'jobs', dependencies: ['config', 'metrics', 'services'] },
);

function builtInJobs(app: FastifyInstance): JobDefinition[] {
  const billingEveryMinutes = app.config.billing.runIntervalMinutes;
  // The billing run's two schedules share one run at a time in this instance.
  let billing: Promise<unknown> | null = null;
  const bill = async (kind: 'full' | 'takeover') => {
    // A run in flight covers a takeover; a full run waits for the takeover in flight.
    if (billing && kind === 'takeover') return billing;
    while (billing) await billing.catch(() => undefined);
    billing = measureBillingRun(app.metrics, kind, () =>
      runBilling(app.deps.billing, { abandonedOnly: kind === 'takeover' }),
    )
      .then((result) => {
        if (result.charged + result.declined + result.deactivated > 0)
          app.log.info({ billing: result }, 'billing run');
        void app.mail.kick();
      })
      .finally(() => {
        billing = null;
      });
    return billing;
  };
  return [
    // Every instance sends the outbox: rows are claimed with SKIP LOCKED and a lease.
    {
      name: 'mail-dispatch',
      schedule: { everySeconds: 5 },
      runs: 'every-instance',
      run: () => app.mail.kick(),
    },
    // Purges delete what has expired: harmless on every instance at once.
    {
      name: 'purge-expired',
      schedule: { everySeconds: 300 },
      runs: 'every-instance',
      run: async () => {
        const now = app.now();
        await Promise.all([
          purgeExpiredCaptchaRedemptions(app.db, now),
          purgeExpiredOidcPayloads(app.db),
          purgeExpiredFailureBudgets(app.db, now),
        ]);
      },
    },
    // Each instance's copy of the dated price table (R11: another instance or the command may
    // have scheduled a change).
    {
      name: 'price-table-refresh',
      schedule: { everySeconds: 300 },
      runs: 'every-instance',
      run: () => app.prices.refresh(),
    },
    // R18's MRR history (decision 042): the backfill of accounts without one and each price
    // change's effective instant; the overview's rollups merged (decision 051). Idempotent and
    // exact side by side, so every instance may run it.
    {
      name: 'mrr-history-refresh',
      schedule: { everySeconds: 300 },
      runs: 'every-instance',
      run: () => refreshMrrHistory(app.db, { prices: app.prices.table(), now: app.now() }),
    },
    // Card expiry reminders (issue 27 item 12, decision 044): once a business day; each card and
    // threshold is claimed in the transaction of its e-mail, so a second run sends nothing.
    {
      name: 'card-expiry-reminders',
      schedule: '0 9 * * *',
      run: () => remindExpiringCards({ ...app.deps.billing, publicUrl: app.config.publicUrl }),
    },
    // The billing run (R4, decision 012) on every instance: accounts are claimed with SKIP
    // LOCKED and leased while charged, periods are unique. Between full runs, the takeover
    // finishes what a stopped run or request left within about a lease (issue 13).
    ...(billingEveryMinutes > 0
      ? ([
          {
            name: 'billing-run',
            schedule: { everySeconds: billingEveryMinutes * 60 },
            runs: 'every-instance',
            run: () => bill('full'),
          },
          {
            name: 'billing-takeover',
            schedule: { everySeconds: Math.min(CHARGE_LEASE_MS / 1000, billingEveryMinutes * 60) },
            runs: 'every-instance',
            run: () => bill('takeover'),
          },
        ] satisfies JobDefinition[])
      : []),
  ];
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The background jobs (plugins/jobs.ts): `register` one, `run` one now. */
    jobs: JobScheduler;
  }
}

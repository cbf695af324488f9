import fp from 'fastify-plugin';
import { createAltchaVerifier } from '../adapters/captcha/altcha-verifier.ts';
import { createRecaptchaVerifier } from '../adapters/captcha/recaptcha-verifier.ts';
import type { CaptchaVerifier } from '../adapters/captcha/captcha-verifier.ts';
import { createMailboxTransport, type MailTransport } from '../adapters/mail/mail-transport.ts';
import { createSmtpTransport } from '../adapters/mail/smtp-transport.ts';
import { createPaymentGateway } from '../adapters/payments/create-payment-gateway.ts';
import type { PaymentGateway } from '../adapters/payments/payment-gateway.ts';
import { purgeExpiredCaptchaRedemptions } from '../services/captcha/redeem-captcha.ts';
import { purgeExpiredFailureBudgets } from '../services/limits/failure-budget-stores.ts';
import { dispatchPendingMail } from '../services/mail/dispatch-pending-mail.ts';
import { CHARGE_LEASE_MS, runBilling, type BillingDeps } from '../services/billing/run-billing.ts';
import type { SignupDeps } from '../services/signup/signup-deps.ts';
import { createPriceBook, type PriceBook } from '../services/prices/price-book.ts';
import { measureBillingRun } from './metrics.ts';
import { purgeExpiredOidcPayloads } from '../identity/provider/db-adapter.ts';

export interface ServiceOverrides {
  payments?: PaymentGateway;
  mailTransport?: MailTransport;
  captcha?: CaptchaVerifier;
  /** Tick of the background jobs (mail dispatch, purges); 0 turns the timer off (tests). */
  backgroundIntervalMs?: number;
}

/**
 * The adapters behind their ports, chosen by configuration (DECISIONS R8), and the background jobs
 * that go with them. Tests may hand in their own adapters; everything else is the real thing.
 */
export default fp(
  async (app, overrides: ServiceOverrides) => {
    const captcha =
      overrides.captcha ??
      (app.config.captcha.kind === 'recaptcha'
        ? createRecaptchaVerifier({ ...app.config.captcha, now: app.now })
        : createAltchaVerifier({
            hmacKey: app.keys.captcha.toString('base64'),
            difficulty: app.config.captcha.difficulty,
            ttlSeconds: app.config.captcha.ttlSeconds,
            now: app.now,
          }));
    app.decorate('captcha', captcha);
    app.decorate(
      'payments',
      overrides.payments ??
        createPaymentGateway({ config: app.config.payments, db: app.db, now: app.now }),
    );

    const transport =
      overrides.mailTransport ??
      (app.config.mail.smtpUrl
        ? createSmtpTransport(app.config.mail.smtpUrl)
        : createMailboxTransport());

    let running: Promise<unknown> | null = null;
    const dispatch = () => {
      if (running || transport.kind !== 'smtp') return running;
      running = dispatchPendingMail({
        db: app.db,
        transport,
        from: app.config.mail.from,
        now: app.now,
        log: app.log,
        timeZone: app.config.billing.timeZone,
      })
        .then((result) => app.metrics.mailDispatched(result))
        .catch((error: unknown) => app.log.error({ err: error }, 'mail dispatch failed'))
        .finally(() => {
          running = null;
        });
      return running;
    };
    app.decorate('mail', { transport, kick: async () => void (await dispatch()) });

    // The dated price table (R11), read now and again on the background schedule.
    const priceBook = await createPriceBook(app.db);
    app.decorate('prices', priceBook);

    // What the billing and sign-up services need, built once here for the routes and the run.
    const billingDeps: BillingDeps = {
      db: app.db,
      payments: app.payments,
      now: app.now,
      timeZone: app.config.billing.timeZone,
      company: { name: app.config.company.name, supportPhone: app.config.company.supportPhone },
      mailKind: transport.kind,
      prices: priceBook,
      log: app.log,
      invoicing: app.config.invoicing,
    };
    app.decorate('deps', {
      billing: billingDeps,
      signup: {
        ...billingDeps,
        captcha: app.captcha,
        publicUrl: app.config.publicUrl,
        companyEmailDomain: app.config.company.emailDomain,
        messageVars: app.messageVars,
      },
    });

    const interval = overrides.backgroundIntervalMs ?? 5000;
    let timer: NodeJS.Timeout | undefined;
    let ticks = 0;
    if (interval > 0) {
      timer = setInterval(() => {
        void dispatch();
        // Purging spent captchas is cheap but needless every tick.
        if (++ticks % 60 === 0) {
          purgeExpiredCaptchaRedemptions(app.db, app.now()).catch((error: unknown) =>
            app.log.warn({ err: error }, 'captcha purge failed'),
          );
          purgeExpiredOidcPayloads(app.db).catch((error: unknown) =>
            app.log.warn({ err: error }, 'oidc purge failed'),
          );
          purgeExpiredFailureBudgets(app.db, app.now()).catch((error: unknown) =>
            app.log.warn({ err: error }, 'failure budget purge failed'),
          );
          // Changes scheduled by another instance or the command (R11: 30 days ahead at least).
          priceBook
            .refresh()
            .catch((error: unknown) => app.log.warn({ err: error }, 'price table refresh failed'));
        }
      }, interval);
      timer.unref();
    }

    // The recurring billing run (DECISIONS R4) on its schedule; any number of instances may run it.
    // Between scheduled runs, a check every lease takes over charges a stopped run or request
    // left behind (issue 13), so they are recorded within about a minute, not at the next run.
    let billing: Promise<unknown> | null = null;
    let billingTimer: NodeJS.Timeout | undefined;
    const billingEveryMs = app.config.billing.runIntervalMinutes * 60_000;
    const checkEveryMs = Math.min(CHARGE_LEASE_MS, billingEveryMs);
    let sinceFullRunMs = 0;
    if (interval > 0 && billingEveryMs > 0) {
      billingTimer = setInterval(() => {
        sinceFullRunMs += checkEveryMs;
        if (billing) return;
        const full = sinceFullRunMs >= billingEveryMs;
        if (full) sinceFullRunMs = 0;
        billing = measureBillingRun(app.metrics, full ? 'full' : 'takeover', () =>
          runBilling(billingDeps, { abandonedOnly: !full }),
        )
          .then((result) => {
            if (result.charged + result.declined + result.deactivated > 0)
              app.log.info({ billing: result }, 'billing run');
            void dispatch();
          })
          .catch((error: unknown) => app.log.error({ err: error }, 'billing run failed'))
          .finally(() => {
            billing = null;
          });
      }, checkEveryMs);
      billingTimer.unref();
    }

    app.addHook('onClose', async () => {
      if (timer) clearInterval(timer);
      if (billingTimer) clearInterval(billingTimer);
      await billing;
      await running;
      await transport.close();
    });
  },
  { name: 'services', dependencies: ['config', 'metrics'] },
);

declare module 'fastify' {
  interface FastifyInstance {
    /** The dependencies of the billing and sign-up services (fastify/demo: built once, decorated). */
    deps: { billing: BillingDeps; signup: SignupDeps };
    /** The dated price table (R11, docs/decisions/025). */
    prices: PriceBook;
  }
}

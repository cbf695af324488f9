import fp from 'fastify-plugin';
import { createAltchaVerifier } from '../adapters/captcha/altcha-verifier.ts';
import { createRecaptchaVerifier } from '../adapters/captcha/recaptcha-verifier.ts';
import type { CaptchaVerifier } from '../adapters/captcha/captcha-verifier.ts';
import { createMailboxTransport, type MailTransport } from '../adapters/mail/mail-transport.ts';
import { createSmtpTransport } from '../adapters/mail/smtp-transport.ts';
import { createPaymentGateway } from '../adapters/payments/create-payment-gateway.ts';
import type { PaymentGateway } from '../adapters/payments/payment-gateway.ts';
import { dispatchPendingMail } from '../services/mail/dispatch-pending-mail.ts';
import type { BillingDeps } from '../services/billing/run-billing.ts';
import type { SignupDeps } from '../services/signup/signup-deps.ts';
import { createPriceBook, type PriceBook } from '../services/prices/price-book.ts';
import type { AutoCheckDeps } from '../services/autocheck/save-autocheck-settings.ts';
import type { submitContactRequest } from '../services/contact/submit-contact-request.ts';
import type { requestPasswordReset } from '../services/identity/request-password-reset.ts';
import type { CompleteSignInDeps } from '../services/session/complete-sign-in.ts';
import type { CompleteStaffSignInDeps } from '../services/admin/staff/complete-staff-sign-in.ts';
import type { connectKarId } from '../services/users/connect-kar-id.ts';
import { defaultReceiptRenderer } from '../services/receipts/receipt-renderer.ts';

export interface ServiceOverrides {
  payments?: PaymentGateway;
  mailTransport?: MailTransport;
  captcha?: CaptchaVerifier;
}

/**
 * The adapters behind their ports, chosen by configuration (DECISIONS R8), and the services'
 * dependencies, built once (`app.deps`). The background jobs are plugins/jobs.ts's. Tests may
 * hand in their own adapters; everything else is the real thing.
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
        ? createSmtpTransport(app.config.mail.smtpUrl, new URL(app.config.publicUrl).hostname)
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

    // The dated price table (R11), read now and again by the price-table-refresh job.
    const priceBook = await createPriceBook(app.db);
    app.decorate('prices', priceBook);

    // The billing run's receipts, rendered on threads of their own (decision 067).
    const receipts = defaultReceiptRenderer(app.log);
    app.addHook('onClose', () => receipts.close());

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
      receipts,
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
      passwordReset: {
        db: app.db,
        captcha: app.captcha,
        mailKind: transport.kind,
        publicUrl: app.config.publicUrl,
        companyName: app.config.company.name,
      },
      contact: {
        db: app.db,
        captcha: app.captcha,
        mailKind: transport.kind,
        supportAddress: app.config.mail.supportAddress,
        companyName: app.config.company.name,
      },
      karId: {
        db: app.db,
        companyEmailDomain: app.config.company.emailDomain,
        messageVars: app.messageVars,
        captcha: app.captcha,
        failures: app.failureBudgets,
      },
    } satisfies Omit<ServiceDeps, 'signIn' | 'staffSignIn' | 'autoCheck'> as ServiceDeps);

    // After the jobs plugin's own onClose (hooks run in reverse order): no dispatch starts then.
    app.addHook('onClose', async () => {
      await running;
      await transport.close();
    });
  },
  { name: 'services', dependencies: ['config', 'metrics', 'shared-counters'] },
);

/**
 * Every service's dependencies, built once at start (fastify/demo's decorators) and handed to it
 * as its first argument: `service(app.deps.<area>, input)`. What belongs to one request (its
 * logger, the client's address) goes in the input. The parts that need an adapter of a later
 * plugin are added by that plugin: `signIn` and `staffSignIn` (plugins/identity.ts, the relying
 * parties), `autoCheck` (plugins/integrations.ts).
 */
export interface ServiceDeps {
  billing: BillingDeps;
  signup: SignupDeps;
  passwordReset: Parameters<typeof requestPasswordReset>[0];
  contact: Parameters<typeof submitContactRequest>[0];
  karId: Parameters<typeof connectKarId>[0];
  signIn: CompleteSignInDeps;
  staffSignIn: CompleteStaffSignInDeps;
  autoCheck: AutoCheckDeps;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The dependencies of the billing and sign-up services (fastify/demo: built once, decorated). */
    deps: ServiceDeps;
    /** The dated price table (R11, docs/decisions/025). */
    prices: PriceBook;
  }
}

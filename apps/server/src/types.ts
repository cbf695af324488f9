import type { IMessageVars } from '@dealerpass/domain/messages';
import type { Config } from './config.ts';
import type { CaptchaVerifier } from './adapters/captcha/captcha-verifier.ts';
import type { AltchaChallenge } from './adapters/captcha/altcha-verifier.ts';
import type { MailTransport } from './adapters/mail/mail-transport.ts';
import type { DatabaseHandle, Database } from './db/client.ts';
import type { Keys } from './lib/keys.ts';
import type { PaymentGateway } from './adapters/payments/payment-gateway.ts';

/** The services every route can reach as typed decorators (fastify/demo's pattern). */
declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    database: DatabaseHandle;
    db: Database;
    keys: Keys;
    /** The clock of the whole server; tests inject their own. */
    now: () => Date;
    /** The company's name and support phone as the message catalogue's texts fill them in. */
    messageVars: IMessageVars;
    /** The payment gateway port (DECISIONS R5). */
    payments: PaymentGateway;
    captcha: CaptchaVerifier & { createChallenge?: () => Promise<AltchaChallenge> };
    mail: {
      transport: MailTransport;
      /** Delivers pending outbox rows now instead of at the next tick; resolves when that run ends. */
      kick(): Promise<void>;
    };
  }
}

export {};

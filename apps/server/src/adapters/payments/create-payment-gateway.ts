import type { Database } from '../../db/client.ts';
import { createAuthorizeNetGateway } from './authorize-net.ts';
import type { PaymentGateway } from './payment-gateway.ts';
import type { PaymentsConfig } from './payments-config.ts';
import { createSandboxGateway } from '../../sandboxes/payments/sandbox-gateway.ts';

/** The gateway the configuration names (payments-config.ts): Authorize.Net or the sandbox. */
export function createPaymentGateway(options: {
  config: PaymentsConfig;
  db: Database;
  now: () => Date;
  /** How the Authorize.Net adapter reaches the network (tests hand in their own). */
  fetch?: typeof fetch;
}): PaymentGateway {
  const { config, db, now } = options;
  if (config.kind === 'authorize-net') {
    return createAuthorizeNetGateway({
      config,
      db,
      now,
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
  }
  return createSandboxGateway({ db, now, delayMs: config.delayMs });
}

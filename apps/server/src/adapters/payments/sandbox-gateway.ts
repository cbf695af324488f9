import { setTimeout as sleep } from 'node:timers/promises';
import type { Database } from '../../db/client.ts';
import { assertAmountCents, type PaymentGateway } from './payment-gateway.ts';
import {
  chargeSandboxProfile,
  createSandboxCustomer,
  deleteSandboxPaymentProfile,
  refundSandboxCharge,
  replaceSandboxPaymentProfile,
} from './sandbox/sandbox-ledger.ts';

/** Where the browser posts card fields; outside /api, since it stands for a third party. */
export const SANDBOX_TOKEN_URL = '/sandbox-gateway/v1/tokens';

export interface SandboxGatewayOptions {
  db: Database;
  now: () => Date;
  /** Milliseconds every charge takes, to see in-flight states and time the billing run. */
  delayMs?: number;
}

/**
 * The embedded default gateway (DECISIONS R5, R8): the port over the sandbox's own ledger. Its
 * test cards decide each charge's outcome (sandbox/test-cards.ts).
 */
export function createSandboxGateway(options: SandboxGatewayOptions): PaymentGateway {
  const { db, now } = options;
  const delayMs = options.delayMs ?? 0;
  return {
    kind: 'sandbox',
    publicConfig: () => ({ kind: 'sandbox', tokenUrl: SANDBOX_TOKEN_URL }),
    createCustomerProfile: (input) =>
      createSandboxCustomer(
        db,
        {
          merchantCustomerId: input.accountId,
          email: input.email,
          paymentToken: input.paymentToken,
        },
        now(),
      ),
    replacePaymentProfile: (input) => replaceSandboxPaymentProfile(db, input, now()),
    deletePaymentProfile: (input) => deleteSandboxPaymentProfile(db, input, now()),
    async charge(input) {
      assertAmountCents(input.amountCents);
      if (delayMs > 0) await sleep(delayMs);
      return chargeSandboxProfile(db, input, now());
    },
    async refund(input) {
      assertAmountCents(input.amountCents);
      return refundSandboxCharge(db, input, now());
    },
  };
}

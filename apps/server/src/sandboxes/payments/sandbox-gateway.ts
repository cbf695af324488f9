import { setTimeout as sleep } from 'node:timers/promises';
import type { Database } from '../../db/client.ts';
import {
  assertAmountCents,
  type ChargeResult,
  type PaymentGateway,
} from '../../adapters/payments/payment-gateway.ts';
import {
  chargeSandboxProfiles,
  createSandboxCustomer,
  deleteSandboxPaymentProfile,
  refundSandboxCharge,
  replaceSandboxPaymentProfile,
  type SandboxChargeRequest,
} from './sandbox-ledger.ts';

/** Where the browser posts card fields; outside /api, since it stands for a third party. */
export const SANDBOX_TOKEN_URL = '/sandbox-gateway/v1/tokens';

export interface SandboxGatewayOptions {
  db: Database;
  now: () => Date;
  /** Milliseconds every charge takes, to see in-flight states and time the billing run. */
  delayMs?: number;
}

/** Charges the sandbox writes together at most (one statement each). */
const CHARGES_PER_WRITE = 1000;

/**
 * The embedded default gateway (DECISIONS R5, R8): the port over the sandbox's own ledger. Its
 * test cards decide each charge's outcome (test-cards.ts). Charges that arrive in the
 * same turn of the event loop are written to the ledger together; each call still has its own
 * key, outcome and error, as at a real gateway.
 */
export function createSandboxGateway(options: SandboxGatewayOptions): PaymentGateway {
  const { db, now } = options;
  const delayMs = options.delayMs ?? 0;
  const waiting: {
    request: SandboxChargeRequest;
    settle: (outcome: PromiseSettledResult<ChargeResult>) => void;
  }[] = [];
  let flushing = false;

  function flush() {
    const batch = waiting.splice(0, CHARGES_PER_WRITE);
    if (waiting.length > 0) setImmediate(flush);
    else flushing = false;
    chargeSandboxProfiles(
      db,
      batch.map(({ request }) => request),
    ).then(
      (outcomes) => batch.forEach(({ settle }, i) => settle(outcomes[i]!)),
      (reason: unknown) => batch.forEach(({ settle }) => settle({ status: 'rejected', reason })),
    );
  }

  return {
    kind: 'sandbox',
    chargeConcurrency: CHARGES_PER_WRITE,
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
      const outcome = await new Promise<PromiseSettledResult<ChargeResult>>((settle) => {
        waiting.push({ request: { input, at: now() }, settle });
        if (!flushing) {
          flushing = true;
          setImmediate(flush);
        }
      });
      if (outcome.status === 'rejected') throw outcome.reason;
      return outcome.value;
    },
    async refund(input) {
      assertAmountCents(input.amountCents);
      return refundSandboxCharge(db, input, now());
    },
  };
}

import { eq } from 'drizzle-orm';
import { authorizeNetOperations } from '../../db/schema.ts';
import type { AuthorizeNet } from './authorize-net-context.ts';
import { PaymentGatewayError, type DeclineReason } from './payment-gateway.ts';

/** One charge or refund under our idempotency key, at its attempt (docs/decisions/010). */
export interface Operation {
  idempotencyKey: string;
  kind: 'charge' | 'refund';
  requestHash: string;
  attempt: number;
}

/**
 * What is stored of an operation's key (authorize_net_operations); the same key for another
 * request is refused.
 */
export async function loadOperation({ db }: AuthorizeNet, operation: Omit<Operation, 'attempt'>) {
  const [row] = await db
    .select()
    .from(authorizeNetOperations)
    .where(eq(authorizeNetOperations.idempotencyKey, operation.idempotencyKey));
  if (row && (row.kind !== operation.kind || row.requestHash !== operation.requestHash)) {
    throw new PaymentGatewayError(
      'idempotency_conflict',
      'the idempotency key was used before for a different request',
    );
  }
  return row;
}

/** Stores an operation's outcome (or its next attempt) under its key. */
export async function recordOperation(
  { db, now }: AuthorizeNet,
  operation: Operation,
  outcome: {
    status: 'retry' | 'held' | 'approved' | 'declined' | 'refunded';
    attempt?: number;
    transactionId?: string;
    declineReason?: DeclineReason;
  },
): Promise<void> {
  const values = {
    status: outcome.status,
    attempt: outcome.attempt ?? operation.attempt,
    transactionId: outcome.transactionId ?? null,
    declineReason: outcome.declineReason ?? null,
    updatedAt: now(),
  };
  await db
    .insert(authorizeNetOperations)
    .values({
      idempotencyKey: operation.idempotencyKey,
      kind: operation.kind,
      requestHash: operation.requestHash,
      ...values,
    })
    .onConflictDoUpdate({ target: authorizeNetOperations.idempotencyKey, set: values });
}

import { createHash, randomBytes } from 'node:crypto';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Database, Transaction } from '../../db/client.ts';
import {
  sandboxGatewayCustomers,
  sandboxGatewayPaymentProfiles,
  sandboxGatewayTransactions,
} from '../../db/sandbox-schema.ts';
import {
  PaymentGatewayError,
  type ChargeInput,
  type ChargeResult,
  type CustomerProfile,
  type DeclineReason,
  type PaymentProfile,
  type RefundInput,
  type RefundResult,
} from '../../adapters/payments/payment-gateway.ts';
import { redeemSandboxToken } from './sandbox-tokens.ts';
import type { SandboxBehaviour } from './test-cards.ts';

/**
 * The sandbox gateway's server side: customer and payment profiles, charges and refunds, kept in
 * its own tables. The sandbox adapter calls it in process, as the Authorize.Net adapter calls
 * Authorize.Net over HTTPS.
 */

export async function createSandboxCustomer(
  db: Database,
  input: { merchantCustomerId: string; email: string; paymentToken: string },
  now: Date,
): Promise<CustomerProfile> {
  return db.transaction(async (tx) => {
    const card = await redeemSandboxToken(tx, input.paymentToken, now);
    const customerProfileId = newId('sbx_cus_');
    await tx.insert(sandboxGatewayCustomers).values({
      id: customerProfileId,
      merchantCustomerId: input.merchantCustomerId,
      email: input.email,
      createdAt: now,
    });
    const profile = await insertPaymentProfile(tx, customerProfileId, card, now);
    return { customerProfileId, ...profile };
  });
}

/** The new card becomes the customer's only payment profile. */
export async function replaceSandboxPaymentProfile(
  db: Database,
  input: { customerProfileId: string; paymentToken: string },
  now: Date,
): Promise<PaymentProfile> {
  return db.transaction(async (tx) => {
    const [customer] = await tx
      .select({ id: sandboxGatewayCustomers.id })
      .from(sandboxGatewayCustomers)
      .where(eq(sandboxGatewayCustomers.id, input.customerProfileId))
      .for('update');
    if (!customer) throw notFound('customer profile');
    const card = await redeemSandboxToken(tx, input.paymentToken, now);
    await tx
      .update(sandboxGatewayPaymentProfiles)
      .set({ deletedAt: now })
      .where(
        and(
          eq(sandboxGatewayPaymentProfiles.customerId, customer.id),
          isNull(sandboxGatewayPaymentProfiles.deletedAt),
        ),
      );
    return insertPaymentProfile(tx, customer.id, card, now);
  });
}

export async function deleteSandboxPaymentProfile(
  db: Database,
  input: { customerProfileId: string; paymentProfileId: string },
  now: Date,
): Promise<void> {
  await db
    .update(sandboxGatewayPaymentProfiles)
    .set({ deletedAt: now })
    .where(
      and(
        eq(sandboxGatewayPaymentProfiles.id, input.paymentProfileId),
        eq(sandboxGatewayPaymentProfiles.customerId, input.customerProfileId),
        isNull(sandboxGatewayPaymentProfiles.deletedAt),
      ),
    );
}

/** One charge request as the sandbox received it. */
export interface SandboxChargeRequest {
  input: ChargeInput;
  /** When it arrived: the transaction's time. */
  at: Date;
}

/**
 * Charges received at about the same moment: the payment profile's test behaviour decides each
 * outcome. The idempotency key is unique in the table, so of two calls with one key (at the same
 * moment, even in one batch) one row is written and both answer it.
 *
 * The usual case, a first call on a live profile that does not fail, is one statement for the
 * whole batch, as a gateway's servers take many merchants' requests at once; anything else (a
 * repeated key, a removed profile, the processor-error card) is then answered one by one. Each
 * request settles on its own: one failure does not fail the others.
 */
export async function chargeSandboxProfiles(
  db: Database,
  requests: readonly SandboxChargeRequest[],
): Promise<PromiseSettledResult<ChargeResult>[]> {
  const ids = requests.map(() => newId('sbx_txn_'));
  const hashes = requests.map(({ input }) => chargeRequestHash(input));
  const declines = Object.keys(DECLINES);
  const column = <T>(pick: (request: SandboxChargeRequest) => T) => sql.param(requests.map(pick));
  const written = (await db.execute(sql`
    insert into ${sandboxGatewayTransactions} (id, idempotency_key, request_hash, kind, status,
      decline_reason, amount_cents, payment_profile_id, description, created_at)
    select request.id, request.idempotency_key, request.request_hash, 'charge',
      case when profile.behaviour = any(${sql.param(declines)}::text[])
        then 'declined' else 'approved' end,
      case when profile.behaviour = any(${sql.param(declines)}::text[])
        then profile.behaviour end,
      request.amount_cents, profile.id, request.description, request.created_at
    from unnest(
      ${sql.param(ids)}::text[],
      ${column(({ input }) => input.idempotencyKey)}::text[],
      ${sql.param(hashes)}::text[],
      ${column(({ input }) => input.amountCents)}::int[],
      ${column(({ input }) => input.description)}::text[],
      ${column(({ input }) => input.paymentProfileId)}::text[],
      ${column(({ input }) => input.customerProfileId)}::text[],
      ${column(({ at }) => at.toISOString())}::timestamptz[]
    ) as request (id, idempotency_key, request_hash, amount_cents, description,
      payment_profile_id, customer_id, created_at)
    join ${sandboxGatewayPaymentProfiles} as profile
      on profile.id = request.payment_profile_id
      and profile.customer_id = request.customer_id
      and profile.deleted_at is null
      and profile.behaviour <> 'processor_error'
    on conflict (idempotency_key) do nothing
    returning id, status, decline_reason`)) as unknown as {
    rows: { id: string; status: 'approved' | 'declined'; decline_reason: DeclineReason | null }[];
  };
  const fresh = new Map(written.rows.map((row) => [row.id, row]));
  return Promise.allSettled(
    requests.map(async ({ input, at }, i): Promise<ChargeResult> => {
      const row = fresh.get(ids[i]!);
      if (!row) return chargeOneByOne(db, input, hashes[i]!, at);
      return row.status === 'approved'
        ? { status: 'approved', transactionId: row.id }
        : { status: 'declined', reason: row.decline_reason ?? 'declined' };
    }),
  );
}

/** A charge the batch did not write: a repeated key, or a profile that cannot be charged. */
async function chargeOneByOne(
  db: Database,
  input: ChargeInput,
  requestHash: string,
  now: Date,
): Promise<ChargeResult> {
  const earlier = await findByKey(db, input.idempotencyKey);
  if (earlier) return chargeResultOf(earlier, requestHash);

  const [profile] = await db
    .select()
    .from(sandboxGatewayPaymentProfiles)
    .where(
      and(
        eq(sandboxGatewayPaymentProfiles.id, input.paymentProfileId),
        eq(sandboxGatewayPaymentProfiles.customerId, input.customerProfileId),
        isNull(sandboxGatewayPaymentProfiles.deletedAt),
      ),
    );
  if (!profile) throw notFound('payment profile');
  if (profile.behaviour === 'processor_error') {
    throw new PaymentGatewayError('processor_error', 'sandbox test card: processor error');
  }
  const declineReason = DECLINES[profile.behaviour] ?? null;
  const [inserted] = await db
    .insert(sandboxGatewayTransactions)
    .values({
      id: newId('sbx_txn_'),
      idempotencyKey: input.idempotencyKey,
      requestHash,
      kind: 'charge',
      status: declineReason ? 'declined' : 'approved',
      declineReason,
      amountCents: input.amountCents,
      paymentProfileId: profile.id,
      description: input.description,
      createdAt: now,
    })
    .onConflictDoNothing({ target: sandboxGatewayTransactions.idempotencyKey })
    .returning();
  const row = inserted ?? (await findByKey(db, input.idempotencyKey));
  if (!row) throw new Error('sandbox charge row vanished');
  return chargeResultOf(row, requestHash);
}

function chargeRequestHash(input: ChargeInput): string {
  return hashRequest([
    'charge',
    input.customerProfileId,
    input.paymentProfileId,
    input.amountCents,
  ]);
}

/** A refund of (part of) an approved charge; all refunds of one charge never exceed it. */
export async function refundSandboxCharge(
  db: Database,
  input: RefundInput,
  now: Date,
): Promise<RefundResult> {
  const requestHash = hashRequest(['refund', input.transactionId, input.amountCents]);
  return db.transaction(async (tx) => {
    // The charge row is the lock that orders refunds of one charge.
    const [charge] = await tx
      .select()
      .from(sandboxGatewayTransactions)
      .where(
        and(
          eq(sandboxGatewayTransactions.id, input.transactionId),
          eq(sandboxGatewayTransactions.kind, 'charge'),
        ),
      )
      .for('update');
    if (!charge) throw notFound('transaction');

    const earlier = await findByKey(tx, input.idempotencyKey);
    if (earlier) return refundResultOf(earlier, requestHash);

    if (charge.status !== 'approved') {
      throw new PaymentGatewayError('refund_not_allowed', 'only an approved charge is refunded');
    }
    const [refunded] = await tx
      .select({
        total: sql<number>`coalesce(sum(${sandboxGatewayTransactions.amountCents}), 0)::int`,
      })
      .from(sandboxGatewayTransactions)
      .where(
        and(
          eq(sandboxGatewayTransactions.chargeId, charge.id),
          eq(sandboxGatewayTransactions.kind, 'refund'),
        ),
      );
    if ((refunded?.total ?? 0) + input.amountCents > charge.amountCents) {
      throw new PaymentGatewayError('refund_not_allowed', 'the refund exceeds the charge');
    }
    const [row] = await tx
      .insert(sandboxGatewayTransactions)
      .values({
        id: newId('sbx_ref_'),
        idempotencyKey: input.idempotencyKey,
        requestHash,
        kind: 'refund',
        status: 'refunded',
        amountCents: input.amountCents,
        paymentProfileId: charge.paymentProfileId,
        chargeId: charge.id,
        createdAt: now,
      })
      .returning();
    if (!row) throw new Error('sandbox refund row was not written');
    return refundResultOf(row, requestHash);
  });
}

const DECLINES: Partial<Record<SandboxBehaviour, DeclineReason>> = {
  declined: 'declined',
  insufficient_funds: 'insufficient_funds',
  expired_card: 'expired_card',
};

type TransactionRow = typeof sandboxGatewayTransactions.$inferSelect;

async function findByKey(
  db: Database | Transaction,
  idempotencyKey: string,
): Promise<TransactionRow | undefined> {
  const [row] = await db
    .select()
    .from(sandboxGatewayTransactions)
    .where(eq(sandboxGatewayTransactions.idempotencyKey, idempotencyKey));
  return row;
}

function chargeResultOf(row: TransactionRow, requestHash: string): ChargeResult {
  if (row.kind !== 'charge' || row.requestHash !== requestHash) throw idempotencyConflict();
  if (row.status === 'approved') return { status: 'approved', transactionId: row.id };
  return { status: 'declined', reason: row.declineReason ?? 'declined' };
}

function refundResultOf(row: TransactionRow, requestHash: string): RefundResult {
  if (row.kind !== 'refund' || row.requestHash !== requestHash) throw idempotencyConflict();
  return { status: 'refunded', refundId: row.id };
}

async function insertPaymentProfile(
  tx: Transaction,
  customerId: string,
  card: Awaited<ReturnType<typeof redeemSandboxToken>>,
  now: Date,
): Promise<PaymentProfile> {
  const paymentProfileId = newId('sbx_pp_');
  await tx.insert(sandboxGatewayPaymentProfiles).values({
    id: paymentProfileId,
    customerId,
    cardBrand: card.brand,
    cardLast4: card.last4,
    cardExpiration: card.expiration,
    behaviour: card.behaviour,
    createdAt: now,
  });
  return {
    paymentProfileId,
    card: { brand: card.brand, last4: card.last4, expiration: card.expiration },
  };
}

function newId(prefix: string): string {
  return `${prefix}${randomBytes(12).toString('hex')}`;
}

function hashRequest(parts: unknown[]): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex');
}

function notFound(what: string): PaymentGatewayError {
  return new PaymentGatewayError('not_found', `no such ${what} in the sandbox gateway`);
}

function idempotencyConflict(): PaymentGatewayError {
  return new PaymentGatewayError(
    'idempotency_conflict',
    'the idempotency key was used before for a different request',
  );
}

import type { TAccountEvent } from '@dealerpass/domain/account/status-transitions';
import { isSubscriptionCode, type TSubscriptionCode } from '@dealerpass/domain/catalogue';
import {
  classifyChange,
  mrrContributionCents,
  type TChurnCause,
} from '@dealerpass/domain/overview/figures';
import { quote, type TPriceTable } from '@dealerpass/domain/prices';
import { ACCOUNT_STATUS } from '@dealerpass/domain/account/status';
import { and, desc, eq, isNull, lte, sql } from 'drizzle-orm';
import type { Database, Transaction } from '../../db/client.ts';
import { accountEvents, accountMrrHistory, subscriptions, users } from '../../db/schema.ts';
import { loadPriceTable } from '../prices/price-book.ts';

/** What changed an account's recurring state: a status event, the sign-up, or neither (a selection). */
export type TMrrChangeEvent = TAccountEvent | 'signUp' | null;

/** The selection's monthly total at an instant (R3's rules at the prices in force then). */
export function monthlyCentsOf(codes: readonly string[], at: Date, table: TPriceTable): number {
  const known = codes.filter((code): code is TSubscriptionCode => isSubscriptionCode(code));
  return known.length === 0 ? 0 : quote(known, at, table).totalCents;
}

/**
 * Writes the account's recurring state from `at` into its MRR history (docs/decisions/042), in the
 * caller's transaction, after the caller changed its status, selection or complimentary flag: the
 * open row is closed at `at` and a new one opened, unless nothing R18 counts changed. The row
 * carries the domain's reading of the change (new, reactivated, churned with its cause and the
 * cancellation's reason, dunning entered or recovered).
 */
export async function recordMrrState(
  tx: Transaction,
  input: {
    userId: string;
    at: Date;
    event: TMrrChangeEvent;
    /** The status before the change, for an account whose history has no row yet. */
    fromStatus?: string | null;
    /** The price table, when the caller has it; read in the transaction otherwise. */
    prices?: TPriceTable;
  },
): Promise<void> {
  const { userId, event } = input;
  const [account] = await tx
    .select({
      status: users.accountStatus,
      complimentary: users.complimentary,
      codes: subscriptions.codes,
    })
    .from(users)
    .leftJoin(subscriptions, eq(subscriptions.userId, users.id))
    .where(eq(users.id, userId));
  if (!account) return;
  const [open] = await tx
    .select()
    .from(accountMrrHistory)
    .where(and(eq(accountMrrHistory.userId, userId), isNull(accountMrrHistory.validTo)))
    .for('update');
  // Never before the open row: two changes in one instant leave an empty row between them.
  const at = open && open.validFrom.getTime() > input.at.getTime() ? open.validFrom : input.at;
  const codes = account.codes ?? [];
  const table = input.prices ?? (await loadPriceTable(tx));
  const monthlyCents = monthlyCentsOf(codes, at, table);
  const mrrCents = mrrContributionCents({
    status: account.status,
    complimentary: account.complimentary,
    monthlyCents,
  });
  if (
    open &&
    open.status === account.status &&
    open.complimentary === account.complimentary &&
    open.monthlyCents === monthlyCents &&
    open.codes.join(',') === codes.join(',')
  ) {
    return;
  }
  const from = open ? open.status : event === 'signUp' ? null : (input.fromStatus ?? null);
  const { movement, cause } = classifyChange(from, account.status, event);
  const reason =
    account.status === ACCOUNT_STATUS.pendingCancel
      ? await latestCancellationReason(tx, userId, at)
      : movement === 'churned'
        ? await churnReason(tx, userId, at, cause, open?.reason ?? null)
        : null;
  if (open) {
    await tx
      .update(accountMrrHistory)
      .set({ validTo: at })
      .where(eq(accountMrrHistory.id, open.id));
  }
  await tx.insert(accountMrrHistory).values({
    userId,
    validFrom: at,
    status: account.status,
    complimentary: account.complimentary,
    codes,
    monthlyCents,
    mrrCents,
    movement,
    cause,
    reason,
    dunningSince: movement === 'dunningRecovered' ? await dunningSince(tx, userId, at) : null,
  });
}

/** A churn by cancellation names the reason the dealer gave (000 §3); other causes have none. */
async function churnReason(
  tx: Transaction,
  userId: string,
  at: Date,
  cause: TChurnCause | null,
  carried: string | null,
): Promise<string | null> {
  if (cause !== 'cancellation' && cause !== 'trialCancellation') return null;
  return carried ?? (await latestCancellationReason(tx, userId, at));
}

async function latestCancellationReason(
  tx: Transaction,
  userId: string,
  at: Date,
): Promise<string | null> {
  const [row] = await tx
    .select({ reason: sql<string | null>`${accountEvents.details}->>'reason'` })
    .from(accountEvents)
    .where(
      and(
        eq(accountEvents.userId, userId),
        eq(accountEvents.event, 'cancellation reason'),
        lte(accountEvents.at, at),
      ),
    )
    .orderBy(desc(accountEvents.at))
    .limit(1);
  return row?.reason ?? null;
}

/** When the account's current stay in validating payment began (the first row of the run). */
async function dunningSince(tx: Transaction, userId: string, at: Date): Promise<Date | null> {
  const [row] = await tx
    .select({ at: accountMrrHistory.validFrom })
    .from(accountMrrHistory)
    .where(
      and(
        eq(accountMrrHistory.userId, userId),
        eq(accountMrrHistory.movement, 'dunningEntered'),
        lte(accountMrrHistory.validFrom, at),
      ),
    )
    .orderBy(desc(accountMrrHistory.validFrom))
    .limit(1);
  return row?.at ?? null;
}

/** The same outside a transaction of the caller's (scripts, the backfill's repairs). */
export async function recordMrrStateNow(
  db: Database,
  input: Parameters<typeof recordMrrState>[1],
): Promise<void> {
  await db.transaction((tx) => recordMrrState(tx, input));
}

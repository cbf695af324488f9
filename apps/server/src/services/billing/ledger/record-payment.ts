import { ACCOUNT_STATUS } from '@dealerpass/domain/account/status';
import { renewalOutcomeEvent } from '@dealerpass/domain/account/status-transitions';
import { sql } from 'drizzle-orm';
import { calendarDateIn, toIsoDate } from '@dealerpass/domain/time/calendar-date';
import { anyOf, unnestRows } from '../../../db/bulk.ts';
import type { Transaction } from '../../../db/client.ts';
import { billingPeriods, payments } from '../../../db/schema.ts';
import { enqueueMails, type MailToSend } from '../../mail/enqueue-mail.ts';
import { addBalanceEntries, paidPeriodEntries, type BalanceEntry } from '../account-balance.ts';
import { settleYearsPaidByCard } from '../../annual-billing/owed-year.ts';
import { advancePeriods } from './advance-periods.ts';
import type { ApprovedCharge, BillingDeps, ClaimedRenewal } from './billing-deps.ts';
import { lockAccounts } from './lock-account.ts';
import { inlineReceiptRenderer } from '../../receipts/receipt-renderer.ts';
import { paymentToRecord, recordOf, type IPaymentToRecord } from './payment-record.ts';
import { changeAccountStatus } from './change-account-status.ts';
import { billedWhilePendingCancel } from './record-decline.ts';

/** Where receipts are rendered when the deps name no renderer (tests and scripts). */
const INLINE_RECEIPTS = inlineReceiptRenderer();

/** Records an approved charge of a period: payment row, stored receipt, period paid, next period, mail. */
export async function recordPayment(
  tx: Transaction,
  deps: BillingDeps,
  renewal: ClaimedRenewal,
  transactionId: string,
  now: Date,
): Promise<void> {
  await recordPayments(tx, deps, [{ renewal, transactionId }], now);
}

/**
 * Records approved charges in one transaction, with a few multi-row statements for the whole
 * batch: a payment row with its receipt (made once, here, with its CRC-32) per period, the
 * periods paid, the accounts' next periods, the receipts' e-mails. A period already paid (by an
 * earlier run that crashed after its record) is skipped; the unique payment per period is the
 * last guard.
 */
export async function recordPayments(
  tx: Transaction,
  deps: BillingDeps,
  charges: readonly ApprovedCharge[],
  now: Date,
): Promise<void> {
  if (charges.length === 0) return;
  const periodIds = charges.map((charge) => charge.renewal.periodId);
  // The accounts first, in one order, then their periods (docs/decisions/028).
  const userRows = await lockAccounts(
    tx,
    charges.map((charge) => charge.renewal.userId),
  );
  const periodRows = await tx
    .select()
    .from(billingPeriods)
    .where(anyOf(billingPeriods.id, periodIds, 'uuid'))
    .orderBy(billingPeriods.id)
    .for('update');
  const periodOf = new Map(periodRows.map((row) => [row.id, row]));
  const userOf = new Map(userRows.map((row) => [row.id, row]));
  const activationDate = toIsoDate(calendarDateIn(now, deps.timeZone));

  const toRecord: IPaymentToRecord[] = [];
  const settled: { period: (typeof periodRows)[number]; user: (typeof userRows)[number] }[] = [];
  for (const { renewal, transactionId } of charges) {
    const period = periodOf.get(renewal.periodId);
    const user = userOf.get(renewal.userId);
    if (!period || !user) throw new Error('period or user vanished');
    if (period.status === 'paid') continue; // recorded by an earlier run
    toRecord.push(
      paymentToRecord({
        company: deps.company,
        user,
        period,
        card: {
          brand: renewal.cardBrand ?? period.cardBrand ?? user.cardBrand,
          last4: renewal.cardLast4 ?? period.cardLast4 ?? user.cardLast4,
        },
        transactionId,
        activationDate,
        now,
      }),
    );
    settled.push({ period, user });
  }
  // The batch's receipts, rendered together (on threads in the server, decision 067).
  const columns = await (deps.receipts ?? INLINE_RECEIPTS).render(
    toRecord.map((payment) => payment.receipt),
  );
  const records = toRecord.map((payment, i) => recordOf(payment, columns[i]!));
  const rows = records.map((record) => record.row);
  const mails: MailToSend[] = records.map((record) => record.mail);
  if (rows.length === 0) return;
  const paid = unnestRows(rows, {
    id: ['uuid', (row) => row.id],
    user_id: ['uuid', (row) => row.userId],
    billing_period_id: ['uuid', (row) => row.billingPeriodId],
    amount_cents: ['int', (row) => row.amountCents],
    gateway_transaction_id: ['text', (row) => row.gatewayTransactionId],
    card_brand: ['text', (row) => row.cardBrand],
    card_last4: ['text', (row) => row.cardLast4],
    activation_date: ['date', (row) => row.activationDate],
    receipt_pdf: ['bytea', (row) => row.receiptPdf],
    receipt_crc32: ['bigint', (row) => row.receiptCrc32],
    created_at: ['timestamptz', () => now.toISOString()],
  });
  const inserted = (await tx.execute(sql`
    insert into ${payments} (${paid.names}) ${paid.select}
    on conflict (billing_period_id) do nothing
    returning billing_period_id`)) as unknown as { rows: { billing_period_id: string }[] };
  const recorded = new Set(inserted.rows.map((row) => row.billing_period_id));
  if (recorded.size === 0) return;
  const done = settled.filter(({ period }) => recorded.has(period.id));
  // The balance follows: each period's charge (if a decline has not recorded it already) and
  // its payment.
  await addBalanceEntries(
    tx,
    rows
      .filter((row) => recorded.has(row.billingPeriodId))
      .flatMap((row): BalanceEntry[] =>
        paidPeriodEntries(periodOf.get(row.billingPeriodId)!, {
          id: row.id!,
          amountCents: row.amountCents,
        }),
      ),
    now,
  );
  await tx
    .update(billingPeriods)
    .set({ status: 'paid', settledAt: now })
    .where(anyOf(billingPeriods.id, [...recorded], 'uuid'));
  // R14: a year owed after a returned check, paid by card, is the account's year again.
  const yearsAhead = await settleYearsPaidByCard(
    tx,
    done.map(({ period }) => period),
    activationDate,
    now,
  );
  await advancePeriods(
    tx,
    done
      .filter(({ period }) => !yearsAhead.has(period.id))
      .map(({ period }) => ({
        userId: period.userId,
        periodStart: period.periodStart,
        periodEnd: period.periodEnd,
      })),
    now,
  );
  for (const { user, period } of done) {
    // A block made while the charge was in flight stands: the payment is recorded, the status
    // stays (a blocked account takes no charge's answer, status-transitions). So does a pending
    // cancellation that paid a year owed after a returned check (decision 054) or a month before
    // a paid year (decision 058).
    if (
      user.accountStatus !== ACCOUNT_STATUS.active &&
      user.accountStatus !== ACCOUNT_STATUS.blocked &&
      !(await billedWhilePendingCancel(tx, user.accountStatus, user.id, period, period.periodStart))
    ) {
      await changeAccountStatus(tx, {
        userId: user.id,
        from: user.accountStatus,
        event: renewalOutcomeEvent(user.accountStatus, 'succeeded'),
        note: 'renewal paid',
        actor: 'billing-run',
        now,
      });
    }
  }
  await enqueueMails(
    tx,
    mails.filter((_, i) => recorded.has(settled[i]!.period.id)),
    deps.mailKind,
  );
}

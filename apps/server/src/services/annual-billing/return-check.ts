import { annualBillingMail } from '../mail/messages/annual-billing-mail.ts';
import { eq } from 'drizzle-orm';
import { canTake } from '@dealerpass/domain/account/status-transitions';
import { scheduledRetryAt } from '@dealerpass/domain/billing/dunning';
import {
  billDateOfCycle,
  cycleIndexOn,
  PAYMENT_RETRY_DAYS,
} from '@dealerpass/domain/billing/renewal-calendar';
import { ERROR_CODES } from '@dealerpass/domain/messages';
import { formatCurrency } from '@dealerpass/domain/money';
import type { IInvoice } from '@dealerpass/domain/schemas/annual-billing';
import { parseIsoDate, toIsoDate } from '@dealerpass/domain/time/calendar-date';
import type { Database } from '../../db/client.ts';
import {
  accountEvents,
  billingPeriods,
  checks,
  invoices,
  payments,
  subscriptions,
  users,
} from '../../db/schema.ts';
import { AppError } from '../../errors/app-error.ts';
import { addBalanceEntries, periodChargeEntry } from '../billing/account-balance.ts';
import type { BillingDeps } from '../billing/ledger/billing-deps.ts';
import { changeAccountStatus } from '../billing/ledger/change-account-status.ts';
import { lockAccount } from '../billing/ledger/lock-account.ts';
import { enqueueMail } from '../mail/enqueue-mail.ts';
import { oncePerKey } from '../request-keys/once-per-key.ts';
import { writeStaffAudit, type StaffActor } from '../admin/audit/staff-audit.ts';
import { businessDate, findAccountInvoice, invoiceViewById } from './invoice-records.ts';
import { annualDaysWithout } from './owed-year.ts';
import { standingCheck } from './record-check.ts';

const isoDate = (text: string) => {
  const date = parseIsoDate(text);
  if (!date) throw new Error(`not a date: ${text}`);
  return date;
};

/**
 * A check that paid an invoice came back unpaid (R14): the payment is reversed and the amount is
 * owed; the account becomes validating payment and R4's retries charge the card on file (with no
 * card, the retries fail and the account becomes inactive at the last retry date, as R4 has it).
 * From the day of the return, whether the year has started or not (decision 052).
 *
 * How, with the billing run's own machinery: the check's period is marked refunded (no longer a
 * billed period) and the same year is opened again as a due period, charged to the ledger now;
 * the account's next bill date goes back to the year's start if it had moved past it, with the
 * first retry a day from now. The run's claim takes an account with such an owed year when its
 * retry is due, before its bill date, and charges that period with the card on file (owed-year.ts:
 * paid, it is the account's year again). The invoice becomes void (it no longer asks for
 * anything: the amount is in the balance). Once per request key; the account locked first.
 */
export async function returnCheck(
  db: Database,
  deps: BillingDeps,
  input: {
    userId: string;
    invoiceId: string;
    now: Date;
    body: { requestKey: string; reason: string };
    params: Record<string, string>;
    actor: StaffActor;
  },
): Promise<IInvoice> {
  await oncePerKey<{ invoiceId: string }>(
    db,
    {
      owner: { staffId: input.actor.staffId },
      action: 'returnedCheck',
      target: input.params,
      body: input.body,
    },
    {
      act: async (tx) => {
        const { now } = input;
        const user = await lockAccount(tx, input.userId);
        if (!user) throw new AppError(ERROR_CODES.NOT_FOUND);
        const invoice = await findAccountInvoice(tx, user.id, input.invoiceId, true);
        const check = invoice.status === 'paid' ? await standingCheck(tx, invoice.id) : null;
        if (!check) throw new AppError(ERROR_CODES.CHECK_NOT_RETURNABLE);
        const [subscription] = await tx
          .select()
          .from(subscriptions)
          .where(eq(subscriptions.userId, user.id))
          .for('update');
        const [paid] = await tx
          .select()
          .from(billingPeriods)
          .where(eq(billingPeriods.id, check.billingPeriodId))
          .for('update');
        if (!subscription || !paid) throw new Error('subscription or period vanished');
        const today = businessDate(now, deps.timeZone);
        // A year already over cannot be taken back: the run has billed what followed it.
        if (invoice.nextStart <= subscription.currentPeriodStart && invoice.nextStart <= today) {
          throw new AppError(ERROR_CODES.CHECK_NOT_RETURNABLE);
        }

        await tx
          .update(billingPeriods)
          .set({ status: 'refunded', settledAt: now })
          .where(eq(billingPeriods.id, paid.id));
        await tx
          .update(payments)
          .set({ status: 'refunded', refundedAt: now })
          .where(eq(payments.id, check.paymentId));
        const [due] = await tx
          .insert(billingPeriods)
          .values({
            userId: user.id,
            kind: 'annual',
            periodStart: paid.periodStart,
            periodEnd: paid.periodEnd,
            amountCents: paid.amountCents,
            quote: paid.quote,
            status: 'due',
            attempt: 1,
            idempotencyKey: `annual:${user.id}:${paid.periodStart}:1`,
            createdAt: now,
          })
          .returning();
        if (!due) throw new Error('the owed period was not written');
        // Owed from now: the run's decline or payment of the period finds its charge recorded.
        await addBalanceEntries(tx, [periodChargeEntry(due)], now);
        await tx
          .update(checks)
          .set({ returnedOn: today, returnReason: input.body.reason })
          .where(eq(checks.id, check.id));
        await tx
          .update(invoices)
          .set({
            status: 'void',
            voidedOn: today,
            voidedBy: 'returned check',
            voidReason: input.body.reason,
          })
          .where(eq(invoices.id, invoice.id));

        // The year is the account's due period again: back to its start if the run moved past it.
        const anchor = isoDate(subscription.cycleAnchor);
        const start = isoDate(paid.periodStart);
        const rewind = subscription.currentPeriodEnd > paid.periodStart;
        const previousStart = toIsoDate(
          billDateOfCycle(anchor, Math.max(0, cycleIndexOn(anchor, start) - 1)),
        );
        await tx
          .update(subscriptions)
          .set({
            ...(rewind
              ? { currentPeriodStart: previousStart, currentPeriodEnd: paid.periodStart }
              : {}),
            // The return is the first failure: R4's retries fall 1, 3 and 5 days after it.
            failedAttempts: 1,
            dunningSince: now,
            nextRetryAt: scheduledRetryAt(now, 1),
            // The year is no longer paid: the account is not billed annually for it.
            ...annualDaysWithout(subscription, paid),
            updatedAt: now,
          })
          .where(eq(subscriptions.userId, user.id));
        if (rewind) {
          await tx
            .update(users)
            .set({ nextBillDate: paid.periodStart, updatedAt: now })
            .where(eq(users.id, user.id));
        }
        if (canTake(user.accountStatus, 'checkReturned')) {
          await changeAccountStatus(tx, {
            userId: user.id,
            from: user.accountStatus,
            event: 'checkReturned',
            note: `check ${check.number} returned`,
            actor: 'staff',
            now,
            details: {
              staffId: input.actor.staffId,
              staffEmail: input.actor.email,
              reason: input.body.reason,
            },
          });
        } else {
          await tx.insert(accountEvents).values({
            userId: user.id,
            event: `check ${check.number} returned`,
            actor: 'staff',
            at: now,
            details: { invoiceId: invoice.id, reason: input.body.reason },
          });
        }
        await enqueueMail(
          tx,
          {
            to: user.email,
            content: annualBillingMail({
              company: deps.company.name,
              subject: `${deps.company.name}: your check ${check.number} was returned`,
              text: [
                `Hello ${user.firstName},`,
                '',
                `Your check ${check.number} for ${formatCurrency(check.amountCents)}, paying invoice ${invoice.number}, was returned unpaid, so ${formatCurrency(paid.amountCents)} is owed on your account.`,
                `We will charge your card on file for it ${PAYMENT_RETRY_DAYS[0]}, ${PAYMENT_RETRY_DAYS[1]} and ${PAYMENT_RETRY_DAYS[2]} days from today, until it goes through. If no card is on file, please add one under Billing Details in your account; without a payment the account becomes inactive after the last try.`,
                '',
                `Questions? Call ${deps.company.supportPhone}.`,
              ].join('\n'),
            }),
          },
          deps.mailKind,
        );
        await writeStaffAudit(tx, {
          actor: input.actor,
          action: 'returnedCheck',
          userId: user.id,
          before: {
            invoiceId: invoice.id,
            status: 'paid',
            checkNumber: check.number,
            accountStatus: user.accountStatus,
          },
          after: { invoiceId: invoice.id, status: 'void', owedCents: paid.amountCents },
          reason: input.body.reason,
          requestKey: input.body.requestKey,
          at: now,
        });
        return { invoiceId: invoice.id };
      },
    },
  );
  return invoiceViewById(db, input.invoiceId);
}

import { and, eq } from 'drizzle-orm';
import {
  annualIneligibleReason,
  annualPeriodFor,
  annualQuote,
  selectionAtStart,
} from '@dealerpass/domain/billing/annual';
import type { TSubscriptionCode } from '@dealerpass/domain/catalogue';
import { ERROR_CODES } from '@dealerpass/domain/messages';
import { quote } from '@dealerpass/domain/prices';
import type { IAnnualOffer, IInvoice } from '@dealerpass/domain/schemas/annual-billing';
import { sanitizeCodes } from '@dealerpass/domain/selection';
import type { Database, Transaction } from '../../db/client.ts';
import type { users } from '../../db/schema.ts';
import { accountEvents, invoices, subscriptions } from '../../db/schema.ts';
import { AppError } from '../../errors/app-error.ts';
import { isUniqueViolation } from '../../errors/unique-violation.ts';
import type { BillingDeps } from '../billing/ledger/billing-deps.ts';
import { lockAccount } from '../billing/ledger/lock-account.ts';
import { oncePerKey } from '../request-keys/once-per-key.ts';
import { writeStaffAudit, type StaffActor } from '../admin/audit/staff-audit.ts';
import { issueInvoice } from './issue-invoice.ts';
import { annualPeriodOf, businessDate, invoiceViewById, invoicingOf } from './invoice-records.ts';

type UserRow = typeof users.$inferSelect;
type SubscriptionRow = typeof subscriptions.$inferSelect;

/** What R14 offers the account now, or why it may not ask; shared by the page and the request. */
export async function annualOfferOf(
  db: Database | Transaction,
  deps: BillingDeps,
  user: UserRow,
  subscription: SubscriptionRow | null,
  now: Date,
): Promise<{ offer: IAnnualOffer | null; ineligibleReason: string | null }> {
  const today = businessDate(now, deps.timeZone);
  const codes = sanitizeCodes(subscription?.codes ?? []) as TSubscriptionCode[];
  const [open] = await db
    .select({ id: invoices.id })
    .from(invoices)
    .where(and(eq(invoices.userId, user.id), eq(invoices.status, 'open')));
  const ineligibleReason = annualIneligibleReason({
    status: user.accountStatus,
    complimentary: user.complimentary,
    onAnnualPeriod: annualPeriodOf(subscription, today) !== null,
    hasOpenInvoice: open !== undefined,
    monthlyTotalCents: subscription ? quote(codes, now, deps.prices.table()).totalCents : 0,
  });
  if (ineligibleReason !== null || !subscription) {
    return { offer: null, ineligibleReason: ineligibleReason ?? 'No subscription.' };
  }
  const period = annualPeriodFor(subscription.cycleAnchor, today);
  // The figures at today's prices (issue 28: "this year's price at today's prices"); the
  // invoice itself is priced at the period's start (R14), which differs only when a change is
  // scheduled before it (R11), and then its notice has told the dealer.
  // The selection in force at the year's start: removals pending until then are out (R10).
  const priced = annualQuote(
    selectionAtStart(subscription, period.start),
    period.start,
    deps.timeZone,
    deps.prices.table(),
  );
  const remitTo = invoicingOf(deps).remitTo;
  return {
    offer: {
      monthlyTotalCents: priced.monthlyTotalCents,
      yearTotalCents: priced.yearTotalCents,
      discountedTotalCents: priced.totalCents,
      periodStart: period.start,
      remitTo: { payee: remitTo.payee, lines: [...remitTo.lines] },
    },
    ineligibleReason: null,
  };
}

export interface AnnualRequestInput {
  userId: string;
  now: Date;
  /** The request's body (its key included) and the route's parameters, for oncePerKey. */
  body: {
    requestKey: string;
    reason?: string;
    basedOn?: { periodStart: string; discountedTotalCents: number } | undefined;
  };
  params: Record<string, string>;
  /** Staff asking on the dealer's behalf (a phone request), audited with the reason (R12). */
  staff?: { actor: StaffActor; reason: string };
}

/**
 * R14: the dealer (or billing staff for them) asks to pay annually by check. The account is
 * locked, its eligibility read again, and the invoice issued and e-mailed; nothing else changes
 * (monthly card billing goes on until the period starts). Once per request key.
 */
export async function requestAnnualBilling(
  db: Database,
  deps: BillingDeps,
  input: AnnualRequestInput,
): Promise<IInvoice> {
  const answer = await oncePerKey<{ invoiceId: string }>(
    db,
    {
      owner: input.staff ? { staffId: input.staff.actor.staffId } : { userId: input.userId },
      action: input.staff ? 'requestAnnualBilling' : 'requestAnnualBillingByDealer',
      target: input.params,
      body: input.body,
    },
    {
      act: async (tx) => {
        const user = await lockAccount(tx, input.userId);
        if (!user) throw new AppError(ERROR_CODES.NOT_FOUND);
        const [subscription] = await tx
          .select()
          .from(subscriptions)
          .where(eq(subscriptions.userId, user.id))
          .for('update');
        const { offer, ineligibleReason } = await annualOfferOf(
          tx,
          deps,
          user,
          subscription ?? null,
          input.now,
        );
        if (ineligibleReason !== null || !subscription) {
          throw new AppError(ERROR_CODES.ANNUAL_NOT_AVAILABLE, {
            message: ineligibleReason ?? undefined,
          });
        }
        const basedOn = input.body.basedOn;
        if (
          basedOn &&
          (basedOn.periodStart !== offer?.periodStart ||
            basedOn.discountedTotalCents !== offer.discountedTotalCents)
        ) {
          throw new AppError(ERROR_CODES.ANNUAL_OFFER_CHANGED);
        }
        const period = annualPeriodFor(
          subscription.cycleAnchor,
          businessDate(input.now, deps.timeZone),
        );
        let invoice;
        try {
          invoice = await issueInvoice(tx, deps, {
            user,
            codes: selectionAtStart(subscription, period.start),
            period,
            kind: 'request',
            now: input.now,
          });
        } catch (error) {
          // The one-open-invoice index: never reached under the account's lock, kept as a guard.
          if (isUniqueViolation(error)) {
            throw new AppError(ERROR_CODES.ANNUAL_NOT_AVAILABLE, {
              message: 'An invoice for annual billing is already open.',
            });
          }
          throw error;
        }
        await tx.insert(accountEvents).values({
          userId: user.id,
          event: 'annual billing requested',
          actor: input.staff ? 'staff' : 'user',
          at: input.now,
          details: {
            invoiceId: invoice.id,
            number: invoice.number,
            totalCents: invoice.totalCents,
            ...(input.staff
              ? {
                  staffId: input.staff.actor.staffId,
                  staffEmail: input.staff.actor.email,
                  reason: input.staff.reason,
                }
              : {}),
          },
        });
        if (input.staff) {
          await writeStaffAudit(tx, {
            actor: input.staff.actor,
            action: 'requestAnnualBilling',
            userId: user.id,
            before: { openInvoice: null },
            after: { invoiceId: invoice.id, number: invoice.number, total: invoice.totalCents },
            reason: input.staff.reason,
            requestKey: input.body.requestKey,
            at: input.now,
          });
        }
        return { invoiceId: invoice.id };
      },
    },
  );
  return invoiceViewById(db, answer.invoiceId);
}

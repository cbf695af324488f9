import { randomUUID } from 'node:crypto';
import { ACCOUNT_STATUS } from '@dealerpass/domain/account/status';
import type { TSubscriptionCode } from '@dealerpass/domain/catalogue';
import {
  classifyChange,
  mrrContributionCents,
  type TChurnCause,
} from '@dealerpass/domain/overview/figures';
import { quote, type TPriceTable } from '@dealerpass/domain/prices';
import {
  addMonthsClamped,
  calendarDateIn,
  startOfDayIn,
  toIsoDate,
  type ICalendarDate,
} from '@dealerpass/domain/time/calendar-date';
import type { Transaction } from '../../db/client.ts';
import {
  accountMrrHistory,
  billingPeriods,
  payments,
  refunds,
  subscriptions,
  users,
} from '../../db/schema.ts';
import { paymentRecord } from '../billing/ledger/payment-record.ts';

/** How many dealers the history has, and how far back it goes (issue 29: 14 months). */
const HISTORY_DEALERS = 80;
const HISTORY_MONTHS = 14;
const PLANS: TSubscriptionCode[][] = [
  ['NADA', 'MMR', 'CF', 'AC'],
  ['KBB'],
  ['NADA', 'KBB', 'ANET', 'CF'],
  ['MMR', 'MMR_S'],
  ['APG', 'BBK', 'RETAIL', 'AC', 'AC_S'],
  ['GALVES'],
];
const REASONS = ['too-expensive', 'business-is-slow', 'changing-vendor', 'closing-business'];
const DEMO_STAFF_ID = '00000000-0000-4000-8000-000000000029';

/** A small deterministic generator, so every fresh demo database tells the same story. */
function generator(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

const DAY = 86_400_000;

/**
 * What becomes of a dealer, in a fixed mix (one in five leaves, one in ten comes back or goes
 * through dunning), so that every month of the overview has all of its parts: payments, refunds
 * and chargebacks; new, reactivated and churned accounts of every cause; dunning and recovery.
 */
const FATES = [
  'stays',
  'recovered',
  'stays',
  'cancellation',
  'stays',
  'chargeback',
  'stays',
  'cancelledAndBack',
  'trialCancellation',
  'stays',
  'failedDunning',
  'stays',
  'recovered',
  'stays',
  'cancelledAndBack',
  'stays',
  'cancellation',
  'stays',
  'failedDunning',
  'stays',
] as const;

/** One bill the dealer paid: its date (the period's start), its kind, its chargeback if any. */
interface IBill {
  date: ICalendarDate;
  kind: 'signup' | 'renewal' | 'reactivation';
  chargedBackAt?: Date;
}

interface IState {
  at: Date;
  status: string;
  event: 'signUp' | 'cancelInTrial' | 'finalRetryFailed' | 'chargeback' | null;
  reason?: string;
}

/**
 * Fourteen months of a business for the console's overview (issue 29) on `npm start`: dealers who
 * sign up, renew, change nothing or leave (a cancellation with its reason, a failed dunning, a
 * chargeback, a trial cancellation) and sometimes come back, with their payments (receipts
 * included), refunds, chargebacks and their MRR history (docs/decisions/042). They have no
 * sign-in: they are the business around the demo's own accounts. Bulk inserts, one per table.
 */
export async function seedDemoHistory(
  tx: Transaction,
  input: {
    now: Date;
    timeZone: string;
    table: TPriceTable;
    company: { name: string; supportPhone: string };
  },
): Promise<{ dealers: number; payments: number }> {
  const { now, timeZone, table } = input;
  const random = generator(29);
  const today = calendarDateIn(now, timeZone);
  const start = addMonthsClamped(today, -HISTORY_MONTHS);
  /** A business date's 15:00 UTC: every charge of the history happens then. */
  const atThree = (date: ICalendarDate) =>
    new Date(startOfDayIn(date, timeZone).getTime() + 15 * 3_600_000);
  const userRows: (typeof users.$inferInsert)[] = [];
  const subscriptionRows: (typeof subscriptions.$inferInsert)[] = [];
  const periodRows: (typeof billingPeriods.$inferInsert)[] = [];
  const paymentRows: (typeof payments.$inferInsert)[] = [];
  const refundRows: (typeof refunds.$inferInsert)[] = [];
  const historyRows: (typeof accountMrrHistory.$inferInsert)[] = [];

  for (let index = 0; index < HISTORY_DEALERS; index++) {
    const id = randomUUID();
    const codes = PLANS[Math.floor(random() * PLANS.length)]!;
    // The fates in a fixed mix (FATES), each at a month of the dealer's own life.
    const fate = FATES[index % FATES.length]!;
    // Sign-ups spread evenly over the months: with the leavers, a business that grows. A dealer
    // with a fate signs up two months ago or more, so that it has happened by now.
    const monthsAgo =
      fate === 'stays'
        ? Math.floor(random() * HISTORY_MONTHS * 0.999)
        : 2 + Math.floor(random() * (HISTORY_MONTHS - 2) * 0.999);
    const anchor: ICalendarDate = {
      ...addMonthsClamped(start, HISTORY_MONTHS - monthsAgo),
      day: 1 + Math.floor(random() * 27),
    };
    const signUpAt = atThree(anchor);
    if (signUpAt >= now) continue;
    let billsBeforeNow = 0;
    while (atThree(addMonthsClamped(anchor, billsBeforeNow, anchor.day)) < now) billsBeforeNow++;
    // Not the sign-up's month, and not the last (a chargeback comes 20 days after its payment).
    const eventCycle = 1 + Math.floor(random() * Math.max(1, billsBeforeNow - 2));
    const states: IState[] = [{ at: signUpAt, status: ACCOUNT_STATUS.active, event: 'signUp' }];
    const bills: IBill[] = [];
    for (let cycle = 0; ; cycle++) {
      const date = addMonthsClamped(anchor, cycle, anchor.day);
      const at = atThree(date);
      if (at >= now) break;
      if (cycle === eventCycle && (fate === 'failedDunning' || fate === 'recovered')) {
        // The renewal is declined: dunning (R4). Then the last retry fails too, or a new card
        // pays it two days later.
        states.push({ at, status: ACCOUNT_STATUS.validatingPayment, event: null });
        if (fate === 'failedDunning') {
          states.push({
            at: new Date(at.getTime() + 5 * DAY),
            status: ACCOUNT_STATUS.inactive,
            event: 'finalRetryFailed',
          });
          break;
        }
        const paidAt = new Date(at.getTime() + 2 * DAY);
        states.push({ at: paidAt, status: ACCOUNT_STATUS.active, event: null });
        if (paidAt < now) bills.push({ date: calendarDateIn(paidAt, timeZone), kind: 'renewal' });
        continue;
      }
      bills.push({ date, kind: cycle === 0 ? 'signup' : 'renewal' });
      if (cycle === 0 && fate === 'trialCancellation') {
        states.push({
          at: new Date(at.getTime() + 4 * DAY),
          status: ACCOUNT_STATUS.inactive,
          event: 'cancelInTrial',
          reason: REASONS[index % REASONS.length]!,
        });
        break;
      }
      if (cycle === eventCycle && fate === 'chargeback') {
        const chargedBackAt = new Date(at.getTime() + 20 * DAY);
        bills.at(-1)!.chargedBackAt = chargedBackAt;
        states.push({ at: chargedBackAt, status: ACCOUNT_STATUS.inactive, event: 'chargeback' });
        break;
      }
      if (cycle === eventCycle && (fate === 'cancellation' || fate === 'cancelledAndBack')) {
        // Cancelled after the trial: runs to the next bill date, then inactive (R4).
        const reason = REASONS[(index + 1) % REASONS.length]!;
        states.push({
          at: new Date(at.getTime() + 9 * DAY),
          status: ACCOUNT_STATUS.pendingCancel,
          event: null,
          reason,
        });
        const endsAt = atThree(addMonthsClamped(anchor, cycle + 1, anchor.day));
        states.push({ at: endsAt, status: ACCOUNT_STATUS.inactive, event: null, reason });
        if (fate === 'cancelledAndBack') {
          // Back two months later: reactivated with a card, a new cycle from that day (R4).
          const back = calendarDateIn(new Date(endsAt.getTime() + 61 * DAY), timeZone);
          states.push({ at: atThree(back), status: ACCOUNT_STATUS.active, event: null });
          for (let again = 0; atThree(addMonthsClamped(back, again, back.day)) < now; again++) {
            bills.push({
              date: addMonthsClamped(back, again, back.day),
              kind: again === 0 ? 'reactivation' : 'renewal',
            });
          }
        }
        break;
      }
    }
    const lastState = states.filter((state) => state.at < now).at(-1)!;
    const dealership = `${['Summit', 'Lakeside', 'Prairie', 'Harbor', 'Canyon', 'Maple'][index % 6]} ${['Motors', 'Auto Sales', 'Autos', 'Car Co.'][index % 4]} ${index + 1}`;
    userRows.push({
      id,
      dealerpassUserId: `history-${index + 1}`,
      email: `history-${index + 1}@dealers.example`,
      firstName: 'Dealer',
      lastName: `No. ${index + 1}`,
      dealership,
      phone: '3135550100',
      address1: `${100 + index} Main St`,
      city: 'Detroit',
      state: 'MI',
      zip: '48201',
      cardBrand: 'Visa',
      cardLast4: '1111',
      subscriptions: codes,
      accountStatus: lastState.status,
      nextBillDate: null,
      createdAt: signUpAt,
      updatedAt: now,
    });
    const lastBill = bills.at(-1)?.date ?? anchor;
    subscriptionRows.push({
      userId: id,
      codes,
      cycleAnchor: toIsoDate(lastBill),
      currentPeriodStart: toIsoDate(lastBill),
      currentPeriodEnd: toIsoDate(addMonthsClamped(lastBill, 1, lastBill.day)),
      updatedAt: now,
    });
    const user = userRows.at(-1) as typeof users.$inferSelect;
    const trialCancelled = states.find(
      (state) => state.event === 'cancelInTrial' && state.at < now,
    );
    bills.forEach((bill, cycle) => {
      const { date } = bill;
      const chargedAt = atThree(date);
      const priced = quote(codes, chargedAt, table);
      const periodId = randomUUID();
      const chargedBack =
        bill.chargedBackAt && bill.chargedBackAt < now ? bill.chargedBackAt : null;
      const period = {
        id: periodId,
        userId: id,
        kind: bill.kind,
        periodStart: toIsoDate(date),
        periodEnd: toIsoDate(addMonthsClamped(date, 1, date.day)),
        amountCents: priced.totalCents,
        quote: priced,
        status: chargedBack ? ('refunded' as const) : ('paid' as const),
        idempotencyKey: `history:${id}:${cycle}`,
        createdAt: chargedAt,
        settledAt: chargedAt,
      };
      periodRows.push(period);
      const { row } = paymentRecord({
        company: input.company,
        user: { ...user, createdAt: signUpAt, updatedAt: now } as typeof users.$inferSelect,
        period: period as unknown as typeof billingPeriods.$inferSelect,
        card: { brand: 'Visa', last4: '1111' },
        transactionId: `history-${index + 1}-${cycle}`,
        activationDate: toIsoDate(date),
        now: chargedAt,
      });
      const paymentId = randomUUID();
      const trialRefund = cycle === 0 && trialCancelled !== undefined;
      paymentRows.push({
        ...row,
        id: paymentId,
        createdAt: chargedAt,
        ...(chargedBack ? { chargedBackAt: chargedBack } : {}),
        ...(trialRefund
          ? {
              status: 'refunded' as const,
              refundedAt: trialCancelled.at,
              refundClaimedAt: trialCancelled.at,
              refundClaimedCents: priced.totalCents,
            }
          : {}),
      });
      // Now and then a goodwill refund of part of a month.
      if (!trialRefund && random() < 0.06) {
        const settledAt = new Date(chargedAt.getTime() + 3 * DAY);
        if (settledAt < now)
          refundRows.push({
            paymentId,
            userId: id,
            amountCents: Math.min(priced.totalCents, 2500),
            status: 'succeeded',
            requestKey: `history-refund:${paymentId}`,
            reason: 'Goodwill: a report was late',
            staffId: DEMO_STAFF_ID,
            createdAt: settledAt,
            settledAt,
          });
      }
    });
    // Its MRR history, as the status writer would have written it.
    let dunningSince: Date | null = null;
    let previous: string | null = null;
    const past = states.filter((state) => state.at < now);
    past.forEach((state, position) => {
      const next = past[position + 1];
      const monthlyCents = quote(codes, state.at, table).totalCents;
      const { movement, cause } = classifyChange(previous, state.status, state.event);
      if (movement === 'dunningEntered') dunningSince = state.at;
      historyRows.push({
        userId: id,
        validFrom: state.at,
        validTo: next ? next.at : null,
        status: state.status,
        complimentary: false,
        codes,
        monthlyCents,
        mrrCents: mrrContributionCents({
          status: state.status,
          complimentary: false,
          monthlyCents,
        }),
        movement,
        cause: cause as TChurnCause | null,
        reason: state.reason ?? null,
        dunningSince: movement === 'dunningRecovered' ? dunningSince : null,
      });
      previous = state.status;
    });
  }

  if (userRows.length === 0) return { dealers: 0, payments: 0 };
  await tx.insert(users).values(userRows);
  await tx.insert(subscriptions).values(subscriptionRows);
  await tx.insert(billingPeriods).values(periodRows);
  for (let offset = 0; offset < paymentRows.length; offset += 200) {
    await tx.insert(payments).values(paymentRows.slice(offset, offset + 200));
  }
  if (refundRows.length > 0) await tx.insert(refunds).values(refundRows);
  await tx.insert(accountMrrHistory).values(historyRows);
  return { dealers: userRows.length, payments: paymentRows.length };
}

import { z } from 'zod';
import {
  accountStatusDetailsOf,
  STATUS_DESCRIPTIONS,
  isAccountStatus,
} from '@dealerpass/domain/account/status';
import { accountNextBillDate, cancellationTakesEffect } from '@dealerpass/domain/billing/dunning';
import { centsToDollars } from '@dealerpass/domain/money';
import {
  calendarDateIn,
  parseIsoDate,
  toIsoDate,
  type ICalendarDate,
} from '@dealerpass/domain/time/calendar-date';
import { normalizeAuctionAccessId } from '@dealerpass/domain/validation/auction-access';
import type { users } from '../../db/schema.ts';

/**
 * An account row with its balance (services/billing/account-balance.ts) and its subscription's
 * cycle, from which the domain computes the next bill date every screen shows (issue 25 item 11).
 */
export type UserRow = typeof users.$inferSelect & {
  balanceCents: number;
  billingCycle: BillingCycle | null;
};

/** The subscription's cycle as the account's row carries it (ISO dates). */
export interface BillingCycle {
  cycleAnchor: string;
  currentPeriodEnd: string;
  /** The last day paid by an annual period (R14), if any. */
  annualPeriodEnd?: string | null;
}

/**
 * The subscription's cycle as one JSON value beside the account's columns (`users` in scope):
 * the signed-in statement and the query builder's row both select it (docs/decisions/021).
 */
export const BILLING_CYCLE_SQL = `(select json_build_object('cycleAnchor', sub.cycle_anchor, 'currentPeriodEnd', sub.current_period_end, 'annualPeriodEnd', sub.annual_period_end) from subscriptions sub where sub.user_id = "users"."id")`;

/**
 * The current user as the API returns it (000 §3; DECISIONS R1, R4, R7). Every field of the
 * specification is here except the secrets: `autoCheckPasswd` and `creditCardCode` are never
 * sent (`autoCheckPasswdSet` says whether one is stored; a card code is never stored, R5).
 * Used as the routes' response schema, so a key not listed here cannot leave the server.
 */
export const ZCurrentUserSchema = z.object({
  dealerpassUserId: z.string(),
  karId: z.string(),
  email: z.string(),
  altEmail: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  dealership: z.string(),
  phone: z.string(),
  phoneCountryCode: z.string(),
  altPhone: z.string(),
  altPhoneCountryCode: z.string(),
  auctionAccessId: z.string(),
  dealershipAuctionAccessId: z.string(),
  address1: z.string(),
  address2: z.string(),
  city: z.string(),
  state: z.string(),
  zip: z.string(),
  country: z.string(),
  billingFirstName: z.string(),
  billingLastName: z.string(),
  billingCountry: z.string(),
  billingAddress1: z.string(),
  billingAddress2: z.string(),
  billingCity: z.string(),
  billingState: z.string(),
  billingZip: z.string(),
  creditCardNumber: z.string(),
  creditCardType: z.string(),
  creditCardExpiration: z.string(),
  subscriptions: z.array(z.string()),
  subscriptionStatus: z.string(),
  subscriptionStatusDescription: z.string(),
  nextBillDate: z.string().nullable(),
  /** A pending cancellation: the day it takes effect (R4; a paid year's end, decision 058). */
  cancellationTakesEffect: z.string().nullable().optional(),
  currentBalance: z.number(),
  accountStatus: z.string(),
  accountStatusDetails: z.string(),
  programDate: z.string().nullable(),
  preferences: z.record(z.string(), z.unknown()),
  autoCheckId: z.string(),
  autoCheckEnabled: z.boolean(),
  autoCheckAutoPurchase: z.boolean(),
  autoCheckPasswdSet: z.boolean(),
});
export type CurrentUser = z.infer<typeof ZCurrentUserSchema>;

/** 000 §3: the card number is shown masked, last four digits only. */
export function maskCardNumber(last4: string | null): string {
  return last4 && /^\d{4}$/.test(last4) ? `${'*'.repeat(12)}${last4}` : '';
}

export function serializeUser(row: UserRow, today: ICalendarDate): CurrentUser {
  const status = row.accountStatus;
  const text = (value: string | null) => value ?? '';
  return {
    dealerpassUserId: row.dealerpassUserId,
    karId: text(row.karId),
    email: row.email,
    altEmail: text(row.altEmail),
    firstName: row.firstName,
    lastName: row.lastName,
    dealership: row.dealership,
    phone: row.phone,
    phoneCountryCode: row.phoneCountryCode,
    altPhone: text(row.altPhone),
    altPhoneCountryCode: text(row.altPhoneCountryCode),
    auctionAccessId: normalizeAuctionAccessId(row.auctionAccessId),
    dealershipAuctionAccessId: normalizeAuctionAccessId(row.dealershipAuctionAccessId),
    address1: row.address1,
    address2: text(row.address2),
    city: row.city,
    state: row.state,
    zip: row.zip,
    country: row.country,
    billingFirstName: text(row.billingFirstName),
    billingLastName: text(row.billingLastName),
    billingCountry: text(row.billingCountry),
    billingAddress1: text(row.billingAddress1),
    billingAddress2: text(row.billingAddress2),
    billingCity: text(row.billingCity),
    billingState: text(row.billingState),
    billingZip: text(row.billingZip),
    creditCardNumber: maskCardNumber(row.cardLast4),
    creditCardType: text(row.cardBrand),
    creditCardExpiration: text(row.cardExpiration),
    subscriptions: [...row.subscriptions],
    subscriptionStatus: status,
    subscriptionStatusDescription: isAccountStatus(status) ? STATUS_DESCRIPTIONS[status] : status,
    nextBillDate: nextBillDateShown(row, today),
    cancellationTakesEffect: cancellationTakesEffectShown(row, today),
    currentBalance: centsToDollars(row.balanceCents),
    accountStatus: status,
    accountStatusDetails: text(accountStatusDetailsOf(row)),
    programDate: row.programDate ? row.programDate.toISOString() : null,
    preferences: isPlainObject(row.preferences) ? row.preferences : {},
    autoCheckId: text(row.autoCheckId),
    autoCheckEnabled: row.autoCheckEnabled,
    autoCheckAutoPurchase: row.autoCheckAutoPurchase,
    autoCheckPasswdSet: row.autoCheckPasswordEnc != null && row.autoCheckPasswordEnc !== '',
  };
}

/** What the domain's bill-date rules read of an account row, as calendar dates. */
function billingFacts(row: Pick<UserRow, 'accountStatus' | 'nextBillDate' | 'billingCycle'>) {
  const cycle = row.billingCycle;
  return {
    accountStatus: row.accountStatus,
    cycle: cycle
      ? {
          cycleAnchor: isoDate(cycle.cycleAnchor),
          currentPeriodEnd: isoDate(cycle.currentPeriodEnd),
        }
      : null,
    storedNextBillDate: row.nextBillDate ? isoDate(row.nextBillDate) : null,
  };
}

/**
 * The domain's next bill date of an account (issue 25 item 11): the dealer's Billing page, the
 * change page and the console show this one.
 */
export function nextBillDateShown(
  row: Pick<UserRow, 'accountStatus' | 'nextBillDate' | 'billingCycle'>,
  today: ICalendarDate,
): string | null {
  const date = accountNextBillDate(billingFacts(row), today);
  return date ? toIsoDate(date) : null;
}

/**
 * The day a pending cancellation takes effect, by the domain's rule beside the next bill date's
 * (decision 058): the dealer's pages and the console show this one.
 */
export function cancellationTakesEffectShown(
  row: Pick<UserRow, 'accountStatus' | 'nextBillDate' | 'billingCycle'>,
  today: ICalendarDate,
): string | null {
  const paidThrough = row.billingCycle?.annualPeriodEnd;
  const date = cancellationTakesEffect(
    { ...billingFacts(row), paidThrough: paidThrough ? isoDate(paidThrough) : null },
    today,
  );
  return date ? toIsoDate(date) : null;
}

/** Today in the business time zone (R4), the day the next bill date is computed for. */
export function businessToday(app: {
  now: () => Date;
  config: { billing: { timeZone: string } };
}): ICalendarDate {
  return calendarDateIn(app.now(), app.config.billing.timeZone);
}

function isoDate(text: string): ICalendarDate {
  const date = parseIsoDate(text);
  if (!date) throw new Error(`not a date: ${text}`);
  return date;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Scheduling a price change (DECISIONS R11, 001 §9): at least 30 days' notice, effective at
 * midnight in the business time zone, and who must be told (every account whose monthly total
 * changes).
 */
import { z } from 'zod';
import type { TSubscriptionCode } from '../catalogue.ts';
import { formatCurrency, type TCents } from '../money.ts';
import {
  PRICED_ITEMS,
  totalsAround,
  type IPriceRow,
  type TPricedItem,
  type TPriceTable,
} from '../prices.ts';
import {
  addDays,
  calendarDateIn,
  compareDates,
  formatCalendarDate,
  parseIsoDate,
  startOfDayIn,
  type ICalendarDate,
} from '../time/calendar-date.ts';
import { paragraph, questionsLine, type IMailContent } from '../mail/mail-content.ts';
import {
  ANNUAL_DISCOUNT_PERCENT,
  ANNUAL_RENEWAL_INVOICE_DAYS,
  replacedInvoiceAdvice,
} from './annual.ts';

/** 001 §9: a price change is announced 30 days ahead. */
export const PRICE_CHANGE_NOTICE_DAYS = 30;
/**
 * A withdrawal is refused this close to the date (R11 amended, docs/decisions/032): every
 * instance reads the price table again every five minutes (decision 025), so by the date none
 * still holds the withdrawn rows and charges them.
 */
export const PRICE_WITHDRAWAL_CUTOFF_MINUTES = 15;
/** No single monthly price above $10,000 (a typo guard, not a business rule). */
export const MAX_PRICE_CENTS = 1_000_000;

export const PRICE_CHANGE_MESSAGES = {
  dateInvalid: 'Enter the date as YYYY-MM-DD.',
  tooSoon: `A price change needs at least ${PRICE_CHANGE_NOTICE_DAYS} days' notice.`,
  priceInvalid: 'Enter a whole number of cents from 0 to 1000000.',
  duplicateItem: 'Name each item once.',
  noPrices: 'Name at least one price.',
} as const;

export const ZSchedulePriceChangeRequestSchema = z.strictObject({
  /** The business date the prices take effect (midnight in the business time zone). */
  // YYYY-MM-DD and a real date, as one pattern the OpenAPI description carries (decision 045).
  effectiveDate: z.iso.date({ message: PRICE_CHANGE_MESSAGES.dateInvalid }),
  prices: z
    .array(
      z.strictObject({
        item: z.enum(PRICED_ITEMS as [TPricedItem, ...TPricedItem[]]),
        cents: z
          .number({ message: PRICE_CHANGE_MESSAGES.priceInvalid })
          .int({ message: PRICE_CHANGE_MESSAGES.priceInvalid })
          .min(0, { message: PRICE_CHANGE_MESSAGES.priceInvalid })
          .max(MAX_PRICE_CENTS, { message: PRICE_CHANGE_MESSAGES.priceInvalid }),
      }),
    )
    .min(1, { message: PRICE_CHANGE_MESSAGES.noPrices })
    .max(PRICED_ITEMS.length)
    .refine((rows) => new Set(rows.map((row) => row.item)).size === rows.length, {
      message: PRICE_CHANGE_MESSAGES.duplicateItem,
    }),
});
export type TSchedulePriceChangeRequest = z.infer<typeof ZSchedulePriceChangeRequestSchema>;

/** The first business date a change scheduled at `now` may take effect (R11: 30 days later). */
export function earliestPriceChangeDate(now: Date, timeZone: string): ICalendarDate {
  return addDays(calendarDateIn(now, timeZone), PRICE_CHANGE_NOTICE_DAYS);
}

/** Why a change for this business date cannot be scheduled now, or null. */
export function priceChangeProblem(
  effectiveDate: string,
  now: Date,
  timeZone: string,
): keyof typeof PRICE_CHANGE_MESSAGES | null {
  const date = parseIsoDate(effectiveDate);
  if (!date) return 'dateInvalid';
  return compareDates(date, earliestPriceChangeDate(now, timeZone)) < 0 ? 'tooSoon' : null;
}

/** The rows a change adds to the table (R11: a change is a new dated row, never an edit). */
export function priceChangeRows(
  request: TSchedulePriceChangeRequest,
  timeZone: string,
): IPriceRow[] {
  const date = parseIsoDate(request.effectiveDate);
  if (!date) throw new RangeError(`not a date: ${request.effectiveDate}`);
  const from = startOfDayIn(date, timeZone).toISOString();
  return request.prices.map((row) => ({ item: row.item, from, cents: row.cents }));
}

export interface IMonthlyTotalChange {
  oldTotalCents: TCents;
  newTotalCents: TCents;
  effectiveDate: string;
}

/**
 * How a selection's monthly total moves at a change's instant: the total just before it (with
 * the table as it is) against the total from it (with the change's rows added); null when it
 * does not move (R11: only those accounts are told).
 */
export function monthlyTotalChange(
  codes: readonly TSubscriptionCode[],
  table: TPriceTable,
  changeRows: readonly IPriceRow[],
  effectiveDate: string,
): IMonthlyTotalChange | null {
  const first = changeRows[0];
  if (!first?.from) return null;
  return monthlyTotalChangeAt(codes, [...table, ...changeRows], first.from, effectiveDate);
}

/** The same, with a table that already holds the change's rows (a change scheduled earlier). */
export function monthlyTotalChangeAt(
  codes: readonly TSubscriptionCode[],
  table: TPriceTable,
  effectiveFrom: string,
  effectiveDate: string,
): IMonthlyTotalChange | null {
  const { oldTotalCents, newTotalCents } = totalsAround(codes, new Date(effectiveFrom), table);
  if (oldTotalCents === newTotalCents) return null;
  return { oldTotalCents, newTotalCents, effectiveDate };
}

/** What the notice rule reads of an account (R11). */
export interface IRenewalStanding {
  status: string;
  complimentary: boolean;
  /** The end of its current period, 'YYYY-MM-DD': a pending-cancel account ends there (R4). */
  periodEnd: string;
}

/**
 * Whether an account will be billed at a change's prices (R11 amended), so it is told of the
 * change and of its withdrawal: not an inactive account, not a complimentary one (it is never
 * charged), not a pending-cancel one that ends on or before the date (it becomes inactive at its
 * period's end, R4, before any bill at the new price).
 */
export function isBilledAtChange(account: IRenewalStanding, effectiveDate: string): boolean {
  if (account.status === 'inactive' || account.complimentary) return false;
  if (account.status === 'pending cancel') return account.periodEnd > effectiveDate;
  return true;
}

/**
 * How a change reaches an account billed annually by check (R11 with R14, decision 052), for its
 * notice: its open invoice repriced (the year starts on or after the date, so it is priced at
 * the new prices and the invoice is replaced), or a year paid or invoiced that the change does
 * not touch, the new prices first billed to a renewal by check from `annualFrom`.
 */
export type TAnnualNotice =
  | {
      kind: 'invoiceRepriced';
      invoice: { number: string; totalCents: TCents; periodStart: string; dueOn: string };
      /** The replacement's number; null in the preview, before it is issued. */
      newNumber: string | null;
      newTotalCents: TCents;
    }
  | {
      kind: 'yearUnchanged';
      /** The last day paid by check, when a year is paid (running, or ahead). */
      paidThrough: string | null;
      /** The open invoice of a year that starts before the date. */
      invoice: { number: string; totalCents: TCents; periodStart: string } | null;
      /** The first year a renewal by check bills at the new prices. */
      annualFrom: string;
      oldAnnualCents: TCents;
      newAnnualCents: TCents;
    };

/** The e-mail a change's notice and its withdrawal are written with (R11): the company's words. */
export interface IPriceMailContext {
  company: { name: string; supportPhone: string };
  firstName: string;
  change: IMonthlyTotalChange;
  /** An account billed annually by check is told what the change means for its year. */
  annual?: TAnnualNotice | null | undefined;
}

function dateTextOf(effectiveDate: string): string {
  return formatCalendarDate(parseIsoDate(effectiveDate));
}

/**
 * R11's notice: the old and new monthly total and the date (at scheduling, or at sign-up). An
 * account billed annually by check is told about its year instead of a monthly card charge
 * (decision 052).
 */
export function priceChangeNoticeMail(context: IPriceMailContext): IMailContent {
  if (context.annual?.kind === 'invoiceRepriced')
    return invoiceRepricedNotice(context, context.annual);
  if (context.annual?.kind === 'yearUnchanged') return yearUnchangedNotice(context, context.annual);
  const { company, change } = context;
  const dateText = dateTextOf(change.effectiveDate);
  return {
    company: company.name,
    subject: `${company.name}: your monthly price changes on ${dateText}`,
    heading: 'Your monthly price changes',
    blocks: [
      paragraph(`Hello ${context.firstName},`),
      paragraph(
        `From ${dateText}, your monthly total changes from ${formatCurrency(change.oldTotalCents)} to ${formatCurrency(change.newTotalCents)}.`,
        'Your first bill on or after that date is charged at the new price. You can change or cancel your subscriptions at any time in your account.',
      ),
      questionsLine(company.supportPhone),
    ],
  };
}

/** An open annual invoice replaced because of a price change or its withdrawal (decision 052). */
export interface IInvoiceReplacement {
  oldNumber: string;
  oldTotalCents: TCents;
  newNumber: string;
  newTotalCents: TCents;
  periodStart: string;
}

/**
 * R11 amended: a withdrawn change is withdrawn for every account that was told of it; an annual
 * invoice priced with it is replaced at the prices that stay (decision 052), and attached.
 */
export function priceChangeWithdrawalMail(
  context: IPriceMailContext & { replacement?: IInvoiceReplacement | undefined },
): IMailContent {
  const { company, change, replacement } = context;
  const dateText = dateTextOf(change.effectiveDate);
  return {
    company: company.name,
    subject: `${company.name}: the price change of ${dateText} is withdrawn`,
    heading: 'A price change is withdrawn',
    blocks: [
      paragraph(`Hello ${context.firstName},`),
      paragraph(
        `We told you that from ${dateText} your monthly total would change from ${formatCurrency(change.oldTotalCents)} to ${formatCurrency(change.newTotalCents)}. That change is withdrawn: your bills stay at the current prices.`,
      ),
      ...(replacement
        ? [
            paragraph(
              `Your invoice for the year billed annually by check from ${dateTextOf(replacement.periodStart)} goes back to those prices: invoice ${replacement.oldNumber} (${formatCurrency(replacement.oldTotalCents)}) is void, and invoice ${replacement.newNumber} replaces it: ${formatCurrency(replacement.newTotalCents)}, with the ${ANNUAL_DISCOUNT_PERCENT}% discount. The new invoice is attached.`,
              replacedInvoiceAdvice(replacement.oldNumber, company.supportPhone),
            ),
          ]
        : []),
      questionsLine(company.supportPhone),
    ],
  };
}

/** The notice of an account whose open invoice the change reprices (decision 052). */
function invoiceRepricedNotice(
  context: IPriceMailContext,
  annual: Extract<TAnnualNotice, { kind: 'invoiceRepriced' }>,
): IMailContent {
  const { company, change } = context;
  const dateText = dateTextOf(change.effectiveDate);
  const start = dateTextOf(annual.invoice.periodStart);
  const due = dateTextOf(annual.invoice.dueOn);
  const replacement = annual.newNumber ? `invoice ${annual.newNumber}` : 'a new invoice';
  return {
    company: company.name,
    subject: `${company.name}: your annual invoice changes with the prices of ${dateText}`,
    heading: 'Your annual invoice changes',
    blocks: [
      paragraph(`Hello ${context.firstName},`),
      paragraph(
        `From ${dateText}, the prices of your subscriptions change. Your year billed annually by check from ${start} is priced at the prices in force on that day, so its invoice changes: invoice ${annual.invoice.number} (${formatCurrency(annual.invoice.totalCents)}) is void, and ${replacement} replaces it: ${formatCurrency(annual.newTotalCents)} for the year, with the ${ANNUAL_DISCOUNT_PERCENT}% discount. The new invoice is attached.`,
      ),
      paragraph(
        `Please send your check for ${replacement} by ${due}.`,
        replacedInvoiceAdvice(annual.invoice.number, company.supportPhone),
      ),
      paragraph(
        `If the check has not arrived by ${due}, the invoice is voided and your card on file is billed monthly from ${start}, at the new monthly total of ${formatCurrency(change.newTotalCents)} (now ${formatCurrency(change.oldTotalCents)}).`,
      ),
      questionsLine(company.supportPhone),
    ],
  };
}

/**
 * The notice of an account billed annually by check whose year (paid, or invoiced) starts
 * before the date: nothing is billed at the new prices during it; a renewal by check pays them
 * from `annualFrom`, monthly card billing from its first bill on or after the date (decision 052).
 */
function yearUnchangedNotice(
  context: IPriceMailContext,
  annual: Extract<TAnnualNotice, { kind: 'yearUnchanged' }>,
): IMailContent {
  const { company, change } = context;
  const dateText = dateTextOf(change.effectiveDate);
  const standing = annual.invoice
    ? `Your invoice ${annual.invoice.number} for your year billed annually by check from ${dateTextOf(annual.invoice.periodStart)} is at the prices in force on that day, ${formatCurrency(annual.invoice.totalCents)}: the new prices do not change it, and nothing is billed at them during that year.`
    : `Your account is billed annually by check, paid through ${dateTextOf(annual.paidThrough ?? '')}: nothing is billed at the new prices before that year ends.`;
  return {
    company: company.name,
    subject: `${company.name}: your prices change on ${dateText}`,
    heading: 'Your prices change',
    blocks: [
      paragraph(`Hello ${context.firstName},`),
      paragraph(
        `From ${dateText}, the monthly total of your subscriptions changes from ${formatCurrency(change.oldTotalCents)} to ${formatCurrency(change.newTotalCents)}.`,
        standing,
      ),
      paragraph(
        `Billed annually by check, you pay the new prices from the year starting ${dateTextOf(annual.annualFrom)}: ${formatCurrency(annual.newAnnualCents)} a year with the ${ANNUAL_DISCOUNT_PERCENT}% discount (now ${formatCurrency(annual.oldAnnualCents)}); its invoice comes ${ANNUAL_RENEWAL_INVOICE_DAYS} days before it starts.`,
        `If you return to monthly card billing, your first card bill on or after ${dateText} is charged at the new monthly total.`,
      ),
      questionsLine(company.supportPhone),
    ],
  };
}

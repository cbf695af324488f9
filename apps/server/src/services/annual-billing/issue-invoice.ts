import { annualBillingMail } from '../mail/messages/annual-billing-mail.ts';
import { sql } from 'drizzle-orm';
import {
  annualQuote,
  formatInvoiceNumber,
  replacedInvoiceAdvice,
} from '@dealerpass/domain/billing/annual';
import type { TSubscriptionCode } from '@dealerpass/domain/catalogue';
import type { TPriceTable } from '@dealerpass/domain/prices';
import { formatCurrency } from '@dealerpass/domain/money';
import { formatCalendarDate, parseIsoDate } from '@dealerpass/domain/time/calendar-date';
import type { IAnnualPeriodDates } from '@dealerpass/domain/billing/annual';
import type { Transaction } from '../../db/client.ts';
import type { users } from '../../db/schema.ts';
import { invoiceCounters, invoices } from '../../db/schema.ts';
import { enqueueMail } from '../mail/enqueue-mail.ts';
import type { BillingDeps } from '../billing/ledger/billing-deps.ts';
import { renderInvoicePdf } from './render-invoice.ts';
import { businessDate, invoicingOf, type InvoiceRow } from './invoice-records.ts';

type UserRow = typeof users.$inferSelect;

const shown = (date: string) => formatCalendarDate(parseIsoDate(date));

/**
 * The next number of a prefix and year, taken in the caller's transaction (R14: no gaps, never
 * twice). The upsert locks the counter's row until the transaction ends: a concurrent issue waits
 * for it and then reads the incremented value; a rolled-back issue takes its increment back with
 * it. The counter is the last lock an issue takes (after the account's, decision 028), so waiting
 * for it never closes a circle.
 */
export async function takeInvoiceNumber(
  tx: Transaction,
  prefix: string,
  year: number,
): Promise<string> {
  const result = (await tx.execute(sql`
    insert into ${invoiceCounters} (prefix, year, last_number) values (${prefix}, ${year}, 1)
    on conflict (prefix, year) do update set last_number = ${invoiceCounters.lastNumber} + 1
    returning last_number`)) as unknown as { rows: { last_number: number }[] };
  const sequence = Number(result.rows[0]?.last_number);
  return formatInvoiceNumber(prefix, year, sequence);
}

/** The dealer's billing name and address as printed (the account's own when none is given). */
export function billToOf(user: UserRow) {
  const billingName = [user.billingFirstName, user.billingLastName].filter(Boolean).join(' ');
  const hasBillingAddress = Boolean(user.billingAddress1 && user.billingCity);
  const address = hasBillingAddress
    ? {
        line1: user.billingAddress1 ?? '',
        line2: user.billingAddress2,
        city: user.billingCity ?? '',
        state: user.billingState,
        zip: user.billingZip ?? '',
        country: user.billingCountry,
      }
    : {
        line1: user.address1,
        line2: user.address2,
        city: user.city,
        state: user.state,
        zip: user.zip,
        country: user.country,
      };
  const region = [address.state, address.zip].filter(Boolean).join(' ');
  return {
    name: billingName || `${user.firstName} ${user.lastName}`,
    lines: [
      user.dealership,
      address.line1,
      address.line2 ?? '',
      [address.city, region].filter(Boolean).join(', '),
      address.country ?? '',
    ].filter((line) => line.trim() !== ''),
    dealerpassUserId: user.dealerpassUserId,
  };
}

/** What issuing an invoice needs of the billing's dependencies (a price change has these too). */
export type InvoiceDeps = Pick<
  BillingDeps,
  'timeZone' | 'prices' | 'company' | 'mailKind' | 'invoicing'
>;

/** The invoice a new one replaces (decision 052): void in the same transaction, and why. */
export interface IReplacedInvoice {
  number: string;
  totalCents: number;
  /** What changed, as the e-mail says it ("your subscriptions changed"). */
  because: string;
}

/**
 * Issues an invoice (R14) in the caller's transaction, which holds the account's lock: the
 * amounts at the prices in force at the period's start (`table`, the price book's by default),
 * the next number, the PDF rendered once and stored, and the e-mail with it attached (unless
 * `mail` is false: a price change's notice carries it, decision 052). The partial unique index
 * keeps a second open invoice of the account out whatever the caller checked.
 */
export async function issueInvoice(
  tx: Transaction,
  deps: InvoiceDeps,
  input: {
    user: UserRow;
    codes: readonly TSubscriptionCode[];
    period: IAnnualPeriodDates;
    kind: 'request' | 'renewal';
    now: Date;
    table?: TPriceTable;
    replaces?: IReplacedInvoice;
    mail?: boolean;
  },
): Promise<InvoiceRow> {
  const { user, period, now } = input;
  const invoicing = invoicingOf(deps);
  const issuedOn = businessDate(now, deps.timeZone);
  const priced = annualQuote(
    input.codes,
    period.start,
    deps.timeZone,
    input.table ?? deps.prices.table(),
  );
  const number = await takeInvoiceNumber(tx, invoicing.prefix, Number(issuedOn.slice(0, 4)));
  const billTo = billToOf(user);
  const seller = { ...invoicing.seller, remitTo: invoicing.remitTo };
  const pdf = renderInvoicePdf({
    number,
    seller: invoicing.seller,
    billTo,
    remitTo: invoicing.remitTo,
    supportPhone: deps.company.supportPhone,
    issuedOn,
    dueOn: period.start,
    periodStart: period.start,
    periodEnd: period.end,
    lines: priced.lines,
    discountCents: priced.discountCents,
    totalCents: priced.totalCents,
    issuedAt: now,
  });
  const [row] = await tx
    .insert(invoices)
    .values({
      userId: user.id,
      number,
      kind: input.kind,
      status: 'open',
      issuedOn,
      dueOn: period.start,
      periodStart: period.start,
      periodEnd: period.end,
      nextStart: period.nextStart,
      codes: [...input.codes],
      lines: priced.lines,
      discountCents: priced.discountCents,
      totalCents: priced.totalCents,
      quote: priced,
      seller,
      billTo,
      pdf,
      createdAt: now,
    })
    .returning();
  if (!row) throw new Error('the invoice was not written');
  if (input.mail === false) return row;
  const renewal = input.kind === 'renewal';
  const replaced = input.replaces;
  const subject = replaced
    ? `${deps.company.name}: invoice ${number} replaces invoice ${replaced.number}`
    : renewal
      ? `${deps.company.name}: your invoice ${number} for next year`
      : `${deps.company.name}: your invoice ${number} for annual billing`;
  await enqueueMail(
    tx,
    {
      to: user.email,
      content: annualBillingMail({
        company: deps.company.name,
        subject,
        text: [
          `Hello ${user.firstName},`,
          '',
          ...(replaced
            ? [
                `${replaced.because}, so the invoice for your year billed annually by check, ${shown(period.start)} to ${shown(period.end)}, changes too: invoice ${replaced.number} (${formatCurrency(replaced.totalCents)}) is void, and invoice ${number} replaces it. The new invoice is attached: ${formatCurrency(priced.totalCents)}, with the 10% discount, at the prices in force on ${shown(period.start)}.`,
              ]
            : [
                renewal
                  ? `Your year billed annually by check ends on ${shown(period.start)}. Your invoice ${number} for the next year, ${shown(period.start)} to ${shown(period.end)}, is attached: ${formatCurrency(priced.totalCents)}, with the 10% discount, at the prices in force on ${shown(period.start)}.`
                  : `Your invoice ${number} for a year billed annually by check, ${shown(period.start)} to ${shown(period.end)}, is attached: ${formatCurrency(priced.totalCents)}, with the 10% discount.`,
              ]),
          `Please send a check payable to ${invoicing.remitTo.payee} by ${shown(period.start)}, with the invoice number on it, to:`,
          ...[invoicing.remitTo.payee, ...invoicing.remitTo.lines].map((line) => `  ${line}`),
          '',
          ...(replaced ? [replacedInvoiceAdvice(replaced.number, deps.company.supportPhone)] : []),
          renewal
            ? 'If the check has not arrived by then, the invoice is voided and your card on file is billed monthly again.'
            : 'Until the check arrives, your monthly card billing goes on. If it has not arrived by the due date, the invoice is voided and monthly card billing simply goes on.',
          'The invoice is also under Billing Details in your account.',
          '',
          `Questions? Call ${deps.company.supportPhone}.`,
        ].join('\n'),
      }),
      invoiceId: row.id,
    },
    deps.mailKind,
  );
  return row;
}

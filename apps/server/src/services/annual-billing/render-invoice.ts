/**
 * An invoice for a year paid by check (R14) as a one-page tagged PDF, with the receipts' writer
 * and layout (decisions 011 and 039): rendered once when the invoice is issued, stored with it,
 * attached to its e-mail and served as stored.
 */
import { formatCurrency, type TCents } from '@dealerpass/domain/money';
import { formatCalendarDate, parseIsoDate } from '@dealerpass/domain/time/calendar-date';
import { PdfPage, type ITextStyle, type TRgb } from '../../lib/pdf/pdf-page.ts';
import { writePdf } from '../../lib/pdf/write-pdf.ts';

export interface IInvoiceParty {
  name: string;
  lines: readonly string[];
}

export interface IInvoiceDocument {
  number: string;
  seller: IInvoiceParty;
  /** The dealer's billing name and address. */
  billTo: IInvoiceParty & { dealerpassUserId: string };
  remitTo: { payee: string; lines: readonly string[] };
  supportPhone: string;
  /** 'YYYY-MM-DD' business dates. */
  issuedOn: string;
  dueOn: string;
  periodStart: string;
  periodEnd: string;
  lines: readonly { label: string; amountCents: TCents }[];
  discountCents: TCents;
  totalCents: TCents;
  /** The PDF's CreationDate. */
  issuedAt: Date;
}

const INK: TRgb = [0.13, 0.15, 0.18];
const MUTED: TRgb = [0.42, 0.45, 0.5];
const RULE: TRgb = [0.82, 0.84, 0.87];
const ACCENT: TRgb = [0.09, 0.27, 0.49];
const BAND: TRgb = [0.94, 0.95, 0.97];

const LEFT = 54;
const RIGHT = 558;
const MIDDLE = 318;
const FOOTER_TOP = 712;

function displayDate(isoDate: string): string {
  return formatCalendarDate(parseIsoDate(isoDate));
}

/** A wrong invoice is never stored: the lines less the discount are the total. */
function assertConsistent(invoice: IInvoiceDocument): void {
  const amounts = [
    invoice.discountCents,
    invoice.totalCents,
    ...invoice.lines.map((l) => l.amountCents),
  ];
  if (!amounts.every(Number.isSafeInteger))
    throw new Error('invoice amounts must be integer cents');
  if (invoice.lines.length === 0) throw new Error('an invoice needs at least one line');
  const sum = invoice.lines.reduce((total, line) => total + line.amountCents, 0);
  if (sum - invoice.discountCents !== invoice.totalCents) {
    throw new Error(`invoice total ${invoice.totalCents} is not lines − discount (${sum})`);
  }
  for (const date of [invoice.issuedOn, invoice.dueOn, invoice.periodStart, invoice.periodEnd]) {
    if (!parseIsoDate(date)) throw new Error(`not a YYYY-MM-DD date: ${date}`);
  }
}

/** Renders the invoice; the same invoice always gives the same bytes. */
export function renderInvoicePdf(invoice: IInvoiceDocument): Buffer {
  assertConsistent(invoice);
  const page = new PdfPage();
  const at = (top: number) => page.height - top;
  const text = (x: number, top: number, value: string, style: ITextStyle = {}) =>
    page.text(x, at(top), value, { color: INK, ...style });
  const label = (x: number, top: number, value: string, style: ITextStyle = {}) =>
    text(x, top, value.toUpperCase(), { font: 'Sans-Bold', size: 7.5, color: MUTED, ...style });
  const rule = (top: number, color: TRgb = RULE, x1 = LEFT, x2 = RIGHT) =>
    page.line(x1, at(top), x2, at(top), { color, width: 0.75 });

  // Header: the seller on the left, "Invoice" with its number and dates on the right.
  page.fillRect(0, at(10), page.width, 10, ACCENT);
  const { seller, billTo, remitTo } = invoice;
  text(LEFT, 70, seller.name, { font: 'Sans-Bold', size: 20, color: ACCENT, maxWidth: 250 });
  seller.lines
    .slice(0, 4)
    .forEach((line, i) => text(LEFT, 88 + i * 13, line, { size: 9, color: MUTED, maxWidth: 250 }));
  text(RIGHT, 70, 'Invoice', { font: 'Sans-Bold', size: 22, align: 'right', tag: 'H1' });
  const meta: [string, string][] = [
    ['Invoice number', invoice.number],
    ['Issue date', displayDate(invoice.issuedOn)],
    ['Due date', displayDate(invoice.dueOn)],
  ];
  meta.forEach(([name, value], i) => {
    label(MIDDLE + 40, 88 + i * 14, name);
    text(RIGHT, 88 + i * 14, value, { size: 9, align: 'right' });
  });
  rule(150);

  // Billed to, and the period paid for.
  label(LEFT, 176, 'Bill to', { tag: 'H2' });
  text(LEFT, 192, billTo.name, { font: 'Sans-Bold', size: 11, maxWidth: MIDDLE - LEFT - 24 });
  const billLines = billTo.lines.slice(0, 4);
  billLines.forEach((line, i) =>
    text(LEFT, 207 + i * 14, line, { maxWidth: MIDDLE - LEFT - 24, minSize: 7 }),
  );
  text(LEFT, 207 + billLines.length * 14, `DealerPass user ID ${billTo.dealerpassUserId}`, {
    size: 9,
    color: MUTED,
    maxWidth: MIDDLE - LEFT - 24,
    minSize: 6,
  });
  label(MIDDLE, 176, 'Annual period', { tag: 'H2' });
  text(MIDDLE, 192, `${displayDate(invoice.periodStart)} – ${displayDate(invoice.periodEnd)}`, {
    font: 'Sans-Bold',
    size: 11,
    maxWidth: RIGHT - MIDDLE,
  });
  text(MIDDLE, 207, 'Billed annually by check, 10% discount', { size: 9, color: MUTED });
  let top = Math.max(250, 207 + (billLines.length + 1) * 14 + 24);

  // The lines: one per item (× 12), the platform fee, then the discount as its own line.
  page.fillRect(LEFT, at(top + 7), RIGHT - LEFT, 20, BAND);
  const rows = [
    ...invoice.lines.map((line) => ({ label: line.label, cents: line.amountCents })),
    { label: 'Annual discount (10%)', cents: -invoice.discountCents },
  ];
  const room = FOOTER_TOP - 250 - (top + 13);
  const rowHeight = Math.min(20, room / rows.length);
  if (rowHeight < 9) throw new Error(`${rows.length} lines do not fit on one page`);
  const size = rowHeight >= 16 ? 10 : Math.min(9, rowHeight * 0.72);
  page.group('Table', () => {
    page.group('TR', () => {
      label(LEFT + 8, top + 1, 'Item', { tag: 'TH' });
      label(RIGHT - 8, top + 1, 'Amount', { align: 'right', tag: 'TH' });
    });
    top += 13;
    for (const row of rows) {
      const baseline = top + rowHeight / 2 + size * 0.35;
      page.group('TR', () => {
        text(LEFT + 8, baseline, row.label, { size, maxWidth: RIGHT - LEFT - 120, tag: 'TD' });
        text(RIGHT - 8, baseline, formatCurrency(row.cents), { size, align: 'right', tag: 'TD' });
      });
      top += rowHeight;
      rule(top);
    }
  });
  top += 22;
  text(430, top, 'Total due', { font: 'Sans-Bold', size: 12, align: 'right' });
  text(RIGHT - 8, top, formatCurrency(invoice.totalCents), {
    font: 'Sans-Bold',
    size: 12,
    align: 'right',
  });

  // How to pay.
  top += 36;
  label(LEFT, top, 'How to pay', { tag: 'H2' });
  const howTo = [
    `Pay by check of ${formatCurrency(invoice.totalCents)} by ${displayDate(invoice.dueOn)}, payable to ${remitTo.payee}.`,
    `Write the invoice number ${invoice.number} on the check.`,
    'Mail it to:',
  ];
  howTo.forEach((line, i) =>
    text(LEFT, top + 16 + i * 14, line, { size: 10, maxWidth: RIGHT - LEFT }),
  );
  top += 16 + howTo.length * 14;
  [remitTo.payee, ...remitTo.lines]
    .slice(0, 6)
    .forEach((line, i) =>
      text(LEFT + 16, top + i * 14, line, { size: 10, font: i === 0 ? 'Sans-Bold' : 'Sans' }),
    );
  top += 6 * 14;
  text(
    LEFT,
    Math.min(top, FOOTER_TOP - 16),
    'Until the check arrives, your monthly card billing goes on. An invoice not paid by its due date is voided.',
    { size: 9, color: MUTED, maxWidth: RIGHT - LEFT },
  );

  rule(FOOTER_TOP);
  text(
    page.width / 2,
    FOOTER_TOP + 20,
    `Questions about this invoice? Call ${seller.name} Support at ${invoice.supportPhone}.`,
    { size: 9, color: MUTED, align: 'center', maxWidth: RIGHT - LEFT },
  );

  return writePdf(
    page,
    {
      title: `${seller.name} invoice ${invoice.number}`,
      producer: seller.name,
      creationDate: invoice.issuedAt,
    },
    { compress: false },
  );
}

/**
 * The receipt of one successful payment as a one-page PDF (issue 5, DECISIONS R4, R9). The
 * billing engine renders it once, when the charge succeeds, stores the bytes with the payment
 * and mails them; downloads serve the stored bytes and never render again.
 */
import { formatCurrency, type TCents } from '@dealerpass/domain/money';
import { formatCalendarDate, parseIsoDate } from '@dealerpass/domain/time/calendar-date';
import { billingPeriodText, cardBrandName } from '@dealerpass/domain/billing/receipt-text';
import { PdfPage, type ITextStyle, type TRgb } from '../../lib/pdf/pdf-page.ts';
import { writePdfParts, type IWrittenPdf } from '../../lib/pdf/write-pdf.ts';

export interface IReceiptAddress {
  line1: string;
  line2?: string | null;
  city: string;
  state?: string | null;
  postalCode: string;
  country?: string | null;
}

/** One charged item; a quote's IQuoteLine fits. Other charges (a balance, a fee) have their own code. */
export interface IReceiptLine {
  code: string;
  name: string;
  /** What was charged for the line; 0 when free. */
  cents: TCents;
  /** An extra included free with the paid items (R3): shown as "Included". */
  free: boolean;
}

/** The account fields a receipt prints (a `users` row has them all). */
export interface IReceiptAccountFields {
  dealerpassUserId: string;
  firstName: string;
  lastName: string;
  email: string;
  dealership: string;
  address1: string;
  address2: string | null;
  city: string;
  state: string;
  zip: string;
  country: string | null;
}

/** Who a receipt is for, as printed: the account and its dealership's address. */
export function receiptParties(
  user: IReceiptAccountFields,
): Pick<IReceipt, 'account' | 'dealership'> {
  return {
    account: {
      dealerpassUserId: user.dealerpassUserId,
      name: `${user.firstName} ${user.lastName}`,
      email: user.email,
    },
    dealership: {
      name: user.dealership,
      address: {
        line1: user.address1,
        line2: user.address2,
        city: user.city,
        state: user.state,
        postalCode: user.zip,
        country: user.country,
      },
    },
  };
}

export interface IReceipt {
  company: { name: string; supportPhone: string };
  account: { dealerpassUserId: string; name: string; email: string };
  dealership: { name: string; address: IReceiptAddress };
  /** 'YYYY-MM-DD' business dates: the first and the last day the payment covers. */
  period: { from: string; to: string };
  lines: readonly IReceiptLine[];
  platformFeeCents: TCents;
  /** Must equal the lines plus the platform fee. */
  totalCents: TCents;
  card: { brand: string; lastFour: string };
  /**
   * A payment that is not a card's: what paid, printed as "Paid with {paidWith}" (R14: a check's
   * receipt says "Check {number}"); the card is then not printed.
   */
  paidWith?: string;
  /** The payment's activationDate, 'YYYY-MM-DD' in the business time zone. */
  paymentDate: string;
  paymentId: string;
  /** When the payment succeeded (a refund's receipt: when the refund did); the PDF's CreationDate. */
  issuedAt: Date;
  /**
   * A refund's receipt (R12): the same page for the payment refunded, titled as a refund, with
   * the amount given back to the card and what earlier refunds of the payment gave back.
   */
  refund?: IReceiptRefund;
}

export interface IReceiptRefund {
  refundId: string;
  /** 'YYYY-MM-DD' in the business time zone. */
  refundDate: string;
  amountCents: TCents;
  /** Refunded of the same payment before this refund. */
  earlierRefundsCents: TCents;
}

const INK: TRgb = [0.13, 0.15, 0.18];
const MUTED: TRgb = [0.42, 0.45, 0.5];
const RULE: TRgb = [0.82, 0.84, 0.87];
const ACCENT: TRgb = [0.09, 0.27, 0.49];
const BAND: TRgb = [0.94, 0.95, 0.97];

const LEFT = 54;
const RIGHT = 558;
const MIDDLE = 318;
const CODE_X = 372;
const FOOTER_TOP = 712;
/** Space between the table and the footer for the payment block and the totals. */
const SUMMARY_HEIGHT = 96;
/** A refund's receipt adds up to three lines under the totals. */
const REFUND_SUMMARY_HEIGHT = 140;

/** Checks that keep a wrong receipt from ever being stored. A failure here is a bug upstream. */
function assertConsistent(receipt: IReceipt): void {
  const amounts = [
    receipt.platformFeeCents,
    receipt.totalCents,
    ...receipt.lines.map((l) => l.cents),
  ];
  if (!amounts.every(Number.isSafeInteger)) {
    throw new Error('receipt amounts must be integer cents');
  }
  if (receipt.lines.length === 0) throw new Error('a receipt needs at least one line');
  if (receipt.lines.some((line) => line.free && line.cents !== 0)) {
    throw new Error('a free line must charge 0 cents');
  }
  const sum = receipt.lines.reduce((total, line) => total + line.cents, receipt.platformFeeCents);
  if (sum !== receipt.totalCents) {
    throw new Error(`receipt total ${receipt.totalCents} is not lines + fee (${sum})`);
  }
  // R5: a receipt shows the last four digits and nothing more of a card.
  if (receipt.paidWith === undefined && !/^\d{4}$/.test(receipt.card.lastFour)) {
    throw new Error('card.lastFour must be four digits');
  }
  for (const date of [receipt.paymentDate, receipt.period.from, receipt.period.to]) {
    if (!parseIsoDate(date)) throw new Error(`not a YYYY-MM-DD date: ${date}`);
  }
  const refund = receipt.refund;
  if (refund) {
    if (!parseIsoDate(refund.refundDate)) throw new Error('refundDate must be YYYY-MM-DD');
    const { amountCents, earlierRefundsCents } = refund;
    if (![amountCents, earlierRefundsCents].every(Number.isSafeInteger) || amountCents <= 0) {
      throw new Error('a refund is a positive number of integer cents');
    }
    if (earlierRefundsCents < 0 || earlierRefundsCents + amountCents > receipt.totalCents) {
      throw new Error('a payment is never refunded beyond its total');
    }
  }
}

/** 'Mar 01, 2025', the account pages' date format (000 §4). */
function displayDate(isoDate: string): string {
  return formatCalendarDate(parseIsoDate(isoDate));
}

function addressLines(address: IReceiptAddress): string[] {
  const region = [address.state, address.postalCode].filter(Boolean).join(' ');
  return [
    address.line1,
    address.line2 ?? '',
    [address.city, region].filter(Boolean).join(', '),
    address.country ?? '',
  ].filter((line) => line.trim() !== '');
}

/** Renders the receipt; the same receipt always gives the same bytes. */
export function renderReceiptPdf(receipt: IReceipt): Buffer {
  return renderReceipt(receipt).pdf;
}

/** The receipt's PDF and where its font programs are in it (what storage shares, decision 066). */
export function renderReceipt(receipt: IReceipt): IWrittenPdf {
  assertConsistent(receipt);
  const page = new PdfPage();
  // Layout is written top-down: `top` is the distance of a baseline from the page's top edge.
  const at = (top: number) => page.height - top;
  const text = (x: number, top: number, value: string, style: ITextStyle = {}) =>
    page.text(x, at(top), value, { color: INK, ...style });
  const label = (x: number, top: number, value: string, style: ITextStyle = {}) =>
    text(x, top, value.toUpperCase(), {
      font: 'Sans-Bold',
      size: 7.5,
      color: MUTED,
      ...style,
    });
  const rule = (top: number, color: TRgb = RULE, x1 = LEFT, x2 = RIGHT) =>
    page.line(x1, at(top), x2, at(top), { color, width: 0.75 });

  // Header: company and support line on the left, "Receipt" with its date and id on the right.
  page.fillRect(0, at(10), page.width, 10, ACCENT);
  const { company, account, dealership } = receipt;
  text(LEFT, 70, company.name, { font: 'Sans-Bold', size: 22, color: ACCENT, maxWidth: 300 });
  text(LEFT, 88, `Support ${company.supportPhone}`, { size: 9, color: MUTED, maxWidth: 250 });
  const { refund } = receipt;
  // The tags give the reading order and roles a screen reader announces (decision 039).
  text(RIGHT, 70, refund ? 'Refund receipt' : 'Receipt', {
    font: 'Sans-Bold',
    size: 22,
    align: 'right',
    tag: 'H1',
  });
  // The payment id is what support asks for: a long one is set smaller (down to 6 points) first.
  const metaLabelX = MIDDLE;
  const metaWidth = RIGHT - MIDDLE - 66;
  const idText = (top: number, value: string) =>
    text(RIGHT, top, value, { size: 9, align: 'right', maxWidth: metaWidth, minSize: 6 });
  if (refund) {
    label(metaLabelX, 88, 'Refund date');
    text(RIGHT, 88, displayDate(refund.refundDate), { size: 9, align: 'right' });
    label(metaLabelX, 102, 'Refund ID');
    idText(102, refund.refundId);
  } else {
    label(metaLabelX, 88, 'Payment date');
    text(RIGHT, 88, displayDate(receipt.paymentDate), { size: 9, align: 'right' });
    label(metaLabelX, 102, 'Payment ID');
    idText(102, receipt.paymentId);
  }
  rule(120);

  // Who paid, and for which dealership.
  const columnWidth = MIDDLE - LEFT - 24;
  label(LEFT, 146, 'Billed to', { tag: 'H2' });
  text(LEFT, 162, account.name, { font: 'Sans-Bold', size: 11, maxWidth: columnWidth });
  text(LEFT, 177, account.email, { size: 10, maxWidth: columnWidth, minSize: 7 });
  text(LEFT, 192, `DealerPass user ID ${account.dealerpassUserId}`, {
    size: 10,
    maxWidth: columnWidth,
    minSize: 7,
  });
  label(MIDDLE, 146, 'Dealership', { tag: 'H2' });
  text(MIDDLE, 162, dealership.name, {
    font: 'Sans-Bold',
    size: 11,
    maxWidth: RIGHT - MIDDLE,
  });
  const address = addressLines(dealership.address).slice(0, 4);
  address.forEach((line, i) => text(MIDDLE, 177 + i * 15, line, { maxWidth: RIGHT - MIDDLE }));
  let top = Math.max(192, 162 + address.length * 15) + 30;

  label(LEFT, top, 'Billing period');
  text(LEFT + 78, top, billingPeriodText(receipt.period));
  top += 26;

  // The items: as many rows as there are lines, squeezed if needed so the page stays one page.
  page.fillRect(LEFT, at(top + 7), RIGHT - LEFT, 20, BAND);
  const room = FOOTER_TOP - (refund ? REFUND_SUMMARY_HEIGHT : SUMMARY_HEIGHT) - (top + 13);
  const rowHeight = Math.min(22, room / receipt.lines.length);
  // 23 selectable items and a balance still get 14-point rows; far more would not be legible.
  if (rowHeight < 9) throw new Error(`${receipt.lines.length} lines do not fit on one page`);
  const size = rowHeight >= 16 ? 10 : Math.min(9, rowHeight * 0.72);
  page.group('Table', () => {
    page.group('TR', () => {
      label(LEFT + 8, top + 1, 'Item', { tag: 'TH' });
      label(CODE_X, top + 1, 'Code', { tag: 'TH' });
      label(RIGHT - 8, top + 1, 'Amount', { align: 'right', tag: 'TH' });
    });
    top += 13;
    for (const line of receipt.lines) {
      const baseline = top + rowHeight / 2 + size * 0.35;
      page.group('TR', () => {
        text(LEFT + 8, baseline, line.name, { size, maxWidth: CODE_X - LEFT - 20, tag: 'TD' });
        text(CODE_X, baseline, line.code, { size, color: MUTED, maxWidth: 90, tag: 'TD' });
        text(RIGHT - 8, baseline, line.free ? 'Included' : formatCurrency(line.cents), {
          size,
          align: 'right',
          tag: 'TD',
          ...(line.free ? { color: MUTED } : {}),
        });
      });
      top += rowHeight;
      rule(top);
    }
  });

  // Payment on the left, totals on the right.
  top += 24;
  const totalsLabelX = 430;
  const subtotal = receipt.totalCents - receipt.platformFeeCents;
  label(LEFT, top, 'Payment', { tag: 'H2' });
  text(totalsLabelX, top, 'Subtotal', { size: 10, color: MUTED, align: 'right' });
  text(RIGHT - 8, top, formatCurrency(subtotal), { size: 10, align: 'right' });
  text(
    LEFT,
    top + 17,
    receipt.paidWith !== undefined
      ? `Paid with ${receipt.paidWith}`
      : `Paid with ${cardBrandName(receipt.card.brand)} ending in ${receipt.card.lastFour}`,
    {
      maxWidth: totalsLabelX - LEFT - 100,
    },
  );
  text(totalsLabelX, top + 17, 'Platform fee', { size: 10, color: MUTED, align: 'right' });
  text(RIGHT - 8, top + 17, formatCurrency(receipt.platformFeeCents), {
    size: 10,
    align: 'right',
  });
  text(LEFT, top + 32, `Paid on ${displayDate(receipt.paymentDate)}`);
  rule(top + 28, RULE, totalsLabelX - 70, RIGHT);
  text(totalsLabelX, top + 47, 'Total', { font: 'Sans-Bold', size: 12, align: 'right' });
  text(RIGHT - 8, top + 47, formatCurrency(receipt.totalCents), {
    font: 'Sans-Bold',
    size: 12,
    align: 'right',
  });
  if (refund) {
    drawRefund(refund, top + 47);
  } else {
    text(LEFT, top + 47, `Amount paid ${formatCurrency(receipt.totalCents)}`, {
      font: 'Sans-Bold',
    });
  }

  // A refund's lines below the payment's totals: what earlier refunds and this one gave back.
  function drawRefund(given: IReceiptRefund, from: number) {
    text(LEFT, from, `Payment ID ${receipt.paymentId}`, {
      size: 9,
      color: MUTED,
      maxWidth: totalsLabelX - LEFT - 100,
      minSize: 6,
    });
    let line = from + 17;
    if (given.earlierRefundsCents > 0) {
      text(totalsLabelX, line, 'Refunded before', { size: 10, color: MUTED, align: 'right' });
      text(RIGHT - 8, line, formatCurrency(-given.earlierRefundsCents), {
        size: 10,
        align: 'right',
      });
      line += 15;
    }
    text(totalsLabelX, line, 'Refunded', { font: 'Sans-Bold', size: 12, align: 'right' });
    text(RIGHT - 8, line, formatCurrency(-given.amountCents), {
      font: 'Sans-Bold',
      size: 12,
      align: 'right',
    });
    text(LEFT, line, `Amount refunded ${formatCurrency(given.amountCents)}`, {
      font: 'Sans-Bold',
    });
    text(
      LEFT,
      line + 15,
      `Refunded to ${cardBrandName(receipt.card.brand)} ending in ${receipt.card.lastFour} on ${displayDate(given.refundDate)}`,
      { size: 9, maxWidth: totalsLabelX - LEFT - 20 },
    );
  }

  // Footer.
  rule(FOOTER_TOP);
  text(page.width / 2, FOOTER_TOP + 20, `Thank you for choosing ${company.name}.`, {
    font: 'Sans-Bold',
    size: 10,
    align: 'center',
  });
  text(
    page.width / 2,
    FOOTER_TOP + 36,
    `Questions about this receipt? Call ${company.name} Support at ${company.supportPhone}.`,
    { size: 9, color: MUTED, align: 'center', maxWidth: RIGHT - LEFT },
  );

  // The content stream is left uncompressed: deflating its 4–5 KB costs as much as the rest of
  // the receipt and would save only a tenth of a file that is mostly embedded fonts (039).
  return writePdfParts(
    page,
    {
      title: refund
        ? `${company.name} refund receipt ${refund.refundId}`
        : `${company.name} receipt ${receipt.paymentId}`,
      producer: company.name,
      creationDate: receipt.issuedAt,
    },
    { compress: false },
  );
}

import { randomUUID } from 'node:crypto';
import { billingPeriods, payments, refunds, staffAudit } from '../src/db/schema.ts';
import { renderReceiptPdf } from '../src/services/receipts/render-receipt.ts';
import { sampleReceipt } from '../src/services/receipts/sample-receipt.ts';
import type { TestApp, TestBrowser } from './helper.ts';
import { staffSessionFor } from './staff-sign-in.ts';
import { STAFF_ROLES, type TStaffRole } from '@dealerpass/domain/staff/roles';

/**
 * What the operator console's API tests share: payments stored as the billing engine stores them
 * (a period, a payment with its rendered receipt), refunds, audit rows, and a browser per staff
 * role whose requests carry the CSRF cookie and token and the staff cookie.
 */

export async function insertPayment(
  t: TestApp,
  userId: string,
  fields: {
    amountCents: number;
    activationDate?: string;
    cardLast4?: string;
    status?: 'succeeded' | 'refunded';
    gatewayTransactionId?: string;
    createdAt?: Date;
  },
) {
  const activationDate = fields.activationDate ?? '2026-02-01';
  const id = randomUUID();
  const pdf = renderReceiptPdf(
    sampleReceipt({
      lines: [{ code: 'NADA', name: 'NADA pricing guide', cents: fields.amountCents, free: false }],
      platformFeeCents: 0,
      totalCents: fields.amountCents,
      card: { brand: 'Visa', lastFour: fields.cardLast4 ?? '1111' },
      paymentDate: activationDate,
      period: { from: activationDate, to: activationDate },
      paymentId: id,
      issuedAt: new Date(`${activationDate}T15:00:00Z`),
    }),
  );
  const [period] = await t.app.db
    .insert(billingPeriods)
    .values({
      userId,
      kind: 'renewal',
      periodStart: activationDate,
      periodEnd: activationDate,
      amountCents: fields.amountCents,
      quote: {},
      status: 'paid',
      idempotencyKey: `test-${id}`,
    })
    .returning();
  const [payment] = await t.app.db
    .insert(payments)
    .values({
      id,
      userId,
      billingPeriodId: period!.id,
      amountCents: fields.amountCents,
      gatewayTransactionId: fields.gatewayTransactionId ?? `txn-${id}`,
      cardBrand: 'visa',
      cardLast4: fields.cardLast4 ?? '1111',
      activationDate,
      receiptPdf: pdf,
      status: fields.status ?? 'succeeded',
      ...(fields.createdAt ? { createdAt: fields.createdAt } : {}),
    })
    .returning();
  return { payment: payment!, pdf };
}

export async function insertRefund(
  t: TestApp,
  payment: { id: string; userId: string },
  fields: { amountCents: number; status: 'pending' | 'succeeded' | 'failed'; createdAt?: Date },
) {
  const [row] = await t.app.db
    .insert(refunds)
    .values({
      paymentId: payment.id,
      userId: payment.userId,
      amountCents: fields.amountCents,
      status: fields.status,
      requestKey: randomUUID(),
      reason: 'test refund',
      staffId: randomUUID(),
      ...(fields.createdAt ? { createdAt: fields.createdAt } : {}),
    })
    .returning();
  return row!;
}

export async function insertAudit(
  t: TestApp,
  fields: {
    userId?: string | null;
    action?: string;
    reason?: string | null;
    at?: Date;
    staffEmail?: string;
    before?: unknown;
    after?: unknown;
  },
) {
  const [row] = await t.app.db
    .insert(staffAudit)
    .values({
      at: fields.at ?? new Date(),
      staffId: randomUUID(),
      staffEmail: fields.staffEmail ?? 'auditor@staff.test',
      userId: fields.userId ?? null,
      action: fields.action ?? 'block',
      reason: fields.reason ?? null,
      before: fields.before ?? null,
      after: fields.after ?? null,
    })
    .returning();
  return row!;
}

export type StaffBrowsers = Record<TStaffRole, TestBrowser & { email: string }>;

/** One browser per staff role, each with its own verified staff session. */
export async function staffBrowsers(t: TestApp): Promise<StaffBrowsers> {
  const browsers = {} as StaffBrowsers;
  for (const role of STAFF_ROLES) {
    const browser = await t.browser();
    const { cookie, staff } = await staffSessionFor(t, role);
    browsers[role] = staffBrowser(browser, cookie, staff.email);
  }
  return browsers;
}

/** A browser whose requests carry a staff cookie besides its CSRF cookie. */
export function staffBrowser(
  browser: TestBrowser,
  staffCookie: string,
  email = '',
): TestBrowser & { email: string } {
  const cookie = `${browser.cookie}; ${staffCookie}`;
  return {
    cookie,
    token: browser.token,
    email,
    request: (options) =>
      browser.request({ ...options, headers: { cookie, ...(options.headers ?? {}) } }),
  };
}

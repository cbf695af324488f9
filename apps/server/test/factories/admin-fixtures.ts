import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { STAFF_ROLES, type TStaffRole } from '@dealerpass/domain/admin/roles';
import {
  billingPeriods,
  payments,
  refunds,
  sandboxGatewayTransactions,
  staffAudit,
  users,
} from '../../src/db/schema.ts';
import { runBilling } from '../../src/services/billing/run-billing.ts';
import { renderReceiptPdf } from '../../src/services/receipts/render-receipt.ts';
import { sampleReceipt } from '../../src/services/receipts/sample-receipt.ts';
import type { TestApp, TestBrowser } from '../support/helper.ts';
import { subscribeWithCard } from './subscriber-factory.ts';
import { createAccount } from './sign-in.ts';
import { signupBody } from './signup-body.ts';
import { staffSessionFor } from './staff-sign-in.ts';

// The account actions' fixtures (console-money) and the read side's (console-ops), one file.

export const APPROVED_CARD = '4111111111111111';
export const DECLINED_CARD = '4000000000000002';

let counter = 0;
let ipCounter = 0;
/** Each sign-up from its own address, so the per-client limits never interfere. */
const freshIp = () => `10.19.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;
const uniqueEmail = (prefix: string) => `${prefix}${++counter}-${Date.now() % 100000}@example.com`;

/** A staff member's session per role (second factor verified), and one without the factor. */
export async function staffCookies(t: TestApp) {
  const roles: TStaffRole[] = ['support', 'billing', 'admin'];
  const byRole = {} as Record<TStaffRole, { cookie: string; email: string; staffId: string }>;
  for (const role of roles) {
    const session = await staffSessionFor(t, role);
    byRole[role] = {
      cookie: session.cookie,
      email: session.staff.email,
      staffId: session.staff.id,
    };
  }
  const pending = await staffSessionFor(t, 'admin', { secondFactor: false });
  return { ...byRole, pending: pending.cookie };
}

/** A POST from the console: the browser's CSRF cookie and token, plus the given session cookie. */
export function consolePost(
  t: TestApp,
  browser: TestBrowser,
  cookie: string | null,
  url: string,
  payload: object,
): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method: 'POST',
    url,
    headers: {
      cookie: [browser.cookie, cookie].filter(Boolean).join('; '),
      'x-csrf-token': browser.token,
      'content-type': 'application/json',
    },
    payload: JSON.stringify(payload),
  });
}

/** A dealer account without a card (no DealerPass ID unless asked for). */
export async function plainDealer(t: TestApp, fields: Partial<typeof users.$inferInsert> = {}) {
  const { user } = await createAccount(t, {
    email: uniqueEmail('dealer'),
    withIdentity: false,
    ...fields,
  });
  return user;
}

/**
 * A dealer with a card on file whose monthly period ended today (`today` is the clock's business
 * date), so the billing run charges it now: a renewal payment with its receipt, or with a
 * declining card a failed renewal (validating payment, R4).
 */
export async function renewingDealer(
  t: TestApp,
  input: { now: Date; today: string; previous: string; card?: string; codes?: string[] },
) {
  const codes = input.codes ?? ['NADA', 'MMR'];
  const user = await plainDealer(t, { subscriptions: codes });
  const profile = await subscribeWithCard(t, {
    userId: user.id,
    email: user.email,
    codes,
    cycleAnchor: input.previous,
    currentPeriodStart: input.previous,
    currentPeriodEnd: input.today,
    now: input.now,
    card: input.card ?? APPROVED_CARD,
  });
  await runBilling(t.app.deps.billing, { userId: user.id });
  const [payment] = await t.app.db.select().from(payments).where(eq(payments.userId, user.id));
  return { user, payment: payment ?? null, customer: profile };
}

/** A sign-up through the API, charged at once (R4): the account, its DealerPass ID, its payment. */
export async function signedUpDealer(t: TestApp, browser: TestBrowser) {
  const email = uniqueEmail('signup');
  const token = await t.app.inject({
    method: 'POST',
    url: '/sandbox-gateway/v1/tokens',
    payload: {
      creditCardNumber: APPROVED_CARD,
      creditCardExpiration: '12/30',
      creditCardCode: '123',
    },
    remoteAddress: freshIp(),
  });
  const card = token.json<{
    data: { paymentToken: string; cardBrand: string; cardLast4: string };
  }>().data;
  const response = await browser.request({
    method: 'POST',
    url: '/api/v2/signup',
    remoteAddress: freshIp(),
    payload: signupBody(email, {
      paymentToken: card.paymentToken,
      cardBrand: card.cardBrand,
      cardLast4: card.cardLast4,
      creditCardExpiration: '1230',
      recaptcha: await t.solveCaptcha(),
    }),
  });
  if (response.statusCode !== 201) throw new Error(`sign-up failed: ${response.body}`);
  const [user] = await t.app.db.select().from(users).where(eq(users.email, email));
  if (!user) throw new Error('no signed-up user');
  const [payment] = await t.app.db.select().from(payments).where(eq(payments.userId, user.id));
  if (!payment) throw new Error('no sign-up payment');
  return { user, payment };
}

/** The audit rows of an account, oldest first. */
export async function auditOf(t: TestApp, userId: string) {
  return t.app.db
    .select()
    .from(staffAudit)
    .where(eq(staffAudit.userId, userId))
    .orderBy(staffAudit.id);
}

/** The sandbox gateway's refunds of a charge: the money that really went back. */
export async function gatewayRefundsOf(t: TestApp, transactionId: string) {
  const rows = await t.app.db
    .select()
    .from(sandboxGatewayTransactions)
    .where(eq(sandboxGatewayTransactions.chargeId, transactionId));
  return rows.filter((row) => row.kind === 'refund');
}

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

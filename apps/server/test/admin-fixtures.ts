import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import type { TStaffRole } from '@dealerpass/domain/staff/roles';
import {
  payments,
  sandboxGatewayTransactions,
  staffAudit,
  subscriptions,
  users,
} from '../src/db/schema.ts';
import { issueSandboxToken } from '../src/sandboxes/payments/sandbox-tokens.ts';
import { runBilling } from '../src/services/billing/run-billing.ts';
import type { TestApp, TestBrowser } from './helper.ts';
import { createAccount } from './sign-in.ts';
import { staffSessionFor } from './staff-sign-in.ts';

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
  const token = await issueSandboxToken(
    t.app.db,
    {
      creditCardNumber: input.card ?? APPROVED_CARD,
      creditCardExpiration: '1230',
      creditCardCode: '123',
    },
    input.now,
  );
  const profile = await t.app.payments.createCustomerProfile({
    accountId: user.id,
    email: user.email,
    paymentToken: token.paymentToken,
  });
  await t.app.db
    .update(users)
    .set({ cardBrand: profile.card.brand, cardLast4: profile.card.last4 })
    .where(eq(users.id, user.id));
  await t.app.db.insert(subscriptions).values({
    userId: user.id,
    codes,
    cycleAnchor: input.previous,
    currentPeriodStart: input.previous,
    currentPeriodEnd: input.today,
    gatewayCustomerId: profile.customerProfileId,
    gatewayPaymentProfileId: profile.paymentProfileId,
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
    payload: {
      firstName: 'Pat',
      lastName: 'Dealer',
      email,
      phone: '313-555-0142',
      phoneCountryCode: 'US',
      dealership: 'Pat Motors',
      deviceType: 'iPhone',
      terms: true,
      subscriptions: ['NADA', 'MMR', 'CF', 'AC'],
      auctionAccessId: '100482913',
      dealershipAuctionAccessId: '5104827',
      address1: '400 Woodward Ave',
      address2: '',
      country: 'US',
      state: 'MI',
      city: 'Detroit',
      zip: '48226',
      promoCode: '',
      referrer: '',
      sameAddresses: true,
      forwardTo: 'http://localhost:3000/login?returnTo=%2Faccount',
      paymentToken: card.paymentToken,
      cardBrand: card.cardBrand,
      cardLast4: card.cardLast4,
      creditCardExpiration: '1230',
      recaptcha: await t.solveCaptcha(),
    },
  });
  if (response.statusCode !== 201) throw new Error(`sign-up failed: ${response.body}`);
  const [user] = await t.app.db.select().from(users).where(eq(users.email, email));
  if (!user) throw new Error('no signed-up user');
  // The payment row's created_at is the database's clock, not the app's (the test's clock is in
  // the past): aligned here, since the trial (R4) is counted from it.
  const [payment] = await t.app.db
    .update(payments)
    .set({ createdAt: t.app.now() })
    .where(eq(payments.userId, user.id))
    .returning();
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

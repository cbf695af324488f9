import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createPaymentProfileRequestSchema } from '@dealerpass/domain/schemas/billing-form';
import { issueSandboxToken } from '../src/adapters/payments/sandbox/sandbox-tokens.ts';
import { accountEvents, billingPeriods, payments, subscriptions, users } from '../src/db/schema.ts';
import { SESSION_COOKIE } from '../src/plugins/session.ts';
import { runBilling, type BillingDeps } from '../src/services/billing/run-billing.ts';
import { createSession } from '../src/services/session/session-store.ts';
import { buildTestApp, type TestApp, type TestBrowser } from './helper.ts';
import { createAccount } from './sign-in.ts';

const BILLING = {
  billingFirstName: 'Pat',
  billingLastName: 'Payer',
  billingCountry: 'US',
  billingAddress1: '2 Bill St',
  billingAddress2: '',
  billingCity: 'Lansing',
  billingState: 'MI',
  billingZip: '48901',
};

describe('the billing API: payment profile (000 §7, DECISIONS R4, R5)', () => {
  let t: TestApp;
  let browser: TestBrowser;
  let now = new Date('2026-03-15T15:00:00Z');
  let counter = 0;

  beforeAll(async () => {
    t = await buildTestApp({ now: () => now });
    browser = await t.browser();
  });
  afterAll(() => t.close());
  beforeEach(() => {
    now = new Date('2026-03-15T15:00:00Z');
  });

  const deps = (): BillingDeps => ({
    db: t.app.db,
    payments: t.app.payments,
    now: () => now,
    timeZone: 'America/New_York',
    company: { name: 'DealerPass', supportPhone: '1-800-555-0199' },
    mailKind: 'mailbox',
    log: t.app.log,
  });

  async function account(fields: Partial<typeof users.$inferInsert> = {}) {
    counter += 1;
    const { user } = await createAccount(t, {
      email: `api${counter}@example.com`,
      withIdentity: false,
      ...fields,
    });
    const { rawId } = await createSession(t.app.db, {
      userId: user.id,
      context: 'web',
      viaKarId: true,
      tokens: {},
      now,
      encryptionKey: t.app.keys.encryption,
    });
    return { userId: user.id, session: rawId };
  }

  const token = async (card = '4111111111111111') =>
    (
      await issueSandboxToken(
        t.app.db,
        { creditCardNumber: card, creditCardExpiration: '1230', creditCardCode: '123' },
        now,
      )
    ).paymentToken;

  const profileBody = async (card?: string) => ({
    paymentToken: await token(card),
    cardBrand: card?.startsWith('5') ? 'mastercard' : 'visa',
    cardLast4: (card ?? '4111111111111111').slice(-4),
    creditCardExpiration: '1230',
    ...BILLING,
  });

  const call = (method: 'PUT' | 'DELETE' | 'PATCH', url: string, session?: string, payload?: object) =>
    t.app.inject({
      method,
      url,
      headers: {
        cookie: [browser.cookie, session ? `${SESSION_COOKIE}=${session}` : '']
          .filter(Boolean)
          .join('; '),
        'x-csrf-token': browser.token,
        ...(payload ? { 'content-type': 'application/json' } : {}),
      },
      ...(payload ? { payload: JSON.stringify(payload) } : {}),
    });

  const userRow = async (userId: string) =>
    (await t.app.db.select().from(users).where(eq(users.id, userId)))[0]!;
  const subscriptionRow = async (userId: string) =>
    (await t.app.db.select().from(subscriptions).where(eq(subscriptions.userId, userId)))[0];

  describe('R5: raw card data is refused and nothing is stored', () => {
    it.each([
      ['a card number', { creditCardNumber: '4111111111111111' }],
      ['a CVV', { creditCardCode: '123' }],
      ['a card-like number under another card key', { cardNumberText: '4111 1111 1111 1111' }],
    ])('%s → 400 RAW_CARD_DATA_REFUSED', async (_name, extra) => {
      const { userId, session } = await account();
      const response = await call('PUT', '/api/users/paymentProfile', session, {
        ...(await profileBody()),
        ...extra,
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().code).toBe('RAW_CARD_DATA_REFUSED');
      expect(response.body).not.toContain('4111111111111111');
      expect(await subscriptionRow(userId)).toBeUndefined();
      expect((await userRow(userId)).cardLast4).toBeNull();
    });
  });

  describe('PUT /api/users/paymentProfile', () => {
    it('creates the customer profile and a subscription row, and stores the card summary and billing address', async () => {
      const { userId, session } = await account({ subscriptions: ['NADA', 'MMR'] });
      const response = await call('PUT', '/api/users/paymentProfile', session, await profileBody());
      expect(response.statusCode).toBe(200);
      expect(response.json().data).toMatchObject({
        creditCardType: expect.anything(),
        creditCardExpiration: '1230',
        billingCity: 'Lansing',
        billingZip: '48901',
      });
      expect(await userRow(userId)).toMatchObject({
        cardBrand: 'visa',
        cardLast4: '1111',
        cardExpiration: '1230',
        billingFirstName: 'Pat',
        billingAddress1: '2 Bill St',
      });
      expect(await subscriptionRow(userId)).toMatchObject({
        codes: ['NADA', 'MMR'],
        cycleAnchor: '2026-03-15',
        currentPeriodStart: '2026-03-15',
        currentPeriodEnd: '2026-04-15',
        gatewayCustomerId: expect.any(String),
        gatewayPaymentProfileId: expect.any(String),
      });
    });

    it('replaces the payment profile of an existing customer', async () => {
      const { userId, session } = await account();
      await call('PUT', '/api/users/paymentProfile', session, await profileBody());
      const before = (await subscriptionRow(userId))!;
      const response = await call(
        'PUT',
        '/api/users/paymentProfile',
        session,
        await profileBody('5555555555554444'),
      );
      expect(response.statusCode).toBe(200);
      const after = (await subscriptionRow(userId))!;
      expect(after.gatewayCustomerId).toBe(before.gatewayCustomerId);
      expect(after.gatewayPaymentProfileId).not.toBe(before.gatewayPaymentProfileId);
      expect((await userRow(userId)).cardLast4).toBe('4444');
    });

    it('takes the billing address from the account when the same-address box is checked', async () => {
      const { userId, session } = await account();
      const body = { ...(await profileBody()), sameAddresses: true };
      for (const key of Object.keys(BILLING)) delete (body as Record<string, unknown>)[key];
      const response = await call('PUT', '/api/users/paymentProfile', session, body);
      expect(response.statusCode).toBe(200);
      expect(await userRow(userId)).toMatchObject({
        billingFirstName: 'Casey',
        billingLastName: 'Dealer',
        billingAddress1: '1 Main St',
        billingCity: 'Detroit',
        billingState: 'MI',
        billingZip: '48201',
        billingCountry: 'US',
      });
    });

    it.each([
      ['paymentToken', { paymentToken: '' }],
      ['cardBrand', { cardBrand: '' }],
      ['billingFirstName', { billingFirstName: '' }],
      ['billingAddress1', { billingAddress1: '' }],
      ['billingCity', { billingCity: '' }],
      ['billingCountry', { billingCountry: '' }],
      ['billingZip', { billingZip: '' }],
    ])('an invalid %s → 400 with the domain message, nothing stored', async (field, change) => {
      const { userId, session } = await account();
      const body = { ...(await profileBody()), ...change };
      const expected = createPaymentProfileRequestSchema(() => now).safeParse(body);
      expect(expected.success).toBe(false);
      const messages = expected.error!.issues
        .filter((issue) => issue.path[0] === field)
        .map((issue) => issue.message);
      expect(messages.length).toBeGreaterThan(0);
      const response = await call('PUT', '/api/users/paymentProfile', session, body);
      expect(response.statusCode).toBe(400);
      expect(response.json().code).toBe('VALIDATION_FAILED');
      expect(response.json().errors).toEqual(
        expect.arrayContaining(messages.map((message) => ({ source: field, message }))),
      );
      expect(await subscriptionRow(userId)).toBeUndefined();
    });

    it('an unknown or spent token → 400 CREDIT_CARD_NOT_VALID, nothing stored', async () => {
      const { userId, session } = await account();
      const body = { ...(await profileBody()), paymentToken: 'sbx_tok_nope' };
      const response = await call('PUT', '/api/users/paymentProfile', session, body);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({
        code: 'CREDIT_CARD_NOT_VALID',
        message: 'Credit card not valid.',
      });
      expect(await subscriptionRow(userId)).toBeUndefined();
      expect((await userRow(userId)).cardLast4).toBeNull();
    });

    it('R4: a new card on a validating-payment account retries the due renewal at once', async () => {
      const { userId, session } = await account({ subscriptions: ['NADA', 'MMR'] });
      await call('PUT', '/api/users/paymentProfile', session, await profileBody('4000000000000002'));
      // Make the renewal due and let the run decline it.
      await t.app.db
        .update(subscriptions)
        .set({ currentPeriodEnd: '2026-03-15', cycleAnchor: '2026-02-15', currentPeriodStart: '2026-02-15' })
        .where(eq(subscriptions.userId, userId));
      await runBilling(deps());
      expect((await userRow(userId)).accountStatus).toBe('validating payment');
      expect((await subscriptionRow(userId))!.nextRetryAt!.getTime()).toBeGreaterThan(now.getTime());

      const response = await call('PUT', '/api/users/paymentProfile', session, await profileBody());
      expect(response.statusCode).toBe(200);
      expect(response.json().data.accountStatus).toBe('active');
      const paid = await t.app.db.select().from(payments).where(eq(payments.userId, userId));
      expect(paid).toHaveLength(1);
      expect(paid[0]).toMatchObject({ amountCents: 13800, cardLast4: '1111' });
      expect((await userRow(userId)).nextBillDate).toBe('2026-04-15');
      const events = await t.app.db
        .select()
        .from(accountEvents)
        .where(eq(accountEvents.userId, userId));
      expect(events.map((e) => e.toStatus)).toEqual(['validating payment', 'active']);
      const periods = await t.app.db
        .select()
        .from(billingPeriods)
        .where(eq(billingPeriods.userId, userId));
      expect(periods).toHaveLength(1);
    });
  });

  describe('DELETE /api/users/paymentProfile', () => {
    it('deletes the gateway payment profile and clears the card fields', async () => {
      const { userId, session } = await account();
      await call('PUT', '/api/users/paymentProfile', session, await profileBody());
      const response = await call('DELETE', '/api/users/paymentProfile', session);
      expect(response.statusCode).toBe(200);
      expect(response.json().data.creditCardExpiration ?? '').toBe('');
      expect(await userRow(userId)).toMatchObject({
        cardBrand: null,
        cardLast4: null,
        cardExpiration: null,
      });
      expect((await subscriptionRow(userId))!.gatewayPaymentProfileId).toBeNull();
    });
  });

  describe('access', () => {
    const writes = [
      ['PUT', '/api/users/paymentProfile'],
      ['DELETE', '/api/users/paymentProfile'],
    ] as const;

    it.each(writes)('%s %s without a session → 401', async (method, url) => {
      const response = await call(method, url, undefined, method === 'DELETE' ? undefined : BILLING);
      expect(response.statusCode).toBe(401);
    });

    it.each(writes)('%s %s of a blocked account → 403 ACCOUNT_BLOCKED', async (method, url) => {
      const { userId, session } = await account({ accountStatus: 'blocked' });
      const response = await call(
        method,
        url,
        session,
        method === 'DELETE' ? undefined : await profileBody(),
      );
      expect(response.statusCode).toBe(403);
      expect(response.json().code).toBe('ACCOUNT_BLOCKED');
      expect(await subscriptionRow(userId)).toBeUndefined();
    });
  });
});

import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createPaymentProfileRequestSchema } from '@dealerpass/domain/schemas/billing-form';
import { issueSandboxToken } from '../../src/sandboxes/payments/sandbox-tokens.ts';
import {
  accountEvents,
  billingPeriods,
  payments,
  sandboxGatewayTransactions,
  subscriptions,
  users,
} from '../../src/db/schema.ts';
import { SESSION_COOKIE } from '../../src/plugins/session.ts';
import { recordChargeback } from '../../src/services/billing/record-chargeback.ts';
import { runBilling, type BillingDeps } from '../../src/services/billing/run-billing.ts';
import { getUserRow } from '../../src/services/users/get-user-row.ts';
import { buildTestApp, type TestApp, type TestBrowser } from '../support/helper.ts';
import { addOpeningBalance, createAccount, sessionFor } from '../factories/sign-in.ts';
import { storedReceiptPdf } from '../support/stored-receipt.ts';

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
    prices: t.app.prices,
    log: t.app.log,
  });

  async function account(fields: Partial<typeof users.$inferInsert> = {}) {
    counter += 1;
    const { user } = await createAccount(t, {
      email: `api${counter}@example.com`,
      withIdentity: false,
      ...fields,
    });
    const rawId = await sessionFor(t, user.id, now);
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

  /** A reactivation and a card are keyed (decision 038): a fresh key unless the test sends one. */
  const keyed = (method: string, url: string, payload?: object) =>
    method === 'PUT' && payload && !('requestKey' in payload)
      ? { ...payload, requestKey: crypto.randomUUID() }
      : payload;
  const call = (
    method: 'PUT' | 'DELETE' | 'PATCH',
    url: string,
    session?: string,
    sent?: object,
  ) => {
    const payload = keyed(method, url, sent);
    return t.app.inject({
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
  };

  const userRow = (userId: string) => getUserRow(t.app.db, userId);
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

    it('the same card request again after a lost answer (same key): stored once, the same answer (decision 038)', async () => {
      const { userId, session } = await account();
      await call('PUT', '/api/users/paymentProfile', session, await profileBody());
      const body = { ...(await profileBody('5555555555554444')), requestKey: crypto.randomUUID() };
      const first = await call('PUT', '/api/users/paymentProfile', session, body);
      expect(first.statusCode).toBe(200);
      const stored = (await subscriptionRow(userId))!.gatewayPaymentProfileId;
      const again = await call('PUT', '/api/users/paymentProfile', session, body);
      expect(again.statusCode).toBe(200);
      expect(again.json().data).toEqual(first.json().data);
      // The repeat replaced nothing at the gateway: the profile the first request stored stays.
      expect((await subscriptionRow(userId))!.gatewayPaymentProfileId).toBe(stored);
    });

    it('a card request without its key → 400, nothing stored', async () => {
      const { userId, session } = await account();
      const response = await t.app.inject({
        method: 'PUT',
        url: '/api/users/paymentProfile',
        headers: {
          cookie: `${browser.cookie}; ${SESSION_COOKIE}=${session}`,
          'x-csrf-token': browser.token,
          'content-type': 'application/json',
        },
        payload: JSON.stringify(await profileBody()),
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().errors).toContainEqual({
        source: 'requestKey',
        message: 'The request is not valid. Please reload the page.',
      });
      expect(await subscriptionRow(userId)).toBeUndefined();
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
      const expected = createPaymentProfileRequestSchema(() => now).safeParse({
        ...body,
        requestKey: crypto.randomUUID(),
      });
      expect(expected.success).toBe(false);
      const messages = expected
        .error!.issues.filter((issue) => issue.path[0] === field)
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
      await call(
        'PUT',
        '/api/users/paymentProfile',
        session,
        await profileBody('4000000000000002'),
      );
      // Make the renewal due and let the run decline it.
      await t.app.db
        .update(subscriptions)
        .set({
          currentPeriodEnd: '2026-03-15',
          cycleAnchor: '2026-02-15',
          currentPeriodStart: '2026-02-15',
        })
        .where(eq(subscriptions.userId, userId));
      await runBilling(deps());
      expect((await userRow(userId)).accountStatus).toBe('validating payment');
      expect((await subscriptionRow(userId))!.nextRetryAt!.getTime()).toBeGreaterThan(
        now.getTime(),
      );

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

  /** A subscriber with a card and a paid sign-up charge taken at `signupAt`. */
  async function signedUp(signupAt: Date) {
    const { userId, session } = await account({ subscriptions: ['NADA', 'MMR'] });
    await call('PUT', '/api/users/paymentProfile', session, await profileBody());
    const sub = (await subscriptionRow(userId))!;
    const charge = await t.app.payments.charge({
      customerProfileId: sub.gatewayCustomerId!,
      paymentProfileId: sub.gatewayPaymentProfileId!,
      amountCents: 13800,
      idempotencyKey: `signup:${userId}`,
      description: 'sign-up',
    });
    if (charge.status !== 'approved') throw new Error('sign-up charge declined');
    const [period] = await t.app.db
      .insert(billingPeriods)
      .values({
        userId,
        kind: 'signup',
        periodStart: '2026-03-15',
        periodEnd: '2026-04-15',
        amountCents: 13800,
        quote: {},
        status: 'paid',
        idempotencyKey: `signup:${userId}`,
        settledAt: signupAt,
      })
      .returning();
    const [payment] = await t.app.db
      .insert(payments)
      .values({
        userId,
        billingPeriodId: period!.id,
        amountCents: 13800,
        gatewayTransactionId: charge.transactionId,
        cardBrand: 'visa',
        cardLast4: '1111',
        activationDate: '2026-03-15',
        receiptPdf: Buffer.from('%PDF-1.4'),
        createdAt: signupAt,
      })
      .returning();
    return { userId, session, paymentId: payment!.id };
  }

  const CANCEL = { cancellationReasonOptions: ['too-expensive'], userProvidedCancelReason: '' };
  const paymentRow = async (id: string) =>
    (await t.app.db.select().from(payments).where(eq(payments.id, id)))[0]!;

  describe('PATCH /api/users/cancel', () => {
    it('within 10 days of the sign-up charge: refunded through the gateway, inactive at once', async () => {
      const { userId, session, paymentId } = await signedUp(new Date('2026-03-10T15:00:00Z'));
      const response = await call('PATCH', '/api/users/cancel', session, CANCEL);
      expect(response.statusCode).toBe(200);
      expect(response.json().data.accountStatus).toBe('inactive');
      expect(await paymentRow(paymentId)).toMatchObject({ status: 'refunded' });
      const refunds = await t.app.db
        .select()
        .from(sandboxGatewayTransactions)
        .where(eq(sandboxGatewayTransactions.idempotencyKey, `refund:${paymentId}`));
      expect(refunds).toHaveLength(1);
      const events = await t.app.db
        .select()
        .from(accountEvents)
        .where(eq(accountEvents.userId, userId));
      expect(events.map((e) => [e.event, e.toStatus, e.actor])).toEqual([
        ['cancellation reason', null, 'user'],
        ['cancelled in the trial: sign-up charge refunded', 'inactive', 'user'],
      ]);
      // A second cancel is refused (the account is inactive now: the cancel page's access rule,
      // docs/decisions/016), and nothing is refunded twice.
      const again = await call('PATCH', '/api/users/cancel', session, CANCEL);
      expect(again.statusCode).toBe(403);
      expect(again.json().code).toBe('ACCOUNT_INACTIVE');
      const refundsAfter = await t.app.db
        .select()
        .from(sandboxGatewayTransactions)
        .where(eq(sandboxGatewayTransactions.idempotencyKey, `refund:${paymentId}`));
      expect(refundsAfter).toHaveLength(1);
    });

    it('after the trial: pending cancel, no refund, access continues; the billing run ends it at the period end', async () => {
      const { userId, session, paymentId } = await signedUp(new Date('2026-02-15T15:00:00Z'));
      const response = await call('PATCH', '/api/users/cancel', session, {
        cancellationReasonOptions: ['changing-vendor'],
        userProvidedCancelReason: 'Going with another provider',
      });
      expect(response.statusCode).toBe(200);
      expect(response.json().data.accountStatus).toBe('pending cancel');
      expect(await paymentRow(paymentId)).toMatchObject({ status: 'succeeded' });
      expect((await subscriptionRow(userId))!.cancelRequestedAt).toEqual(now);

      now = new Date('2026-04-15T15:00:00Z');
      await runBilling(deps());
      expect((await userRow(userId)).accountStatus).toBe('inactive');
      const charged = await t.app.db.select().from(payments).where(eq(payments.userId, userId));
      expect(charged).toHaveLength(1);
    });

    it.each([
      [
        'no reason',
        { cancellationReasonOptions: [], userProvidedCancelReason: '' },
        'Please select a cancellation reason.',
      ],
      [
        'an unknown reason',
        { cancellationReasonOptions: ['bored'], userProvidedCancelReason: '' },
        'Please select a cancellation reason.',
      ],
      [
        'two reasons',
        {
          cancellationReasonOptions: ['too-expensive', 'closing-business'],
          userProvidedCancelReason: '',
        },
        'Please select a cancellation reason.',
      ],
      [
        'missing detail',
        { cancellationReasonOptions: ['not-enough-data'], userProvidedCancelReason: '' },
        'Please tell us more (5 to 250 characters).',
      ],
      [
        'short detail',
        { cancellationReasonOptions: ['changing-vendor'], userProvidedCancelReason: 'abc' },
        'Please enter at least 5 characters.',
      ],
      [
        'long detail',
        { cancellationReasonOptions: ['too-expensive'], userProvidedCancelReason: 'x'.repeat(251) },
        'Please enter at most 250 characters.',
      ],
    ])(
      '%s → 400 with the cancellation text and the field message, nothing changed',
      async (_name, body, fieldMessage) => {
        const { userId, session } = await account();
        const response = await call('PATCH', '/api/users/cancel', session, body);
        expect(response.statusCode).toBe(400);
        expect(response.json()).toMatchObject({
          code: 'CANCEL_ACCOUNT_FAILED',
          message:
            'There was an error cancelling your account. Please try again later or contact Customer Support.',
        });
        expect(response.json().errors.map((e: { message: string }) => e.message)).toContain(
          fieldMessage,
        );
        expect((await userRow(userId)).accountStatus).toBe('active');
      },
    );

    it('a failed refund → the cancellation text, and nothing changes', async () => {
      const { userId, session, paymentId } = await signedUp(new Date('2026-03-12T15:00:00Z'));
      await t.app.db
        .update(payments)
        .set({ gatewayTransactionId: 'no-such-transaction' })
        .where(eq(payments.id, paymentId));
      const response = await call('PATCH', '/api/users/cancel', session, CANCEL);
      expect(response.statusCode).toBe(400);
      expect(response.json().code).toBe('CANCEL_ACCOUNT_FAILED');
      expect((await userRow(userId)).accountStatus).toBe('active');
      expect(await paymentRow(paymentId)).toMatchObject({ status: 'succeeded' });
    });
  });

  describe('PUT /api/users/reactivate', () => {
    const periodsOf = (userId: string) =>
      t.app.db.select().from(billingPeriods).where(eq(billingPeriods.userId, userId));
    const paymentsOf = (userId: string) =>
      t.app.db.select().from(payments).where(eq(payments.userId, userId));
    const statusTrail = async (userId: string) =>
      (await t.app.db.select().from(accountEvents).where(eq(accountEvents.userId, userId)))
        .filter((e) => e.toStatus !== null)
        .map((e) => e.toStatus);

    it('on the day of a sign-up cancelled in the trial: charged again, with a period of its own', async () => {
      // Signed up and cancelled today (the refunded sign-up period starts today too).
      const { userId, session, paymentId } = await signedUp(new Date('2026-03-15T14:00:00Z'));
      expect((await call('PATCH', '/api/users/cancel', session, CANCEL)).statusCode).toBe(200);
      expect(await paymentRow(paymentId)).toMatchObject({ status: 'refunded' });
      const response = await call('PUT', '/api/users/reactivate', session, await profileBody());
      expect(response.statusCode).toBe(200);
      expect(response.json().data.accountStatus).toBe('active');
      const periods = await periodsOf(userId);
      expect(
        periods.map((period) => [period.kind, period.periodStart, period.status]).sort(),
      ).toEqual([
        ['reactivation', '2026-03-15', 'paid'],
        ['signup', '2026-03-15', 'refunded'],
      ]);
      const paid = (await paymentsOf(userId)).filter((payment) => payment.status === 'succeeded');
      expect(paid).toHaveLength(1);
    });

    it('during pending cancel: back to active with no charge', async () => {
      const { userId, session } = await signedUp(new Date('2026-02-15T15:00:00Z'));
      await call('PATCH', '/api/users/cancel', session, CANCEL);
      const response = await call('PUT', '/api/users/reactivate', session, {});
      expect(response.statusCode).toBe(200);
      expect(response.json().data.accountStatus).toBe('active');
      expect(await paymentsOf(userId)).toHaveLength(1); // the sign-up charge only
      expect((await subscriptionRow(userId))!.cancelRequestedAt).toBeNull();
      expect(await statusTrail(userId)).toEqual(['pending cancel', 'active']);
    });

    it('when inactive: saves the card, charges the monthly price plus the balance, starts a new cycle today', async () => {
      const { userId, session } = await account({ subscriptions: ['NADA', 'MMR'] });
      await call('PUT', '/api/users/paymentProfile', session, await profileBody());
      await t.app.db
        .update(subscriptions)
        .set({
          cycleAnchor: '2025-11-03',
          currentPeriodStart: '2026-01-03',
          currentPeriodEnd: '2026-02-03',
        })
        .where(eq(subscriptions.userId, userId));
      await t.app.db.update(users).set({ accountStatus: 'inactive' }).where(eq(users.id, userId));
      await addOpeningBalance(t, userId, 1500);

      const response = await call(
        'PUT',
        '/api/users/reactivate',
        session,
        await profileBody('5555555555554444'),
      );
      expect(response.statusCode).toBe(200);
      expect(response.json().data).toMatchObject({ accountStatus: 'active', currentBalance: 0 });
      const [period] = await periodsOf(userId);
      expect(period).toMatchObject({
        kind: 'reactivation',
        periodStart: '2026-03-15',
        periodEnd: '2026-04-15',
        amountCents: 15300,
        status: 'paid',
        idempotencyKey: `reactivation:${userId}:2026-03-15`,
      });
      const [payment] = await paymentsOf(userId);
      expect(payment).toMatchObject({ amountCents: 15300, cardLast4: '4444', status: 'succeeded' });
      expect((await storedReceiptPdf(t, payment!.receiptPdf)).subarray(0, 5).toString()).toBe(
        '%PDF-',
      );
      expect(await subscriptionRow(userId)).toMatchObject({
        cycleAnchor: '2026-03-15',
        currentPeriodStart: '2026-03-15',
        currentPeriodEnd: '2026-04-15',
      });
      expect(await userRow(userId)).toMatchObject({ balanceCents: 0, nextBillDate: '2026-04-15' });
      expect(await statusTrail(userId)).toEqual(['pending reactivation', 'active']);
      const charges = await t.app.db
        .select()
        .from(sandboxGatewayTransactions)
        .where(eq(sandboxGatewayTransactions.idempotencyKey, `reactivation:${userId}:2026-03-15`));
      expect(charges).toHaveLength(1);
    });

    it('a declined charge: back to inactive with the reactivation text; a new card the same day charges once', async () => {
      const { userId, session } = await account({
        subscriptions: ['NADA', 'MMR'],
        accountStatus: 'inactive',
      });
      const declined = await call(
        'PUT',
        '/api/users/reactivate',
        session,
        await profileBody('4000000000000002'),
      );
      expect(declined.statusCode).toBe(402);
      expect(declined.json()).toMatchObject({
        code: 'REACTIVATION_FAILED',
        message:
          'The transaction was not successful. Please try again or contact Customer Support.',
      });
      expect((await userRow(userId)).accountStatus).toBe('inactive');
      expect(await paymentsOf(userId)).toEqual([]);
      expect((await periodsOf(userId))[0]).toMatchObject({ status: 'failed' });

      const approved = await call('PUT', '/api/users/reactivate', session, await profileBody());
      expect(approved.statusCode).toBe(200);
      expect(approved.json().data.accountStatus).toBe('active');
      const periods = await periodsOf(userId);
      expect(periods).toHaveLength(1);
      expect(periods[0]).toMatchObject({
        status: 'paid',
        idempotencyKey: `reactivation:${userId}:2026-03-15:2`,
        amountCents: 13800,
      });
      expect(await paymentsOf(userId)).toHaveLength(1);
      expect(await statusTrail(userId)).toEqual([
        'pending reactivation',
        'inactive',
        'pending reactivation',
        'active',
      ]);
    });

    /** The sandbox gateway's approved charges under a reactivation period's key. */
    const reactivationCharges = async (userId: string) =>
      (
        await t.app.db
          .select()
          .from(sandboxGatewayTransactions)
          .where(eq(sandboxGatewayTransactions.kind, 'charge'))
      ).filter((row) => row.idempotencyKey?.startsWith(`reactivation:${userId}:`));

    it('the identical request again after a lost answer (same key): one charge, the first answer (decision 038)', async () => {
      const { userId, session } = await account({ subscriptions: ['NADA', 'MMR'] });
      await call('PUT', '/api/users/paymentProfile', session, await profileBody());
      await t.app.db.update(users).set({ accountStatus: 'inactive' }).where(eq(users.id, userId));
      const body = { ...(await profileBody()), requestKey: crypto.randomUUID() };
      const first = await call('PUT', '/api/users/reactivate', session, body);
      expect(first.statusCode).toBe(200);
      const cardBefore = (await subscriptionRow(userId))!.gatewayPaymentProfileId;
      // What a balancer's retry or the browser's resend sends when the first answer was lost.
      const again = await call('PUT', '/api/users/reactivate', session, body);
      expect(again.statusCode).toBe(200);
      expect(again.json().data).toEqual(first.json().data);
      expect(await paymentsOf(userId)).toHaveLength(1);
      expect(await reactivationCharges(userId)).toHaveLength(1);
      // No second card stored either: the repeat never reached the gateway.
      expect((await subscriptionRow(userId))!.gatewayPaymentProfileId).toBe(cardBefore);
      // The key with another request is another intent under a reused key.
      const reused = await call('PUT', '/api/users/reactivate', session, {
        ...(await profileBody('5555555555554444')),
        requestKey: body.requestKey,
      });
      expect(reused.statusCode).toBe(409);
      expect(reused.json().code).toBe('REQUEST_KEY_REUSED');
    });

    it('a declined reactivation sent again with its key: declined again, no second charge', async () => {
      const { userId, session } = await account({ subscriptions: ['NADA'] });
      await t.app.db.update(users).set({ accountStatus: 'inactive' }).where(eq(users.id, userId));
      const body = { ...(await profileBody('4000000000000002')), requestKey: crypto.randomUUID() };
      expect((await call('PUT', '/api/users/reactivate', session, body)).statusCode).toBe(402);
      const again = await call('PUT', '/api/users/reactivate', session, body);
      expect(again.statusCode).toBe(402);
      expect(again.json().code).toBe('REACTIVATION_FAILED');
      const attempts = (await t.app.db.select().from(sandboxGatewayTransactions)).filter((row) =>
        row.idempotencyKey?.startsWith(`reactivation:${userId}:`),
      );
      expect(attempts).toHaveLength(1);
    });

    it('without a request key → 400, nothing stored or charged', async () => {
      const { userId, session } = await account({ accountStatus: 'inactive' });
      const response = await t.app.inject({
        method: 'PUT',
        url: '/api/users/reactivate',
        headers: {
          cookie: `${browser.cookie}; ${SESSION_COOKIE}=${session}`,
          'x-csrf-token': browser.token,
          'content-type': 'application/json',
        },
        payload: JSON.stringify(await profileBody()),
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().errors).toContainEqual({
        source: 'requestKey',
        message: 'The request is not valid. Please reload the page.',
      });
      expect(await subscriptionRow(userId)).toBeUndefined();
    });

    it('an inactive account without a card token → 400 with the card-number text, nothing stored', async () => {
      const { userId, session } = await account({ accountStatus: 'inactive' });
      const response = await call('PUT', '/api/users/reactivate', session, BILLING);
      expect(response.statusCode).toBe(400);
      expect(response.json().errors).toEqual([
        { source: 'paymentToken', message: 'Credit card number is required.' },
      ]);
      expect(await subscriptionRow(userId)).toBeUndefined();
    });

    it('an invalid billing field with a token → 400 with the domain message, nothing stored', async () => {
      const { userId, session } = await account({ accountStatus: 'inactive' });
      const body = { ...(await profileBody()), billingCity: '' };
      const expected = createPaymentProfileRequestSchema(() => now).safeParse({
        ...body,
        requestKey: crypto.randomUUID(),
      });
      const message = expected.error!.issues.find((i) => i.path[0] === 'billingCity')!.message;
      const response = await call('PUT', '/api/users/reactivate', session, body);
      expect(response.statusCode).toBe(400);
      expect(response.json().errors).toContainEqual({ source: 'billingCity', message });
      expect(await subscriptionRow(userId)).toBeUndefined();
      expect((await userRow(userId)).accountStatus).toBe('inactive');
    });

    it('an active account → REACTIVATION_FAILED, nothing charged', async () => {
      const { userId, session } = await account();
      const response = await call('PUT', '/api/users/reactivate', session, await profileBody());
      expect(response.json().code).toBe('REACTIVATION_FAILED');
      expect(await periodsOf(userId)).toEqual([]);
    });

    it('raw card data → 400 RAW_CARD_DATA_REFUSED, nothing stored', async () => {
      const { userId, session } = await account({ accountStatus: 'inactive' });
      const response = await call('PUT', '/api/users/reactivate', session, {
        ...(await profileBody()),
        creditCardNumber: '4111111111111111',
        creditCardCode: '123',
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().code).toBe('RAW_CARD_DATA_REFUSED');
      expect(await subscriptionRow(userId)).toBeUndefined();
      expect((await userRow(userId)).accountStatus).toBe('inactive');
    });
  });

  describe('recordChargeback', () => {
    it('adds the 25-dollar fee to the balance and makes the account inactive, once', async () => {
      const { userId, paymentId } = await signedUp(new Date('2026-02-15T15:00:00Z'));
      expect(await recordChargeback(t.app.db, { paymentId, now })).toBe(true);
      expect(await userRow(userId)).toMatchObject({
        accountStatus: 'inactive',
        balanceCents: 2500,
      });
      expect(await recordChargeback(t.app.db, { paymentId, now })).toBe(false);
      expect((await userRow(userId)).balanceCents).toBe(2500);
      const events = await t.app.db
        .select()
        .from(accountEvents)
        .where(eq(accountEvents.userId, userId));
      expect(events.map((e) => [e.event, e.toStatus, e.actor])).toEqual([
        ['chargeback', null, 'gateway'],
        [`chargeback of payment ${paymentId}`, 'inactive', 'gateway'],
      ]);
    });
  });

  describe('access', () => {
    const writes = [
      ['PUT', '/api/users/paymentProfile'],
      ['DELETE', '/api/users/paymentProfile'],
      ['PATCH', '/api/users/cancel'],
      ['PUT', '/api/users/reactivate'],
    ] as const;

    it.each(writes)('%s %s without a session → 401', async (method, url) => {
      const response = await call(
        method,
        url,
        undefined,
        method === 'DELETE' ? undefined : BILLING,
      );
      expect(response.statusCode).toBe(401);
    });

    it.each(writes)('%s %s of a blocked account → 403 ACCOUNT_BLOCKED', async (method, url) => {
      const { userId, session } = await account({ accountStatus: 'blocked' });
      const response = await call(
        method,
        url,
        session,
        method === 'DELETE' ? undefined : method === 'PATCH' ? CANCEL : await profileBody(),
      );
      expect(response.statusCode).toBe(403);
      expect(response.json().code).toBe('ACCOUNT_BLOCKED');
      expect(await subscriptionRow(userId)).toBeUndefined();
    });
  });
});

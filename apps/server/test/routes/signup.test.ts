import { count, eq } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { R3_PRICE_TABLE, quote } from '@dealerpass/domain/prices';
import {
  SIGNUP_FAILURE_TEXTS,
  signupFailureMessage,
} from '@dealerpass/domain/messages/signup-failure';
import {
  accountEvents,
  billingPeriods,
  identities,
  mailOutbox,
  payments,
  promotionCodes,
  promotionRedemptions,
  requestKeys,
  sandboxGatewayTransactions,
  signupAttempts,
  signupLeads,
  subscriptions,
  users,
} from '../../src/db/schema.ts';
import { seedDemoPromotions } from '../../src/services/demo/seed-demo-promotions.ts';
import { signupBody } from '../factories/signup-body.ts';
import { buildTestApp, type TestApp, type TestBrowser } from '../support/helper.ts';
import { storedReceiptPdf } from '../support/stored-receipt.ts';

const NOW = new Date('2026-03-15T15:00:00Z');
let ipCounter = 0;
/** Each request from its own address, so the per-client limits are tested where meant. */
const freshIp = () => `10.6.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;

const LEAD = {
  firstName: 'Pat',
  lastName: 'Dealer',
  email: 'lead@example.com',
  phone: '313-555-0142',
  dealershipName: 'Pat Motors',
  termAndCondition: NOW.toISOString(),
};

describe('sign-up API (issue 6, 001 §3, §7, §8)', () => {
  let t: TestApp;
  let browser: TestBrowser;

  beforeAll(async () => {
    t = await buildTestApp({ now: () => NOW });
    browser = await t.browser();
    await seedDemoPromotions(t.app.db, NOW);
  });
  afterAll(() => t.close());

  const post = (url: string, payload: object, headers: Record<string, string> = {}) =>
    browser.request({ method: 'POST', url, payload, headers, remoteAddress: freshIp() });

  async function cardToken(number = '4111111111111111') {
    const response = await t.app.inject({
      method: 'POST',
      url: '/sandbox-gateway/v1/tokens',
      payload: { creditCardNumber: number, creditCardExpiration: '12/30', creditCardCode: '123' },
      remoteAddress: freshIp(),
    });
    expect(response.statusCode).toBe(201);
    const data = response.json<{
      data: { paymentToken: string; cardBrand: string; cardLast4: string };
    }>().data;
    return {
      paymentToken: data.paymentToken,
      cardBrand: data.cardBrand,
      cardLast4: data.cardLast4,
      creditCardExpiration: '1230',
    };
  }

  async function withCaptcha(body: Record<string, unknown>) {
    return { ...body, recaptcha: await t.solveCaptcha() };
  }

  async function countRows() {
    const n = async (table: PgTable) => (await t.app.db.select({ n: count() }).from(table))[0]!.n;
    return {
      users: await n(users),
      identities: await n(identities),
      subscriptions: await n(subscriptions),
      periods: await n(billingPeriods),
      payments: await n(payments),
      attempts: await n(signupAttempts),
      charges: await n(sandboxGatewayTransactions),
      mails: await n(mailOutbox),
      redemptions: await n(promotionRedemptions),
    };
  }

  describe('POST /api/signup/contact and the partial saves', () => {
    it('stores a lead and answers its id as data.data.id', async () => {
      const response = await post('/api/signup/contact', await withCaptcha(LEAD));
      expect(response.statusCode).toBe(201);
      const id = response.json<{ data: { id: string } }>().data.id;
      const [lead] = await t.app.db.select().from(signupLeads).where(eq(signupLeads.id, id));
      expect(lead).toMatchObject({ email: 'lead@example.com', phone: '3135550142', step: 0 });
    });

    it.each([
      ['firstName', '', 'First name is required.'],
      ['email', 'not-an-email', 'Email must be a valid email address.'],
      ['phone', '31355501', 'Mobile phone number must match the following pattern: XXX-XXX-XXXX.'],
      ['dealershipName', '', 'Dealership is required.'],
      ['termAndCondition', '', 'You must agree to Terms of Use, Privacy, and Refund polices.'],
      ['recaptcha', '', 'reCAPTCHA required to prove you’re not a robot.'],
    ])('refuses %s = %j with “%s”', async (field, value, message) => {
      const response = await post('/api/signup/contact', {
        ...LEAD,
        recaptcha: 'x',
        [field]: value,
      });
      expect(response.statusCode).toBe(400);
      const body = response.json<{
        errors: { source: string; message: string; details: string }[];
      }>();
      expect(body.errors).toContainEqual({ source: field, message, details: message });
    });

    it('refuses an e-mail in the company domain on page 1 already, stores no lead (issue 14.16)', async () => {
      const before = await t.app.db.select({ n: count() }).from(signupLeads);
      const message = 'Cannot create user with DealerPass email domain.';
      const response = await post(
        '/api/signup/contact',
        await withCaptcha({ ...LEAD, email: 'robin@Sales.DealerPass.example' }),
      );
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({
        code: 'COMPANY_EMAIL_DOMAIN',
        errors: [{ source: 'email', message }],
      });
      expect(await t.app.db.select({ n: count() }).from(signupLeads)).toEqual(before);

      const created = await post('/api/signup/contact', await withCaptcha(LEAD));
      const id = created.json<{ data: { id: string } }>().data.id;
      const step1 = await browser.request({
        method: 'PATCH',
        url: `/api/signup/detail/update/${id}/1`,
        payload: { ...LEAD, email: 'robin@dealerpass.example', subscriptionSelection: ['NADA'] },
        remoteAddress: freshIp(),
      });
      expect(step1.statusCode).toBe(400);
      expect(step1.json()).toMatchObject({ errors: [{ source: 'email', message }] });
    });

    it('refuses a captcha that does not verify, and a spent one', async () => {
      expect((await post('/api/signup/contact', { ...LEAD, recaptcha: 'bogus' })).statusCode).toBe(
        400,
      );
      const body = await withCaptcha(LEAD);
      expect((await post('/api/signup/contact', body)).statusCode).toBe(201);
      const again = await post('/api/signup/contact', body);
      expect(again.statusCode).toBe(400);
      expect(again.json()).toMatchObject({ code: 'CAPTCHA_FAILED' });
    });

    it('saves steps 1 and 2, answers 404 for an unknown lead and 400 for bad values', async () => {
      const created = await post('/api/signup/contact', await withCaptcha(LEAD));
      const id = created.json<{ data: { id: string } }>().data.id;
      const patch = (url: string, payload: object) =>
        browser.request({ method: 'PATCH', url, payload, remoteAddress: freshIp() });

      const step1 = await patch(`/api/signup/detail/update/${id}/1`, {
        ...LEAD,
        subscriptionSelection: ['NADA', 'NADA_S'],
      });
      expect(step1.statusCode).toBe(200);
      expect(step1.json()).toEqual({ data: { id } });

      const step2 = await patch(`/api/signup/detail/update/${id}/2`, {
        ...LEAD,
        subscriptionSelection: ['NADA'],
        dealershipAddress1: '1 Main St',
        dealershipCountry: 'CA',
        dealershipState: 'ON',
        dealershipCity: 'Toronto',
        dealershipPostalCode: 'M5V 2T6',
        userAuctionAccessId: '100482913',
        dealershipAuctionAccessId: '6017342',
      });
      expect(step2.statusCode).toBe(200);
      const [lead] = await t.app.db.select().from(signupLeads).where(eq(signupLeads.id, id));
      expect(lead).toMatchObject({
        step: 2,
        subscriptionSelection: ['NADA'],
        dealershipCountry: 'CA',
        dealershipPostalCode: 'M5V 2T6',
      });

      const unknown = await patch(`/api/signup/detail/update/${crypto.randomUUID()}/1`, LEAD);
      expect(unknown.statusCode).toBe(404);
      expect((await patch(`/api/signup/detail/update/not-a-lead!/1`, LEAD)).statusCode).toBe(400);
      expect((await patch(`/api/signup/detail/update/${id}/3`, LEAD)).statusCode).toBe(404);

      const simulcastAlone = await patch(`/api/signup/detail/update/${id}/1`, {
        ...LEAD,
        subscriptionSelection: ['NADA_S'],
      });
      expect(simulcastAlone.statusCode).toBe(400);
      expect(simulcastAlone.json()).toMatchObject({
        errors: [
          {
            source: 'subscriptionSelection',
            message: 'Please choose subscriptions from the list.',
          },
        ],
      });
      const badAaid = await patch(`/api/signup/detail/update/${id}/2`, {
        ...LEAD,
        userAuctionAccessId: '200000000',
      });
      expect(badAaid.json()).toMatchObject({
        errors: [
          { source: 'userAuctionAccessId', message: 'Must enter a valid Auction Access Id' },
        ],
      });
    });
  });

  describe('POST /api/v2/signup', () => {
    it('creates the account, identity, card, first charge and receipt, then the verification mail', async () => {
      const before = await countRows();
      const lead = await post(
        '/api/signup/contact',
        await withCaptcha({ ...LEAD, email: 'happy@example.com' }),
      );
      const leadID = lead.json<{ data: { id: string } }>().data.id;
      const body = await withCaptcha(
        signupBody('Happy@Example.com', { ...(await cardToken()), leadID }),
      );
      const response = await post('/api/v2/signup', body);
      expect(response.statusCode).toBe(201);
      expect(response.json()).toEqual({ data: { email: 'Happy@Example.com' } });

      const [user] = await t.app.db
        .select()
        .from(users)
        .where(eq(users.dealerpassUserId, 'happy@example.com'));
      expect(user).toMatchObject({
        accountStatus: 'active',
        subscriptions: ['NADA', 'MMR', 'CF', 'AC'],
        phone: '3135550142',
        cardBrand: 'visa',
        cardLast4: '1111',
        billingAddress1: '400 Woodward Ave',
        nextBillDate: '2026-04-15',
      });
      const [identity] = await t.app.db
        .select()
        .from(identities)
        .where(eq(identities.id, user!.karId!));
      expect(identity).toMatchObject({ email: 'happy@example.com', passwordHash: null });
      const [subscription] = await t.app.db
        .select()
        .from(subscriptions)
        .where(eq(subscriptions.userId, user!.id));
      expect(subscription).toMatchObject({
        cycleAnchor: '2026-03-15',
        currentPeriodStart: '2026-03-15',
        currentPeriodEnd: '2026-04-15',
      });
      expect(subscription!.gatewayPaymentProfileId).toBeTruthy();

      // The server's amount is the domain quote at the charge, never the browser's total (R3).
      const expected = quote(['NADA', 'MMR', 'CF', 'AC'], NOW, R3_PRICE_TABLE).totalCents;
      const [period] = await t.app.db
        .select()
        .from(billingPeriods)
        .where(eq(billingPeriods.userId, user!.id));
      expect(period).toMatchObject({ kind: 'signup', status: 'paid', amountCents: expected });
      const [payment] = await t.app.db.select().from(payments).where(eq(payments.userId, user!.id));
      expect(payment).toMatchObject({
        amountCents: expected,
        cardLast4: '1111',
        activationDate: '2026-03-15',
        // The application's clock, not the database's: the trial (R4) is counted from it.
        createdAt: NOW,
      });
      expect((await storedReceiptPdf(t, payment!.receiptPdf)).subarray(0, 5).toString()).toBe(
        '%PDF-',
      );
      const [charge] = await t.app.db
        .select()
        .from(sandboxGatewayTransactions)
        .where(eq(sandboxGatewayTransactions.idempotencyKey, `signup:${user!.id}`));
      expect(charge).toMatchObject({ status: 'approved', amountCents: expected });
      const [lead2] = await t.app.db.select().from(signupLeads).where(eq(signupLeads.id, leadID));
      expect(lead2!.convertedUserId).toBe(user!.id);
      const [event] = await t.app.db
        .select()
        .from(accountEvents)
        .where(eq(accountEvents.userId, user!.id));
      expect(event).toMatchObject({ event: 'signed up', toStatus: 'active' });

      const after = await countRows();
      expect(after.users - before.users).toBe(1);
      expect(after.charges - before.charges).toBe(1);
      const mails = await t.app.db
        .select()
        .from(mailOutbox)
        .where(eq(mailOutbox.toAddress, 'Happy@Example.com'));
      expect(mails.map((m) => m.subject).sort()).toEqual([
        'DealerPass receipt for 2026-03-15',
        'Verify your e-mail and set your DealerPass password',
      ]);
      const verification = mails.find((m) => m.subject.startsWith('Verify'))!;
      const link =
        /http:\/\/localhost:\d+\/identity\/set-password\?token=([\w-]+)&forwardTo=(\S+)/.exec(
          verification.textBody,
        );
      expect(link).not.toBeNull();
      expect(decodeURIComponent(link![2]!)).toBe('/login?returnTo=%2Faccount');
      // The link signs in (R6): the mail asks for no second sign-in.
      expect(verification.textBody).toContain('Setting your password signs you in');
      expect(verification.textBody).not.toMatch(/sign in and|then sign in/);

      // The link sets the password (DECISIONS R6).
      const set = await post('/api/identity/password/set', {
        token: link![1],
        password: 'New!Pass2026',
        confirmPassword: 'New!Pass2026',
      });
      expect(set.statusCode).toBe(200);
      expect(set.json()).toEqual({ data: { email: 'happy@example.com' } });
    });

    it('never stores the one-time payment token: not while the gateway uses it, not after (issue 13)', async () => {
      const card = await cardToken();
      const gateway = t.app.payments;
      const createCustomerProfile = gateway.createCustomerProfile;
      let during = '';
      gateway.createCustomerProfile = async (input) => {
        during = JSON.stringify(await t.app.db.select().from(signupAttempts));
        return createCustomerProfile.call(gateway, input);
      };
      try {
        const response = await post(
          '/api/v2/signup',
          await withCaptcha(signupBody('token-kept@example.com', card)),
        );
        expect(response.statusCode).toBe(201);
      } finally {
        gateway.createCustomerProfile = createCustomerProfile;
      }
      expect(during).toContain('token-kept@example.com'); // the attempt existed then
      expect(during).not.toContain(card.paymentToken);
      const [attempt] = await t.app.db
        .select()
        .from(signupAttempts)
        .where(eq(signupAttempts.email, 'token-kept@example.com'));
      expect(attempt).toMatchObject({ status: 'completed' });
      expect(JSON.stringify(attempt)).not.toContain(card.paymentToken);
    });

    it('a repeated submit with the same request key answers the first result: one account, one charge; the key with another body is 409', async () => {
      const key = crypto.randomUUID();
      const body = await withCaptcha(
        signupBody('twice@example.com', { ...(await cardToken()), requestKey: key }),
      );
      const first = await post('/api/v2/signup', body);
      expect(first.statusCode).toBe(201);
      const [recorded] = await t.app.db.select().from(requestKeys).where(eq(requestKeys.key, key));
      expect(recorded).toMatchObject({ owner: 'anonymous:signup', action: 'signUp' });
      const before = await countRows();
      const second = await post('/api/v2/signup', body);
      expect(second.statusCode).toBe(201);
      expect(second.json()).toEqual(first.json());
      expect(await countRows()).toEqual(before);

      // The key with another body: another intent under a reused key, nothing written.
      const reused = await post('/api/v2/signup', {
        ...(await withCaptcha(signupBody('twice-other@example.com', await cardToken()))),
        requestKey: key,
      });
      expect(reused.statusCode).toBe(409);
      expect(reused.json()).toMatchObject({ code: 'REQUEST_KEY_REUSED' });
      expect(await countRows()).toEqual(before);

      // Another key is a second sign-up for the address: 409.
      const other = await post(
        '/api/v2/signup',
        await withCaptcha(signupBody('twice@example.com', await cardToken())),
      );
      expect(other.statusCode).toBe(409);
      expect(signupFailureMessage(other.json())).toBe('An account with this email already exists.');

      // The current flow requires the key; the older one takes it when sent.
      const keyless = await withCaptcha(
        signupBody('keyless@example.com', { ...(await cardToken()), requestKey: undefined }),
      );
      const refused = await post('/api/v2/signup', keyless);
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({
        errors: [expect.objectContaining({ source: 'requestKey' })],
      });
    });

    it('two submits at the same time make one account and one charge', async () => {
      const body = await withCaptcha(signupBody('race@example.com', await cardToken()));
      const before = await countRows();
      const answers = await Promise.all([
        post('/api/v2/signup', body),
        post('/api/v2/signup', body),
      ]);
      const codes = answers.map((a) => a.statusCode).sort();
      expect(codes).toContain(201);
      expect(codes.filter((c) => c !== 201).every((c) => c === 400 || c === 409)).toBe(true);
      const after = await countRows();
      expect(after.users - before.users).toBe(1);
      expect(after.charges - before.charges).toBe(1);
      expect(after.payments - before.payments).toBe(1);
    });

    it('a declined card leaves nothing behind, and the next try with a good card succeeds', async () => {
      const before = await countRows();
      const [promoBefore] = await t.app.db
        .select()
        .from(promotionCodes)
        .where(eq(promotionCodes.code, 'SAVE20'));
      const declined = await post(
        '/api/v2/signup',
        await withCaptcha(
          signupBody('declined@example.com', {
            ...(await cardToken('4000000000000002')),
            promoCode: 'save20',
          }),
        ),
      );
      expect(declined.statusCode).toBe(400);
      expect(declined.json()).toMatchObject({ code: 'CREDIT_CARD_NOT_VALID' });
      expect(signupFailureMessage(declined.json())).toBe('Credit card not valid.');
      const after = await countRows();
      // The gateway recorded its decline; we keep nothing of the attempt.
      expect({ ...after, charges: before.charges }).toEqual(before);
      expect(after.charges - before.charges).toBe(1);
      const [promoAfter] = await t.app.db
        .select()
        .from(promotionCodes)
        .where(eq(promotionCodes.code, 'SAVE20'));
      expect(promoAfter!.redemptionCount).toBe(promoBefore!.redemptionCount);

      const retry = await post(
        '/api/v2/signup',
        await withCaptcha(
          signupBody('declined@example.com', { ...(await cardToken()), promoCode: 'SAVE20' }),
        ),
      );
      expect(retry.statusCode).toBe(201);
      const [user] = await t.app.db
        .select()
        .from(users)
        .where(eq(users.dealerpassUserId, 'declined@example.com'));
      const [payment] = await t.app.db.select().from(payments).where(eq(payments.userId, user!.id));
      expect(payment!.amountCents).toBe(
        quote(['NADA', 'MMR', 'CF', 'AC'], NOW, R3_PRICE_TABLE).totalCents - 2000,
      );
      const [redemption] = await t.app.db
        .select()
        .from(promotionRedemptions)
        .where(eq(promotionRedemptions.userId, user!.id));
      expect(redemption).toMatchObject({ code: 'SAVE20', discountCents: 2000 });
    });

    it('a processor error also leaves nothing behind', async () => {
      const before = await countRows();
      const failed = await post(
        '/api/v2/signup',
        await withCaptcha(signupBody('processor@example.com', await cardToken('4000000000000119'))),
      );
      expect(failed.statusCode).toBe(400);
      const after = await countRows();
      expect({ ...after, charges: before.charges }).toEqual(before);
    });

    it('a promotion code that covers the charge needs no card: no charge, first bill a month on', async () => {
      const before = await countRows();
      const response = await post(
        '/api/v2/signup',
        await withCaptcha(signupBody('promo-only@example.com', { promoCode: 'FREEMONTH' })),
      );
      expect(response.statusCode).toBe(201);
      const [user] = await t.app.db
        .select()
        .from(users)
        .where(eq(users.dealerpassUserId, 'promo-only@example.com'));
      expect(user).toMatchObject({
        accountStatus: 'active',
        cardLast4: null,
        nextBillDate: '2026-04-15',
      });
      const [period] = await t.app.db
        .select()
        .from(billingPeriods)
        .where(eq(billingPeriods.userId, user!.id));
      expect(period).toMatchObject({ kind: 'signup', status: 'waived', amountCents: 0 });
      const after = await countRows();
      expect(after.charges).toBe(before.charges);
      expect(after.payments).toBe(before.payments);
      expect(after.redemptions - before.redemptions).toBe(1);
    });

    it('a lead id that names no lead does not get in the way', async () => {
      const response = await post(
        '/api/v2/signup',
        await withCaptcha(
          signupBody('odd-lead@example.com', { promoCode: 'FREEMONTH', leadID: 'not-a-uuid' }),
        ),
      );
      expect(response.statusCode).toBe(201);
    });

    it('free months with a card push the first renewal out and charge nothing now', async () => {
      const response = await post(
        '/api/v2/signup',
        await withCaptcha(
          signupBody('free3@example.com', { ...(await cardToken()), promoCode: 'FREE3CARD' }),
        ),
      );
      expect(response.statusCode).toBe(201);
      const [user] = await t.app.db
        .select()
        .from(users)
        .where(eq(users.dealerpassUserId, 'free3@example.com'));
      expect(user).toMatchObject({ nextBillDate: '2026-06-15', cardLast4: '1111' });
    });

    it.each([
      ['UNKNOWN', {}, 400, 'Promotion code not valid.'],
      ['EXPIRED', {}, 400, 'Promotion code not valid.'],
      ['FREE3CARD', {}, 400, 'Entered promotion code requires credit card.'],
      ['WELCOME25', {}, 400, 'Entered promotion code requires credit card.'],
    ])('promotion %s without a card is refused: %s', async (code, extra, status, text) => {
      const response = await post(
        '/api/v2/signup',
        await withCaptcha(
          signupBody(`promo-${code.toLowerCase()}@example.com`, { promoCode: code, ...extra }),
        ),
      );
      expect(response.statusCode).toBe(status);
      expect(response.json()).toMatchObject({ errors: [{ source: 'promoCode', message: text }] });
      expect(signupFailureMessage(response.json())).toBe(text);
    });

    it('a code with one redemption works once; the next sign-up is told its limits are exceeded', async () => {
      const first = await post(
        '/api/v2/signup',
        await withCaptcha(signupBody('limited-a@example.com', { promoCode: 'LIMITED1' })),
      );
      expect(first.statusCode).toBe(201);
      const second = await post(
        '/api/v2/signup',
        await withCaptcha(signupBody('limited-b@example.com', { promoCode: 'LIMITED1' })),
      );
      expect(second.statusCode).toBe(429);
      expect(signupFailureMessage(second.json())).toBe(
        'Promotion code retries has exceeded limits',
      );
    });

    it.each([
      [
        { paymentToken: '', promoCode: '' },
        'paymentToken',
        'Either a credit card, promotion code, or both are required.',
      ],
      [{ zip: '4822' }, 'zip', 'Valid postal code is required.'],
      [{ subscriptions: [] }, 'subscriptions', 'At least one subscription is required.'],
      [{ terms: false }, 'terms', 'You must agree to Terms of Use, Privacy, and Refund polices.'],
      [{ email: 'someone@example' }, 'email', 'Email must be a valid email address.'],
      [{ firstName: ' ' }, 'firstName', 'First name is required.'],
      [{ address1: '' }, 'address1', 'Address is required.'],
      [{ auctionAccessId: '12345' }, 'auctionAccessId', 'Must enter a valid Auction Access Id'],
      [
        { forwardTo: 'javascript:alert(1)' },
        'forwardTo',
        'forwardTo must be an absolute http(s) URL.',
      ],
    ])('validation %j → %s: %s', async (overrides, source, message) => {
      const response = await post(
        '/api/v2/signup',
        await withCaptcha(signupBody('invalid@example.com', overrides)),
      );
      expect(response.statusCode).toBe(400);
      const body = response.json<{ errors: { source: string; message: string }[] }>();
      expect(body.errors).toContainEqual({ source, message, details: message });
    });

    it('billing must be complete when it differs from the profile address', async () => {
      const response = await post(
        '/api/v2/signup',
        await withCaptcha(
          signupBody('billing@example.com', {
            ...(await cardToken()),
            sameAddresses: false,
            billingFirstName: 'Pat',
            billingLastName: 'Payer',
            billingAddress1: '2 Bill St',
            billingCity: 'Lansing',
            billingCountry: 'US',
            billingState: 'MI',
            billingZip: '4890',
          }),
        ),
      );
      expect(response.statusCode).toBe(400);
      expect(signupFailureMessage(response.json())).toBe('Valid billing postal code is required.');
    });

    it('refuses raw card data with 400 and stores nothing', async () => {
      const before = await countRows();
      const response = await post(
        '/api/v2/signup',
        await withCaptcha(
          signupBody('raw@example.com', {
            creditCardNumber: '4111111111111111',
            creditCardCode: '123',
          }),
        ),
      );
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ code: 'RAW_CARD_DATA_REFUSED' });
      expect(response.body).not.toContain('4111111111111111');
      expect(await countRows()).toEqual(before);
    });

    it('refuses the company e-mail domain and an address in use', async () => {
      const company = await post(
        '/api/v2/signup',
        await withCaptcha(signupBody('someone@dealerpass.example', { promoCode: 'FREEMONTH' })),
      );
      expect(company.statusCode).toBe(400);
      expect(signupFailureMessage(company.json())).toBe(
        'Cannot create user with DealerPass email domain.',
      );

      await post(
        '/api/v2/signup',
        await withCaptcha(signupBody('taken@example.com', { promoCode: 'FREEMONTH' })),
      );
      const taken = await post(
        '/api/v2/signup',
        await withCaptcha(signupBody('TAKEN@example.com', { promoCode: 'FREEMONTH' })),
      );
      expect(taken.statusCode).toBe(409);
      expect(taken.json()).toMatchObject({ errors: [{ source: 'email' }] });
      const check = await t.app.inject({
        method: 'GET',
        url: '/api/users/userIdTaken/taken%40example.com',
      });
      expect(check.json()).toEqual({ data: true });
    });

    it('refuses an alternate e-mail that is already in use', async () => {
      const response = await post(
        '/api/v2/signup',
        await withCaptcha(
          signupBody('alt@example.com', { promoCode: 'FREEMONTH', altEmail: 'happy@example.com' }),
        ),
      );
      expect(response.statusCode).toBe(409);
      expect(signupFailureMessage(response.json())).toBe('Alternate email already in use.');
    });

    it('a captcha that does not verify answers the recaptchaVerification source', async () => {
      const response = await post('/api/v2/signup', {
        ...signupBody('captcha@example.com', { promoCode: 'FREEMONTH' }),
        recaptcha: 'bogus',
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ errors: [{ source: 'recaptchaVerification' }] });
      expect(signupFailureMessage(response.json())).toBe(
        SIGNUP_FAILURE_TEXTS.recaptchaVerification,
      );
    });
  });

  describe('a sign-up whose server stopped mid-way', () => {
    /** An attempt as a crashed server leaves it: claimed, the lease run out. */
    async function staleAttempt(email: string, stage: 'profile' | 'charged') {
      const userId = crypto.randomUUID();
      const { paymentToken } = await cardToken();
      const profile = await t.app.payments.createCustomerProfile({
        accountId: userId,
        email,
        paymentToken,
      });
      const amountCents = quote(['NADA', 'MMR', 'CF', 'AC'], NOW, R3_PRICE_TABLE).totalCents;
      const chargeKey = stage === 'charged' ? `signup:${userId}` : null;
      if (chargeKey) {
        // The charge went through; the server died before recording it.
        await t.app.payments.charge({
          customerProfileId: profile.customerProfileId,
          paymentProfileId: profile.paymentProfileId,
          amountCents,
          idempotencyKey: chargeKey,
          description: 'DealerPass sign-up: first month',
        });
      }
      const request = signupBody(email, {
        paymentToken,
        cardBrand: 'visa',
        cardLast4: '1111',
        creditCardExpiration: '1230',
        billingFirstName: 'Pat',
        billingLastName: 'Dealer',
        billingAddress1: '400 Woodward Ave',
        billingAddress2: '',
        billingCity: 'Detroit',
        billingCountry: 'US',
        billingState: 'MI',
        billingZip: '48226',
      });
      await t.app.db.insert(signupAttempts).values({
        email,
        idempotencyKey: null,
        requestHash: 'stale',
        status: 'in_progress',
        userId,
        request,
        amountCents,
        gatewayCustomerId: profile.customerProfileId,
        gatewayPaymentProfileId: profile.paymentProfileId,
        cardBrand: 'visa',
        cardLast4: '1111',
        cardExpiration: '1230',
        chargeKey,
        leaseExpiresAt: new Date(NOW.getTime() - 1000),
      });
      return { userId, amountCents };
    }

    it('a charge already made is recorded once by the next submit, not charged again', async () => {
      const { userId, amountCents } = await staleAttempt('crashed@example.com', 'charged');
      const before = await countRows();
      const response = await post(
        '/api/v2/signup',
        await withCaptcha(signupBody('crashed@example.com', await cardToken())),
      );
      expect(response.statusCode).toBe(201);
      const after = await countRows();
      expect(after.charges).toBe(before.charges);
      expect(after.users - before.users).toBe(1);
      const [payment] = await t.app.db.select().from(payments).where(eq(payments.userId, userId));
      expect(payment!.amountCents).toBe(amountCents);
    });

    it('one stopped before its charge is cleared and the new submit signs up', async () => {
      await staleAttempt('crashed-early@example.com', 'profile');
      const before = await countRows();
      const response = await post(
        '/api/v2/signup',
        await withCaptcha(
          signupBody('crashed-early@example.com', await cardToken('5555555555554444')),
        ),
      );
      expect(response.statusCode).toBe(201);
      const after = await countRows();
      expect(after.charges - before.charges).toBe(1);
      const [user] = await t.app.db
        .select()
        .from(users)
        .where(eq(users.dealerpassUserId, 'crashed-early@example.com'));
      expect(user!.cardLast4).toBe('4444');
    });

    it('while its lease runs, another submit for the address is told to wait', async () => {
      await t.app.db.insert(signupAttempts).values({
        email: 'inflight@example.com',
        requestHash: 'x',
        status: 'in_progress',
        userId: crypto.randomUUID(),
        request: {},
        amountCents: 100,
        leaseExpiresAt: new Date(NOW.getTime() + 60_000),
      });
      const response = await post(
        '/api/v2/signup',
        await withCaptcha(signupBody('inflight@example.com', await cardToken())),
      );
      expect(response.statusCode).toBe(409);
      expect(response.json()).toMatchObject({ code: 'SIGNUP_IN_PROGRESS' });
    });
  });

  describe('POST /api/signup (the older flow)', () => {
    it('signs up without forwardTo and refuses invalid bodies the same way', async () => {
      const { forwardTo: _f, ...body } = signupBody('older@example.com', await cardToken());
      const response = await post('/api/signup', await withCaptcha(body));
      expect(response.statusCode).toBe(201);
      const invalid = await post(
        '/api/signup',
        await withCaptcha({ ...body, email: 'older2@example.com', zip: '' }),
      );
      expect(invalid.statusCode).toBe(400);
      expect(signupFailureMessage(invalid.json())).toBe('Valid postal code is required.');
    });
  });

  describe('rate limits per client', () => {
    it('limits lead creation and sign-ups per client address', async () => {
      const ip = '10.9.9.9';
      const statuses: number[] = [];
      for (let i = 0; i < 11; i++) {
        const response = await browser.request({
          method: 'POST',
          url: '/api/signup/contact',
          payload: { ...LEAD, recaptcha: 'x', firstName: '' },
          remoteAddress: ip,
        });
        statuses.push(response.statusCode);
      }
      expect(statuses.slice(0, 10).every((s) => s === 400)).toBe(true);
      expect(statuses[10]).toBe(429);
      const statusesSignup: number[] = [];
      for (let i = 0; i < 11; i++) {
        const response = await browser.request({
          method: 'POST',
          url: '/api/v2/signup',
          payload: {},
          remoteAddress: '10.9.9.10',
        });
        statusesSignup.push(response.statusCode);
      }
      expect(statusesSignup[10]).toBe(429);
    });
  });
});

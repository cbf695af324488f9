import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CARD_MESSAGES } from '@dealerpass/domain/schemas/messages';
import {
  PaymentGatewayError,
  type PaymentGateway,
} from '../../src/adapters/payments/payment-gateway.ts';
import {
  SANDBOX_TOKEN_URL,
  createSandboxGateway,
} from '../../src/sandboxes/payments/sandbox-gateway.ts';
import { SANDBOX_TEST_CARDS } from '../../src/sandboxes/payments/test-cards.ts';
import { purgeExpiredSandboxTokens } from '../../src/sandboxes/payments/sandbox-tokens.ts';
import type { Database } from '../../src/db/client.ts';
import { buildTestApp, type TestApp } from '../support/helper.ts';

const START = new Date('2026-03-10T15:00:00Z');
const VALID_CARD = {
  creditCardNumber: '4111 1111 1111 1111',
  creditCardExpiration: '12/28',
  creditCardCode: '123',
};

let current = START;
const now = () => current;

let t: TestApp;
let gateway: PaymentGateway;
beforeAll(async () => {
  t = await buildTestApp({
    now,
    sandboxGateway: { tokensPerMinute: 1000 },
  });
  gateway = createSandboxGateway({ db: t.app.db, now });
});
afterAll(async () => {
  await t.close();
});
beforeEach(() => {
  current = START;
});

function tokenize(card: Record<string, unknown>, app = t.app) {
  return app.inject({ method: 'POST', url: SANDBOX_TOKEN_URL, payload: card });
}

async function tokenFor(creditCardNumber: string, creditCardCode = '123'): Promise<string> {
  const response = await tokenize({ ...VALID_CARD, creditCardNumber, creditCardCode });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ data: { paymentToken: string } }>().data.paymentToken;
}

let accounts = 0;
async function customerWith(cardNumber: string) {
  accounts += 1;
  return gateway.createCustomerProfile({
    accountId: `00000000-0000-4000-8000-${String(accounts).padStart(12, '0')}`,
    email: `dealer${accounts}@example.com`,
    paymentToken: await tokenFor(cardNumber),
  });
}

async function gatewayError(promise: Promise<unknown>): Promise<PaymentGatewayError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PaymentGatewayError);
  return error as PaymentGatewayError;
}

async function rows(db: Database, table: string): Promise<Record<string, unknown>[]> {
  const result = (await db.execute(sql.raw(`select * from ${table}`))) as unknown as {
    rows: Record<string, unknown>[];
  };
  return result.rows;
}

let keys = 0;
const newKey = () => `test-key-${(keys += 1)}`;

describe('sandbox tokenization endpoint (DECISIONS R5)', () => {
  it('answers a valid card with a one-time token, brand, last four and expiry', async () => {
    const response = await tokenize(VALID_CARD);
    expect(response.statusCode).toBe(201);
    expect(response.headers['cache-control']).toBe('no-store');
    const { data } = response.json();
    expect(data).toEqual({
      paymentToken: expect.stringMatching(/^sbx_tok_[\w-]{43}$/),
      cardBrand: 'visa',
      cardLast4: '1111',
      creditCardExpiration: '1228',
      expiresAt: new Date(START.getTime() + 15 * 60 * 1000).toISOString(),
    });
    expect(JSON.stringify(data)).not.toContain('4111111111111111');
  });

  it('needs no CSRF token or cookie: it is a third party’s endpoint, not our API', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: SANDBOX_TOKEN_URL,
      headers: { 'content-type': 'application/json', cookie: '' },
      payload: JSON.stringify({ ...VALID_CARD, creditCardNumber: '5555555555554444' }),
    });
    expect(response.statusCode).toBe(201);
    expect(response.json().data.cardBrand).toBe('mastercard');
  });

  it.each([
    [
      'no fields at all',
      {},
      [
        ['creditCardNumber', CARD_MESSAGES.numberRequired],
        ['creditCardExpiration', CARD_MESSAGES.expiryRequired],
        ['creditCardCode', CARD_MESSAGES.cvvRequired],
      ],
    ],
    [
      'a number failing Luhn',
      { creditCardNumber: '4111111111111112' },
      [['creditCardNumber', CARD_MESSAGES.numberInvalid]],
    ],
    [
      'a number of an unknown brand',
      { creditCardNumber: '9111111111111111' },
      [['creditCardNumber', CARD_MESSAGES.numberInvalid]],
    ],
    [
      'a number of the wrong length for its brand',
      { creditCardNumber: '37828224631000' },
      [['creditCardNumber', CARD_MESSAGES.numberInvalid]],
    ],
    [
      'an expiry that is not MMYY',
      { creditCardExpiration: '13/28' },
      [['creditCardExpiration', CARD_MESSAGES.expiryFormat]],
    ],
    [
      'an expiry month that has ended',
      { creditCardExpiration: '02/26' },
      [['creditCardExpiration', CARD_MESSAGES.expiryPast]],
    ],
    [
      'a CVV of two digits',
      { creditCardCode: '12' },
      [['creditCardCode', CARD_MESSAGES.cvvTooShort]],
    ],
    [
      'a CVV with letters',
      { creditCardCode: '12a' },
      [['creditCardCode', CARD_MESSAGES.cvvInvalid]],
    ],
  ])('refuses %s with 400 and the domain texts', async (_name, change, expected) => {
    const body = Object.keys(change).length === 0 ? {} : { ...VALID_CARD, ...change };
    const response = await tokenize(body);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ statusCode: 400, code: 'VALIDATION_FAILED' });
    expect(
      response
        .json<{ errors: { source: string; message: string }[] }>()
        .errors.map((e) => [e.source, e.message]),
    ).toEqual(expected);
  });

  it('accepts the current month as expiry and refuses it once the month is over', async () => {
    expect((await tokenize({ ...VALID_CARD, creditCardExpiration: '0326' })).statusCode).toBe(201);
    current = new Date('2026-04-01T00:00:00Z');
    expect((await tokenize({ ...VALID_CARD, creditCardExpiration: '0326' })).statusCode).toBe(400);
  });

  it('refuses a body that is not JSON', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: SANDBOX_TOKEN_URL,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'creditCardNumber=4111111111111111',
    });
    expect(response.statusCode).toBe(415);
  });

  it('is rate-limited per client address', async () => {
    const limited = await buildTestApp({
      now,
      sandboxGateway: { tokensPerMinute: 2 },
    });
    try {
      const statuses = [];
      for (let i = 0; i < 3; i += 1)
        statuses.push((await tokenize(VALID_CARD, limited.app)).statusCode);
      expect(statuses).toEqual([201, 201, 429]);
    } finally {
      await limited.close();
    }
  });
});

describe('sandbox payment tokens', () => {
  it('are single use', async () => {
    const paymentToken = await tokenFor('4111111111111111');
    await gateway.createCustomerProfile({ accountId: 'a-1', email: 'a@example.com', paymentToken });
    const error = await gatewayError(
      gateway.createCustomerProfile({ accountId: 'a-2', email: 'b@example.com', paymentToken }),
    );
    expect(error).toMatchObject({ code: 'invalid_token', retryable: false });
  });

  it('expire after 15 minutes', async () => {
    const fresh = await tokenFor('4111111111111111');
    const stale = await tokenFor('4111111111111111');
    current = new Date(START.getTime() + 15 * 60 * 1000 - 1);
    await expect(
      gateway.createCustomerProfile({
        accountId: 'a-3',
        email: 'c@example.com',
        paymentToken: fresh,
      }),
    ).resolves.toMatchObject({ card: { last4: '1111' } });
    current = new Date(START.getTime() + 15 * 60 * 1000);
    const error = await gatewayError(
      gateway.createCustomerProfile({
        accountId: 'a-4',
        email: 'd@example.com',
        paymentToken: stale,
      }),
    );
    expect(error.code).toBe('invalid_token');
  });

  it('refuse an unknown token, and an expired one is purged', async () => {
    const error = await gatewayError(
      gateway.createCustomerProfile({
        accountId: 'a-5',
        email: 'e@example.com',
        paymentToken: 'sbx_tok_made-up',
      }),
    );
    expect(error.code).toBe('invalid_token');

    const before = (await rows(t.app.db, 'sandbox_gateway_tokens')).length;
    await tokenFor('4111111111111111');
    await purgeExpiredSandboxTokens(t.app.db, new Date(START.getTime() + 16 * 60 * 1000));
    const after = await rows(t.app.db, 'sandbox_gateway_tokens');
    expect(after.length).toBeLessThan(before + 1);
    expect(
      after.every((row) => new Date(row.expires_at as string).getTime() >= START.getTime()),
    ).toBe(true);
  });
});

describe('what the sandbox keeps of a card', () => {
  it('is brand, last four, expiry and behaviour: no full number or CVV in any table or log', async () => {
    const cvv = '7391';
    for (const [index, card] of SANDBOX_TEST_CARDS.entries()) {
      const paymentToken = await tokenFor(card.number, cvv);
      const profile = await gateway.createCustomerProfile({
        accountId: `keep-${index}`,
        email: 'keep@example.com',
        paymentToken,
      });
      await gateway
        .charge({ ...profile, amountCents: 7000, idempotencyKey: newKey(), description: 'x' })
        .catch(() => undefined);
    }

    const tables = (await rows(
      t.app.db,
      "information_schema.tables where table_schema = 'public'",
    )) as { table_name: string }[];
    const dump: Record<string, Record<string, unknown>[]> = {};
    for (const { table_name: table } of tables) dump[table] = await rows(t.app.db, `"${table}"`);
    expect(dump.sandbox_gateway_tokens?.length).toBeGreaterThan(0);
    expect(dump.sandbox_gateway_payment_profiles?.length).toBeGreaterThan(0);

    const text = JSON.stringify(dump);
    const logs = JSON.stringify(t.logs);
    for (const card of SANDBOX_TEST_CARDS) {
      // The number, and any run of it longer than the last four digits.
      const leading = card.number.slice(0, -4);
      for (const haystack of [text, logs]) {
        expect(haystack).not.toContain(card.number);
        expect(haystack).not.toContain(leading);
      }
    }
    const lonelyCvv = new RegExp(`(?<![0-9A-Za-z])${cvv}(?![0-9A-Za-z])`);
    expect(text).not.toMatch(lonelyCvv);
    expect(logs).not.toMatch(lonelyCvv);

    const columns = Object.keys(dump.sandbox_gateway_payment_profiles?.[0] ?? {});
    expect(columns.sort()).toEqual(
      [
        'behaviour',
        'card_brand',
        'card_expiration',
        'card_last4',
        'created_at',
        'customer_id',
        'deleted_at',
        'id',
      ].sort(),
    );
  });
});

describe('sandbox test cards', () => {
  const outcomes = {
    approved: { status: 'approved', transactionId: expect.stringMatching(/^sbx_txn_/) },
    declined: { status: 'declined', reason: 'declined' },
    insufficient_funds: { status: 'declined', reason: 'insufficient_funds' },
    expired_card: { status: 'declined', reason: 'expired_card' },
  } as const;

  it.each(SANDBOX_TEST_CARDS.map((card) => [card.number, card.brand, card.behaviour] as const))(
    '%s (%s) charges as %s',
    async (number, brand, behaviour) => {
      const profile = await customerWith(number);
      expect(profile.card).toEqual({ brand, last4: number.slice(-4), expiration: '1228' });
      const charge = gateway.charge({
        customerProfileId: profile.customerProfileId,
        paymentProfileId: profile.paymentProfileId,
        amountCents: 7300,
        idempotencyKey: newKey(),
        description: 'DealerPass monthly subscription',
      });
      if (behaviour === 'processor_error') {
        expect(await gatewayError(charge)).toMatchObject({
          code: 'processor_error',
          retryable: true,
        });
      } else {
        expect(await charge).toEqual(outcomes[behaviour]);
      }
    },
  );

  it('treats any other valid number as approved', async () => {
    const profile = await customerWith('4012888888881881');
    await expect(
      gateway.charge({ ...profile, amountCents: 100, idempotencyKey: newKey(), description: '' }),
    ).resolves.toMatchObject({ status: 'approved' });
  });

  it('lists only Luhn-valid numbers, an approved card of every brand and every behaviour', async () => {
    const { isValidCardNumber, detectCardType } =
      await import('@dealerpass/domain/validation/card');
    for (const card of SANDBOX_TEST_CARDS) {
      expect(isValidCardNumber(card.number), card.number).toBe(true);
      expect(detectCardType(card.number)).toBe(card.brand);
    }
    const approvedBrands = new Set(
      SANDBOX_TEST_CARDS.filter((c) => c.behaviour === 'approved').map((c) => c.brand),
    );
    expect([...approvedBrands].sort()).toEqual(['amex', 'discover', 'mastercard', 'visa']);
    expect(new Set(SANDBOX_TEST_CARDS.map((c) => c.behaviour)).size).toBe(5);
  });
});

describe('sandbox charges and refunds are idempotent', () => {
  it('answers a repeated key with the first outcome and charges once', async () => {
    const profile = await customerWith('4111111111111111');
    const input = { ...profile, amountCents: 7300, idempotencyKey: newKey(), description: 'May' };
    const first = await gateway.charge(input);
    const again = await gateway.charge(input);
    const together = await Promise.all([1, 2, 3, 4, 5].map(() => gateway.charge(input)));
    expect(again).toEqual(first);
    for (const result of together) expect(result).toEqual(first);
    const charges = (await rows(t.app.db, 'sandbox_gateway_transactions')).filter(
      (row) => row.idempotency_key === input.idempotencyKey,
    );
    expect(charges).toHaveLength(1);
  });

  it('answers concurrent first calls with one charge', async () => {
    const profile = await customerWith('5555555555554444');
    const input = { ...profile, amountCents: 6500, idempotencyKey: newKey(), description: '' };
    const results = await Promise.all([1, 2, 3, 4].map(() => gateway.charge(input)));
    expect(new Set(results.map((r) => JSON.stringify(r))).size).toBe(1);
    const charges = (await rows(t.app.db, 'sandbox_gateway_transactions')).filter(
      (row) => row.idempotency_key === input.idempotencyKey,
    );
    expect(charges).toHaveLength(1);
  });

  it('settles charges that arrive together one by one: each its own outcome or error', async () => {
    const approved = await Promise.all([1, 2, 3].map(() => customerWith('4111111111111111')));
    const declined = await customerWith('4000000000000002');
    const failing = await customerWith('4000000000000119');
    const removed = await customerWith('5555555555554444');
    await gateway.deletePaymentProfile(removed);
    const shared = newKey();
    const calls = [
      ...approved.map((profile) => ({ ...profile, amountCents: 7300, idempotencyKey: newKey() })),
      { ...declined, amountCents: 7300, idempotencyKey: newKey() },
      { ...failing, amountCents: 7300, idempotencyKey: newKey() },
      { ...removed, amountCents: 7300, idempotencyKey: newKey() },
      // One key, two different requests in the same moment: one is charged, the other refused.
      { ...approved[0]!, amountCents: 100, idempotencyKey: shared },
      { ...approved[0]!, amountCents: 200, idempotencyKey: shared },
    ].map((input) => ({ ...input, description: 'together' }));
    const settled = await Promise.allSettled(calls.map((input) => gateway.charge(input)));
    const outcome = (i: number) => {
      const result = settled[i]!;
      return result.status === 'fulfilled'
        ? result.value
        : { error: (result.reason as PaymentGatewayError).code };
    };
    for (const i of [0, 1, 2]) {
      expect(outcome(i)).toMatchObject({ status: 'approved', transactionId: /^sbx_txn_/ });
    }
    expect(outcome(3)).toEqual({ status: 'declined', reason: 'declined' });
    expect(outcome(4)).toEqual({ error: 'processor_error' });
    expect(outcome(5)).toEqual({ error: 'not_found' });
    expect([outcome(6), outcome(7)]).toContainEqual({ error: 'idempotency_conflict' });
    expect([outcome(6), outcome(7)]).toContainEqual(
      expect.objectContaining({ status: 'approved' }),
    );
    const written = (await rows(t.app.db, 'sandbox_gateway_transactions')).filter(
      (row) => row.description === 'together',
    );
    // Three approvals, the decline and the shared key's one charge; nothing for the others.
    expect(written).toHaveLength(5);
    expect(new Set(written.map((row) => row.idempotency_key)).size).toBe(5);
  });

  it('repeats a decline for its key, and a new key is a new attempt', async () => {
    const profile = await customerWith('4000000000009995');
    const input = { ...profile, amountCents: 7300, idempotencyKey: newKey(), description: '' };
    expect(await gateway.charge(input)).toEqual({
      status: 'declined',
      reason: 'insufficient_funds',
    });
    expect(await gateway.charge(input)).toEqual({
      status: 'declined',
      reason: 'insufficient_funds',
    });
    await gateway.charge({ ...input, idempotencyKey: newKey() });
    const rowsOfProfile = (await rows(t.app.db, 'sandbox_gateway_transactions')).filter(
      (row) => row.payment_profile_id === profile.paymentProfileId,
    );
    expect(rowsOfProfile).toHaveLength(2);
  });

  it('refuses a key reused for a different request', async () => {
    const profile = await customerWith('4111111111111111');
    const input = { ...profile, amountCents: 7300, idempotencyKey: newKey(), description: '' };
    await gateway.charge(input);
    const error = await gatewayError(gateway.charge({ ...input, amountCents: 7400 }));
    expect(error).toMatchObject({ code: 'idempotency_conflict', retryable: false });
  });

  it('refunds once per key and never more than the charge', async () => {
    const profile = await customerWith('378282246310005');
    const charge = await gateway.charge({
      ...profile,
      amountCents: 7300,
      idempotencyKey: newKey(),
      description: '',
    });
    if (charge.status !== 'approved') throw new Error('expected an approved charge');
    const refund = {
      transactionId: charge.transactionId,
      amountCents: 5000,
      idempotencyKey: newKey(),
    };
    const first = await gateway.refund(refund);
    expect(first).toEqual({ status: 'refunded', refundId: expect.stringMatching(/^sbx_ref_/) });
    expect(await gateway.refund(refund)).toEqual(first);

    const tooMuch = await gatewayError(
      gateway.refund({ ...refund, amountCents: 2301, idempotencyKey: newKey() }),
    );
    expect(tooMuch.code).toBe('refund_not_allowed');
    await expect(
      gateway.refund({ ...refund, amountCents: 2300, idempotencyKey: newKey() }),
    ).resolves.toMatchObject({ status: 'refunded' });

    const refunds = (await rows(t.app.db, 'sandbox_gateway_transactions')).filter(
      (row) => row.charge_id === charge.transactionId,
    );
    expect(refunds.map((row) => row.amount_cents).sort()).toEqual([2300, 5000]);
  });

  it('refunds concurrently without going over the charge', async () => {
    const profile = await customerWith('6011111111111117');
    const charge = await gateway.charge({
      ...profile,
      amountCents: 3000,
      idempotencyKey: newKey(),
      description: '',
    });
    if (charge.status !== 'approved') throw new Error('expected an approved charge');
    const attempts = await Promise.allSettled(
      [1, 2, 3].map(() =>
        gateway.refund({
          transactionId: charge.transactionId,
          amountCents: 2000,
          idempotencyKey: newKey(),
        }),
      ),
    );
    expect(attempts.filter((a) => a.status === 'fulfilled')).toHaveLength(1);
  });

  it('refuses to refund a decline or an unknown transaction', async () => {
    await expect(
      gatewayError(
        gateway.refund({ transactionId: 'sbx_txn_nope', amountCents: 1, idempotencyKey: newKey() }),
      ),
    ).resolves.toMatchObject({ code: 'not_found' });
    const profile = await customerWith('4000000000000002');
    await gateway.charge({
      ...profile,
      amountCents: 100,
      idempotencyKey: newKey(),
      description: '',
    });
    const [declined] = (await rows(t.app.db, 'sandbox_gateway_transactions')).filter(
      (row) => row.payment_profile_id === profile.paymentProfileId,
    );
    await expect(
      gatewayError(
        gateway.refund({
          transactionId: String(declined?.id),
          amountCents: 100,
          idempotencyKey: newKey(),
        }),
      ),
    ).resolves.toMatchObject({ code: 'refund_not_allowed' });
  });

  it('refuses amounts that are not positive integer cents', async () => {
    const profile = await customerWith('4111111111111111');
    for (const amountCents of [0, -5, 12.5]) {
      await expect(
        gateway.charge({ ...profile, amountCents, idempotencyKey: newKey(), description: '' }),
      ).rejects.toThrow(RangeError);
    }
  });
});

describe('sandbox payment profiles', () => {
  it('replaces the card: the old profile can no longer be charged, the new one can', async () => {
    const profile = await customerWith('4000000000000002');
    const replaced = await gateway.replacePaymentProfile({
      customerProfileId: profile.customerProfileId,
      paymentToken: await tokenFor('5555555555554444'),
    });
    expect(replaced.card).toEqual({ brand: 'mastercard', last4: '4444', expiration: '1228' });
    expect(replaced.paymentProfileId).not.toBe(profile.paymentProfileId);

    const old = await gatewayError(
      gateway.charge({ ...profile, amountCents: 100, idempotencyKey: newKey(), description: '' }),
    );
    expect(old.code).toBe('not_found');
    await expect(
      gateway.charge({
        customerProfileId: profile.customerProfileId,
        paymentProfileId: replaced.paymentProfileId,
        amountCents: 100,
        idempotencyKey: newKey(),
        description: '',
      }),
    ).resolves.toMatchObject({ status: 'approved' });
  });

  it('refuses a replacement for an unknown customer and leaves its token unspent', async () => {
    const paymentToken = await tokenFor('4111111111111111');
    const error = await gatewayError(
      gateway.replacePaymentProfile({ customerProfileId: 'sbx_cus_nope', paymentToken }),
    );
    expect(error.code).toBe('not_found');
    await expect(
      gateway.createCustomerProfile({ accountId: 'a-6', email: 'f@example.com', paymentToken }),
    ).resolves.toMatchObject({ card: { brand: 'visa' } });
  });

  it('deletes a payment profile, twice without error; an earlier charge still answers its key', async () => {
    const profile = await customerWith('4111111111111111');
    const input = { ...profile, amountCents: 100, idempotencyKey: newKey(), description: '' };
    const first = await gateway.charge(input);
    await gateway.deletePaymentProfile(profile);
    await gateway.deletePaymentProfile(profile);
    expect(await gateway.charge(input)).toEqual(first);
    const error = await gatewayError(gateway.charge({ ...input, idempotencyKey: newKey() }));
    expect(error.code).toBe('not_found');
  });

  it('publishes the token URL for the browser', () => {
    expect(gateway.kind).toBe('sandbox');
    expect(gateway.publicConfig()).toEqual({
      kind: 'sandbox',
      tokenUrl: '/sandbox-gateway/v1/tokens',
    });
  });
});

describe('sandbox delay option', () => {
  it('makes every charge take at least delayMs', async () => {
    const slow = createSandboxGateway({ db: t.app.db, now, delayMs: 250 });
    const profile = await customerWith('4111111111111111');
    const input = { ...profile, amountCents: 100, description: '' };

    const fastStart = performance.now();
    await gateway.charge({ ...input, idempotencyKey: newKey() });
    const fast = performance.now() - fastStart;

    const slowStart = performance.now();
    await slow.charge({ ...input, idempotencyKey: newKey() });
    const slowElapsed = performance.now() - slowStart;

    expect(slowElapsed).toBeGreaterThanOrEqual(245);
    expect(fast).toBeLessThan(slowElapsed);
  });
});

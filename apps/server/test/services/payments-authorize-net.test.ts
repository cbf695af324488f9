import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  ACCEPT_DATA_DESCRIPTOR,
  DUPLICATE_WINDOW_SECONDS,
  createAuthorizeNetGateway,
} from '../../src/adapters/payments/authorize-net.ts';
import { parseAnetResponse } from '../../src/adapters/payments/authorize-net-api.ts';
import {
  PaymentGatewayError,
  type CustomerProfile,
  type PaymentGateway,
} from '../../src/adapters/payments/payment-gateway.ts';
import type { AuthorizeNetConfig } from '../../src/adapters/payments/payments-config.ts';
import { authorizeNetOperations } from '../../src/db/schema.ts';
import {
  startAuthorizeNetDouble,
  type AuthorizeNetDouble,
} from '../support/payments-authorize-net-double.ts';
import { buildTestApp, type TestApp } from '../support/helper.ts';

const TIMEOUT_MS = 300;

let double: AuthorizeNetDouble;
let t: TestApp;
let config: AuthorizeNetConfig;
let gateway: PaymentGateway;

beforeAll(async () => {
  double = await startAuthorizeNetDouble();
  t = await buildTestApp();
  config = {
    endpoint: double.url,
    apiLoginId: double.apiLoginId,
    transactionKey: double.transactionKey,
    clientKey: 'public-client-key',
    acceptJsUrl: 'https://jstest.authorize.net/v1/Accept.js',
    timeoutMs: TIMEOUT_MS,
    validationMode: 'testMode',
  };
  gateway = createAuthorizeNetGateway({ config, db: t.app.db, now: () => new Date() });
});
afterAll(async () => {
  await t.close();
  await double.close();
});
beforeEach(() => {
  double.delayMs = 0;
  double.failNextTransactions(0);
});

let accounts = 0;
async function customerWith(number: string, expiration = '1228'): Promise<CustomerProfile> {
  accounts += 1;
  return gateway.createCustomerProfile({
    accountId: `7f1c2a9e-0000-4000-8000-${String(accounts).padStart(12, '0')}`,
    email: `dealer${accounts}@example.com`,
    paymentToken: double.acceptToken({ number, expiration }),
  });
}

let keys = 0;
const newKey = () => `charge:account-${(keys += 1)}:2026-03`;

async function gatewayError(promise: Promise<unknown>): Promise<PaymentGatewayError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PaymentGatewayError);
  return error as PaymentGatewayError;
}

const chargesOf = (profile: CustomerProfile) =>
  double.transactions.filter(
    (tx) =>
      tx.type === 'authCaptureTransaction' && tx.paymentProfileId === profile.paymentProfileId,
  );

describe('Authorize.Net JSON protocol', () => {
  it('answers with a byte-order mark, which the adapter reads past', async () => {
    const response = await fetch(double.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        getCustomerProfileRequest: {
          merchantAuthentication: {
            name: double.apiLoginId,
            transactionKey: double.transactionKey,
          },
          customerProfileId: '1',
        },
      }),
    });
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const raw = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
    expect(() => JSON.parse(raw)).toThrow(SyntaxError);
    expect(parseAnetResponse('getCustomerProfileRequest', raw).messages).toEqual({
      resultCode: 'Error',
      message: [{ code: 'E00040', text: 'The record cannot be found.' }],
    });
  });

  it('refuses wrong credentials as a configuration error, not retryable', async () => {
    const wrong = createAuthorizeNetGateway({
      config: { ...config, transactionKey: 'wrong' },
      db: t.app.db,
      now: () => new Date(),
    });
    const error = await gatewayError(
      wrong.createCustomerProfile({
        accountId: 'a',
        email: 'a@example.com',
        paymentToken: double.acceptToken({ number: '4111111111111111', expiration: '1228' }),
      }),
    );
    expect(error).toMatchObject({ code: 'configuration_error', retryable: false });
    expect(error.message).toContain('E00007');
  });

  it('treats an unreachable endpoint as a retryable network error', async () => {
    const offline = createAuthorizeNetGateway({
      config: { ...config, endpoint: 'http://127.0.0.1:9/xml/v1/request.api' },
      db: t.app.db,
      now: () => new Date(),
    });
    const error = await gatewayError(
      offline.deletePaymentProfile({ customerProfileId: '1', paymentProfileId: '2' }),
    );
    expect(error).toMatchObject({ code: 'network_error', retryable: true });
  });

  it('publishes what Accept.js needs and nothing secret', () => {
    expect(gateway.publicConfig()).toEqual({
      kind: 'authorize-net',
      acceptJsUrl: 'https://jstest.authorize.net/v1/Accept.js',
      apiLoginId: double.apiLoginId,
      clientKey: 'public-client-key',
    });
    expect(JSON.stringify(gateway.publicConfig())).not.toContain(double.transactionKey);
  });
});

describe('Authorize.Net customer and payment profiles', () => {
  it('creates a customer profile from Accept.js opaque data and reads back brand, last four and expiry', async () => {
    const profile = await customerWith('4111111111111111', '0929');
    expect(profile).toEqual({
      customerProfileId: expect.stringMatching(/^\d+$/),
      paymentProfileId: expect.stringMatching(/^\d+$/),
      card: { brand: 'visa', last4: '1111', expiration: '0929' },
    });
    const create = double.requests.findLast((r) => r.name === 'createCustomerProfileRequest');
    expect(Object.keys(create?.body ?? {})).toEqual([
      'merchantAuthentication',
      'profile',
      'validationMode',
    ]);
    expect(create?.body.profile).toMatchObject({
      merchantCustomerId: expect.stringMatching(/^[0-9a-f]{20}$/),
      description: expect.stringContaining('7f1c2a9e-'),
      paymentProfiles: {
        payment: {
          opaqueData: { dataDescriptor: ACCEPT_DATA_DESCRIPTOR, dataValue: expect.any(String) },
        },
      },
    });
  });

  it('refuses opaque data that was used already', async () => {
    const paymentToken = double.acceptToken({ number: '5555555555554444', expiration: '1228' });
    await gateway.createCustomerProfile({
      accountId: 'used-1',
      email: 'u@example.com',
      paymentToken,
    });
    const error = await gatewayError(
      gateway.createCustomerProfile({ accountId: 'used-2', email: 'u@example.com', paymentToken }),
    );
    expect(error).toMatchObject({ code: 'invalid_token', retryable: false });
  });

  it('joins an existing customer profile of the same account (E00039) with the new card', async () => {
    const first = await gateway.createCustomerProfile({
      accountId: 'returning-account',
      email: 'r@example.com',
      paymentToken: double.acceptToken({ number: '4111111111111111', expiration: '1228' }),
    });
    const second = await gateway.createCustomerProfile({
      accountId: 'returning-account',
      email: 'r@example.com',
      paymentToken: double.acceptToken({ number: '378282246310005', expiration: '0130' }),
    });
    expect(second.customerProfileId).toBe(first.customerProfileId);
    expect(second.card).toEqual({ brand: 'amex', last4: '0005', expiration: '0130' });
    const customer = double.customers.get(first.customerProfileId);
    expect([...(customer?.paymentProfiles.keys() ?? [])]).toEqual([second.paymentProfileId]);
  });

  it('replaces the payment profile: the new card is added first, then the old one removed', async () => {
    const profile = await customerWith('4111111111111111');
    const replaced = await gateway.replacePaymentProfile({
      customerProfileId: profile.customerProfileId,
      paymentToken: double.acceptToken({ number: '6011111111111117', expiration: '1130' }),
    });
    expect(replaced.card).toEqual({ brand: 'discover', last4: '1117', expiration: '1130' });
    const customer = double.customers.get(profile.customerProfileId);
    expect([...(customer?.paymentProfiles.keys() ?? [])]).toEqual([replaced.paymentProfileId]);
  });

  it('keeps the old card when the new one is refused', async () => {
    const profile = await customerWith('4111111111111111');
    const error = await gatewayError(
      gateway.replacePaymentProfile({
        customerProfileId: profile.customerProfileId,
        paymentToken: 'forged',
      }),
    );
    expect(error.code).toBe('invalid_token');
    expect(
      double.customers
        .get(profile.customerProfileId)
        ?.paymentProfiles.has(profile.paymentProfileId),
    ).toBe(true);
  });

  it('reports a card refused by live-mode validation as card_declined', async () => {
    const live = createAuthorizeNetGateway({
      config: { ...config, validationMode: 'liveMode' },
      db: t.app.db,
      now: () => new Date(),
    });
    const error = await gatewayError(
      live.createCustomerProfile({
        accountId: 'live',
        email: 'l@example.com',
        paymentToken: double.acceptToken({ number: '4000000000000002', expiration: '1228' }),
      }),
    );
    expect(error).toMatchObject({ code: 'card_declined', retryable: false });
  });

  it('deletes a payment profile; deleting it again is not an error; it can no longer be charged', async () => {
    const profile = await customerWith('4111111111111111');
    await gateway.deletePaymentProfile(profile);
    expect(double.customers.get(profile.customerProfileId)?.paymentProfiles.size).toBe(0);
    await gateway.deletePaymentProfile(profile);
    const error = await gatewayError(
      gateway.charge({ ...profile, amountCents: 7300, idempotencyKey: newKey(), description: 'x' }),
    );
    expect(error).toMatchObject({ code: 'not_found', retryable: false });
  });
});

describe('Authorize.Net charges', () => {
  it('charges a profile: approved, with the amount in dollars, our key as invoice and refId, an 8-hour duplicate window', async () => {
    const profile = await customerWith('4111111111111111');
    const result = await gateway.charge({
      ...profile,
      amountCents: 7305,
      idempotencyKey: newKey(),
      description: 'DealerPass monthly subscription',
    });
    expect(result).toEqual({ status: 'approved', transactionId: expect.stringMatching(/^\d+$/) });

    const request = double.requests.findLast((r) => r.name === 'createTransactionRequest')?.body;
    expect(Object.keys(request ?? {})).toEqual([
      'merchantAuthentication',
      'refId',
      'transactionRequest',
    ]);
    const transactionRequest = request?.transactionRequest as Record<string, unknown>;
    expect(transactionRequest).toEqual({
      transactionType: 'authCaptureTransaction',
      amount: '73.05',
      profile: {
        customerProfileId: profile.customerProfileId,
        paymentProfile: { paymentProfileId: profile.paymentProfileId },
      },
      order: {
        invoiceNumber: request?.refId,
        description: 'DealerPass monthly subscription',
      },
      transactionSettings: {
        setting: [
          { settingName: 'duplicateWindow', settingValue: String(DUPLICATE_WINDOW_SECONDS) },
        ],
      },
    });
    expect(String(request?.refId)).toMatch(/^[0-9a-f]{20}$/);
    expect(chargesOf(profile)).toHaveLength(1);
  });

  it('reports a decline as a result, and an expired card as expired_card', async () => {
    const declined = await customerWith('4000000000000002');
    const expired = await customerWith('4000000000000069');
    await expect(
      gateway.charge({ ...declined, amountCents: 7300, idempotencyKey: newKey(), description: '' }),
    ).resolves.toEqual({ status: 'declined', reason: 'declined' });
    await expect(
      gateway.charge({ ...expired, amountCents: 7300, idempotencyKey: newKey(), description: '' }),
    ).resolves.toEqual({ status: 'declined', reason: 'expired_card' });
  });

  it('answers a repeated key with the first outcome without calling Authorize.Net again', async () => {
    const profile = await customerWith('4111111111111111');
    const declined = await customerWith('4000000000000002');
    const input = { ...profile, amountCents: 7300, idempotencyKey: newKey(), description: '' };
    const declinedInput = {
      ...declined,
      amountCents: 7300,
      idempotencyKey: newKey(),
      description: '',
    };
    const first = await gateway.charge(input);
    const firstDecline = await gateway.charge(declinedInput);
    const calls = double.requests.length;
    expect(await gateway.charge(input)).toEqual(first);
    expect(await gateway.charge(declinedInput)).toEqual(firstDecline);
    expect(double.requests.length).toBe(calls);
    expect(chargesOf(profile)).toHaveLength(1);

    const conflict = await gatewayError(gateway.charge({ ...input, amountCents: 7400 }));
    expect(conflict.code).toBe('idempotency_conflict');
  });

  it('duplicate: when our record of the outcome is lost, Authorize.Net’s duplicate answer names the first charge', async () => {
    const profile = await customerWith('5555555555554444');
    const input = { ...profile, amountCents: 6500, idempotencyKey: newKey(), description: '' };
    const first = await gateway.charge(input);
    // A crash between Authorize.Net's answer and our write leaves no row behind.
    await t.app.db.delete(authorizeNetOperations);

    const again = await gateway.charge(input);
    expect(again).toEqual(first);
    const last = double.requests.slice(-2).map((r) => r.name);
    expect(last).toEqual(['createTransactionRequest', 'getTransactionDetailsRequest']);
    expect(chargesOf(profile)).toHaveLength(1);
  });

  it('network timeout: a retryable error; the retry with the same key finds the charge instead of making another', async () => {
    const profile = await customerWith('4111111111111111');
    const input = { ...profile, amountCents: 9900, idempotencyKey: newKey(), description: '' };
    double.delayMs = TIMEOUT_MS + 300;
    const started = performance.now();
    const error = await gatewayError(gateway.charge(input));
    expect(error).toMatchObject({ code: 'network_error', retryable: true });
    expect(error.message).toContain(`no answer within ${TIMEOUT_MS} ms`);
    expect(performance.now() - started).toBeLessThan(TIMEOUT_MS + 250);
    // Authorize.Net did charge; only the answer was lost.
    expect(chargesOf(profile)).toHaveLength(1);

    double.delayMs = 0;
    const retried = await gateway.charge(input);
    expect(retried).toEqual({ status: 'approved', transactionId: chargesOf(profile)[0]?.transId });
    expect(chargesOf(profile)).toHaveLength(1);
  });

  it('processor error: retryable; the retry sends the next invoice number and charges once', async () => {
    const profile = await customerWith('4111111111111111');
    const input = { ...profile, amountCents: 7300, idempotencyKey: newKey(), description: '' };
    double.failNextTransactions(1);
    const error = await gatewayError(gateway.charge(input));
    expect(error).toMatchObject({ code: 'processor_error', retryable: true });

    const retried = await gateway.charge(input);
    expect(retried.status).toBe('approved');
    const charges = chargesOf(profile);
    expect(charges.map((c) => c.responseCode)).toEqual(['3', '1']);
    expect(charges[0]?.invoiceNumber).not.toBe(charges[1]?.invoiceNumber);
    expect(await gateway.charge(input)).toEqual(retried);
  });

  it('held for review: retryable until a reviewer decides, without charging again', async () => {
    const profile = await customerWith('4000000000000259');
    const input = { ...profile, amountCents: 7300, idempotencyKey: newKey(), description: '' };
    expect(await gatewayError(gateway.charge(input))).toMatchObject({
      code: 'held_for_review',
      retryable: true,
    });
    expect((await gatewayError(gateway.charge(input))).code).toBe('held_for_review');
    const [held] = chargesOf(profile);
    double.review(String(held?.transId), 'approve');
    expect(await gateway.charge(input)).toEqual({
      status: 'approved',
      transactionId: held?.transId,
    });
    expect(chargesOf(profile)).toHaveLength(1);
  });

  it('refuses amounts that are not positive integer cents before calling', async () => {
    const profile = await customerWith('4111111111111111');
    const calls = double.requests.length;
    await expect(
      gateway.charge({ ...profile, amountCents: 73.5, idempotencyKey: newKey(), description: '' }),
    ).rejects.toThrow(RangeError);
    expect(double.requests.length).toBe(calls);
  });
});

describe('Authorize.Net refunds', () => {
  async function approvedCharge(amountCents: number) {
    const profile = await customerWith('4111111111111111');
    const result = await gateway.charge({
      ...profile,
      amountCents,
      idempotencyKey: newKey(),
      description: '',
    });
    if (result.status !== 'approved') throw new Error('expected an approved charge');
    return result.transactionId;
  }

  it('voids an unsettled charge when refunded whole, once per key', async () => {
    const transactionId = await approvedCharge(7300);
    const input = { transactionId, amountCents: 7300, idempotencyKey: `refund:${transactionId}` };
    expect(await gateway.refund(input)).toEqual({ status: 'refunded', refundId: transactionId });
    const voidRequest = double.requests.findLast(
      (r) => r.name === 'createTransactionRequest',
    )?.body;
    expect(voidRequest?.transactionRequest).toEqual({
      transactionType: 'voidTransaction',
      refTransId: transactionId,
    });
    expect(double.transactions.find((tx) => tx.transId === transactionId)?.status).toBe('voided');

    const calls = double.requests.length;
    expect(await gateway.refund(input)).toEqual({ status: 'refunded', refundId: transactionId });
    expect(double.requests.length).toBe(calls);
  });

  it('refuses a partial refund before settlement', async () => {
    const transactionId = await approvedCharge(7300);
    const error = await gatewayError(
      gateway.refund({ transactionId, amountCents: 1000, idempotencyKey: newKey() }),
    );
    expect(error).toMatchObject({ code: 'refund_not_allowed', retryable: false });
  });

  it('refunds a settled charge with refTransId and the card’s last four, and never beyond the charge', async () => {
    const transactionId = await approvedCharge(7300);
    double.settle(transactionId);
    const first = await gateway.refund({
      transactionId,
      amountCents: 5000,
      idempotencyKey: newKey(),
    });
    expect(first).toEqual({ status: 'refunded', refundId: expect.stringMatching(/^\d+$/) });
    expect(first.refundId).not.toBe(transactionId);
    const request = double.requests.findLast((r) => r.name === 'createTransactionRequest')?.body;
    expect(request?.transactionRequest).toMatchObject({
      transactionType: 'refundTransaction',
      amount: '50.00',
      payment: { creditCard: { cardNumber: '1111', expirationDate: 'XXXX' } },
      refTransId: transactionId,
    });

    const tooMuch = await gatewayError(
      gateway.refund({ transactionId, amountCents: 2301, idempotencyKey: newKey() }),
    );
    expect(tooMuch.code).toBe('refund_not_allowed');
    await expect(
      gateway.refund({ transactionId, amountCents: 2300, idempotencyKey: newKey() }),
    ).resolves.toMatchObject({ status: 'refunded' });
  });

  it('a refund whose answer was lost is found as a duplicate on retry', async () => {
    const transactionId = await approvedCharge(4000);
    double.settle(transactionId);
    const input = { transactionId, amountCents: 4000, idempotencyKey: newKey() };
    double.delayMs = TIMEOUT_MS + 200;
    expect((await gatewayError(gateway.refund(input))).code).toBe('network_error');
    double.delayMs = 0;
    const retried = await gateway.refund(input);
    const refunds = double.transactions.filter((tx) => tx.refTransId === transactionId);
    expect(refunds).toHaveLength(1);
    expect(retried).toEqual({ status: 'refunded', refundId: refunds[0]?.transId });
  });

  it('reports an unknown transaction as not found', async () => {
    const error = await gatewayError(
      gateway.refund({ transactionId: '999', amountCents: 100, idempotencyKey: newKey() }),
    );
    expect(error.code).toBe('not_found');
  });
});

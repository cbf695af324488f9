/**
 * Issue 14, item 1: the demo's validating-payment account owes its unpaid renewal; a new card
 * retries it at once (R4), and once that retry is paid nothing is owed any more.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueSandboxToken } from '../../src/sandboxes/payments/sandbox-tokens.ts';
import { payments, users } from '../../src/db/schema.ts';
import { SESSION_COOKIE } from '../../src/plugins/session.ts';
import { seedDemoData } from '../../src/services/demo/seed-demo-data.ts';
import { buildTestApp, type TestApp, type TestBrowser } from '../support/helper.ts';
import { sessionFor } from '../factories/sign-in.ts';

const NOW = new Date('2026-03-02T15:00:00Z');

describe('the balance after a paid retry (issue 14, R4)', () => {
  let t: TestApp;
  let browser: TestBrowser;
  beforeAll(async () => {
    t = await buildTestApp({ now: () => NOW });
    await seedDemoData(t.app.db, { now: NOW, encryptionKey: t.app.keys.encryption });
    browser = await t.browser();
  });
  afterAll(() => t.close());

  const call = (method: 'GET' | 'PUT', url: string, session: string, payload?: object) =>
    t.app.inject({
      method,
      url,
      headers: {
        cookie: `${browser.cookie}; ${SESSION_COOKIE}=${session}`,
        'x-csrf-token': browser.token,
        ...(payload ? { 'content-type': 'application/json' } : {}),
      },
      ...(payload ? { payload: JSON.stringify(payload) } : {}),
    });

  it('validating-payment@example.com: a new card pays the renewal, and the balance is zero', async () => {
    const [user] = await t.app.db
      .select()
      .from(users)
      .where(eq(users.email, 'validating-payment@example.com'));
    const session = await sessionFor(t, user!.id, NOW);
    const before = await call('GET', '/api/users/current', session);
    expect(before.json().data).toMatchObject({
      accountStatus: 'validating payment',
      currentBalance: 108,
    });

    const { paymentToken } = await issueSandboxToken(
      t.app.db,
      { creditCardNumber: '4111111111111111', creditCardExpiration: '1230', creditCardCode: '123' },
      NOW,
    );
    const updated = await call('PUT', '/api/users/paymentProfile', session, {
      requestKey: crypto.randomUUID(),
      paymentToken,
      cardBrand: 'visa',
      cardLast4: '1111',
      creditCardExpiration: '1230',
      billingFirstName: 'Val',
      billingLastName: 'Idating',
      billingCountry: 'US',
      billingAddress1: '2 Bill St',
      billingAddress2: '',
      billingCity: 'Lansing',
      billingState: 'MI',
      billingZip: '48901',
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json().data).toMatchObject({ accountStatus: 'active', currentBalance: 0 });
    const paid = await t.app.db.select().from(payments).where(eq(payments.userId, user!.id));
    expect(paid.map((payment) => payment.amountCents)).toEqual([10800]);

    const after = await call('GET', '/api/users/current', session);
    expect(after.json().data).toMatchObject({ accountStatus: 'active', currentBalance: 0 });
  });
});

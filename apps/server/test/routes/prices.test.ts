import { randomUUID } from 'node:crypto';
import { eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SELECTABLE_CODES, type TSubscriptionCode } from '@dealerpass/domain/catalogue';
import { R3_PRICE_TABLE, quote, type TPriceTable } from '@dealerpass/domain/prices';
import {
  mailOutbox,
  payments,
  priceChangeNotices,
  prices,
  staffAudit,
} from '../../src/db/schema.ts';
import { runBilling } from '../../src/services/billing/run-billing.ts';
import { staffBrowsers, type StaffBrowsers } from '../factories/admin-fixtures.ts';
import { buildTestApp, type TestApp } from '../support/helper.ts';
import { subscribeWithCard } from '../factories/subscriber-factory.ts';
import { createAccount } from '../factories/sign-in.ts';

describe('prices as data (DECISIONS R11, docs/decisions/025, 026)', () => {
  let t: TestApp;
  let now = new Date('2026-03-15T15:00:00Z'); // 11:00 in New York
  let counter = 0;
  let browsers: StaffBrowsers;

  beforeAll(async () => {
    t = await buildTestApp({ now: () => now });
    browsers = await staffBrowsers(t);
  });
  afterAll(() => t.close());

  /** The console's prices calls, by an admin unless another role is named (R12). */
  const staff = (
    method: 'GET' | 'POST',
    payload?: Record<string, unknown>,
    role: keyof StaffBrowsers = 'admin',
  ) =>
    browsers[role].request({
      method,
      url: '/api/admin/prices',
      ...(payload === undefined
        ? {}
        : { payload: JSON.stringify({ requestKey: randomUUID(), ...payload }) }),
    });
  const scheduledByStaff = () =>
    t.app.db.select().from(prices).where(eq(prices.scheduledBy, browsers.admin.email));

  /** An active subscriber with a card at the sandbox gateway, billed on `due`. */
  async function subscriber(codes: TSubscriptionCode[], due = '2026-04-15', status = 'active') {
    counter += 1;
    const email = `prices${counter}@example.com`;
    const { user } = await createAccount(t, {
      email,
      accountStatus: status,
      withIdentity: false,
      subscriptions: codes,
    });
    await subscribeWithCard(t, {
      userId: user.id,
      email,
      codes,
      cycleAnchor: '2026-01-15',
      currentPeriodStart: '2026-03-15',
      currentPeriodEnd: due,
      now,
    });
    return { id: user.id, email };
  }

  it('the database starts with R3 table: every selection prices as before at every date', () => {
    const table = t.app.prices.table();
    const instants = [
      '2024-06-01T00:00:00Z',
      '2025-01-01T04:59:59.999Z',
      '2025-01-01T05:00:00Z',
      '2025-09-02T04:59:59Z',
      '2025-09-02T05:00:00Z',
      '2026-03-15T15:00:00Z',
    ];
    for (const at of instants) {
      for (let i = 0; i < SELECTABLE_CODES.length; i++) {
        const codes = SELECTABLE_CODES.filter((_, j) => (j * 7 + i) % 3 === 0);
        expect(quote(codes, new Date(at), table)).toEqual(
          quote(codes, new Date(at), R3_PRICE_TABLE),
        );
      }
    }
  });

  it('the page carries the table as a JSON data block (no request of its own), with no way out of the element', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/home' });
    const match = /<script[^>]*type="application\/json" id="dp-prices">([^<]*)<\/script>/.exec(
      page.body,
    );
    expect(match).not.toBeNull();
    const table = JSON.parse(match![1]!) as TPriceTable;
    expect(quote(['NADA', 'MMR', 'CF'], now, table)).toEqual(
      quote(['NADA', 'MMR', 'CF'], now, R3_PRICE_TABLE),
    );
    // A data block is not run: the page's CSP needs no hash or unsafe-inline for it.
    expect(page.headers['content-security-policy']).not.toContain('unsafe-inline');
  });

  it('every role reads the prices; only an admin schedules (R12)', async () => {
    for (const role of ['support', 'billing', 'admin'] as const) {
      expect((await staff('GET', undefined, role)).statusCode, role).toBe(200);
    }
    for (const role of ['support', 'billing'] as const) {
      const refused = await staff(
        'POST',
        { effectiveDate: '2026-06-01', prices: [{ item: 'KBB', cents: 7000 }] },
        role,
      );
      expect(refused.statusCode, role).toBe(403);
      expect(refused.json().code).toBe('STAFF_ROLE_REQUIRED');
    }
    expect(await t.app.db.select().from(prices).where(like(prices.scheduledBy, '%@%'))).toEqual([]);
  });

  it('the interim staff API and its token are gone (decision 026)', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/staff/prices',
      headers: { authorization: 'Bearer test-staff-token-abcdefghijklmnopqrstuvwxyz012345' },
    });
    expect(response.statusCode).toBe(404);
    expect('staffApiToken' in t.app.config).toBe(false);
  });

  it('validates the request and refuses a date less than 30 days ahead', async () => {
    for (const body of [
      { effectiveDate: '2026-06-01', prices: [] },
      { effectiveDate: '2026-06-31', prices: [{ item: 'KBB', cents: 7000 }] },
      { effectiveDate: '2026-06-01', prices: [{ item: 'KBB_S', cents: 7000 }] },
      { effectiveDate: '2026-06-01', prices: [{ item: 'KBB', cents: -1 }] },
    ]) {
      expect((await staff('POST', body)).statusCode, JSON.stringify(body)).toBe(400);
    }
    const tooSoon = await staff('POST', {
      effectiveDate: '2026-04-13',
      prices: [{ item: 'KBB', cents: 7000 }],
    });
    expect(tooSoon.statusCode).toBe(400);
    expect(tooSoon.json()).toMatchObject({
      code: 'PRICE_CHANGE_TOO_SOON',
      errors: [{ source: 'effectiveDate' }],
    });
    expect(await scheduledByStaff()).toEqual([]);
  });

  it('schedules: e-mails once every account whose monthly total changes, and renewals from the date pay the new price', async () => {
    const kbb = await subscriber(['KBB', 'NADA'], '2026-05-15');
    const unaffected = await subscriber(['NADA'], '2026-05-15');
    const inactive = await subscriber(['KBB'], '2026-05-15', 'inactive');
    const requestKey = randomUUID();
    const body = {
      effectiveDate: '2026-05-01',
      prices: [{ item: 'KBB', cents: 7200 }],
      requestKey,
    };
    const scheduled = await staff('POST', body);
    expect(scheduled.statusCode).toBe(201);
    expect(scheduled.json().data).toMatchObject({
      effectiveFrom: '2026-05-01T04:00:00.000Z',
      notified: 1,
    });
    // Audited (R12), by the admin's e-mail; a repeat of the request answers the same and adds nothing.
    const [audit] = await t.app.db
      .select()
      .from(staffAudit)
      .where(eq(staffAudit.requestKey, requestKey));
    expect(audit).toMatchObject({
      action: 'schedulePrice',
      staffEmail: browsers.admin.email,
      userId: null,
      after: { effectiveDate: '2026-05-01', notified: 1 },
    });
    expect(scheduled.json().data.auditId).toBe(audit!.id);
    const repeat = await staff('POST', body);
    expect(repeat.statusCode).toBe(201);
    expect(repeat.json()).toEqual(scheduled.json());
    expect(await scheduledByStaff()).toHaveLength(1);
    const mails = await t.app.db
      .select()
      .from(mailOutbox)
      .where(like(mailOutbox.subject, '%monthly price changes%'));
    expect(mails.map((mail) => mail.toAddress)).toEqual([kbb.email]);
    expect(mails[0]!.textBody).toContain('from $138.00 to $145.00');
    expect(mails[0]!.subject).toContain('May 01, 2026');
    expect(unaffected.id && inactive.id).toBeTruthy();

    // The same date again: nobody is told twice.
    const again = await staff('POST', {
      effectiveDate: '2026-05-01',
      prices: [{ item: 'KBB', cents: 7300 }],
    });
    expect(again.json().data.notified).toBe(0);
    expect(await t.app.db.select().from(priceChangeNotices)).toHaveLength(1);

    const list = await staff('GET', undefined, 'support');
    expect(list.json().data.prices.slice(0, 2)).toMatchObject([
      {
        item: 'KBB',
        cents: 7300,
        effectiveFrom: '2026-05-01T04:00:00.000Z',
        scheduledBy: browsers.admin.email,
      },
      { item: 'KBB', cents: 7200, effectiveFrom: '2026-05-01T04:00:00.000Z' },
    ]);
    // The change ahead: the accounts it moves today and the notices sent (one, to kbb).
    expect(list.json().data.scheduled).toEqual([
      {
        effectiveFrom: '2026-05-01T04:00:00.000Z',
        effectiveDate: '2026-05-01',
        rows: [expect.objectContaining({ cents: 7300 }), expect.objectContaining({ cents: 7200 })],
        accountsAffected: 1,
        noticesSent: 1,
      },
    ]);
    // An account that starts paying KBB after the notice went out is affected, and was not told.
    await subscriber(['KBB', 'MMR'], '2026-05-20');
    const later = await staff('GET', undefined, 'support');
    expect(later.json().data.scheduled[0]).toMatchObject({ accountsAffected: 2, noticesSent: 1 });

    // Before the date, a renewal pays the old price; from it, the new (the later row of the date).
    const early = await subscriber(['KBB'], '2026-04-20');
    now = new Date('2026-04-20T15:00:00Z');
    await runBilling({ ...t.app.deps.billing, now: () => now }, { userId: early.id });
    now = new Date('2026-05-15T15:00:00Z');
    await runBilling({ ...t.app.deps.billing, now: () => now }, { userId: kbb.id });
    const [earlyPaid] = await t.app.db.select().from(payments).where(eq(payments.userId, early.id));
    const [kbbPaid] = await t.app.db.select().from(payments).where(eq(payments.userId, kbb.id));
    expect(earlyPaid!.amountCents).toBe(6800);
    expect(kbbPaid!.amountCents).toBe(7300 + 7000 + 300);
  });
});

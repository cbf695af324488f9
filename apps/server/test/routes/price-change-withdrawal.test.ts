import { randomUUID } from 'node:crypto';
import { and, count, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TSubscriptionCode } from '@dealerpass/domain/catalogue';
import {
  mailOutbox,
  payments,
  priceChangeNotices,
  prices,
  staffAudit,
} from '../../src/db/schema.ts';
import { runBilling } from '../../src/services/billing/run-billing.ts';
import { seedDemoPromotions } from '../../src/services/demo/seed-demo-promotions.ts';
import { staffBrowsers, type StaffBrowsers } from '../factories/admin-fixtures.ts';
import { buildTestApp, type TestApp } from '../support/helper.ts';
import { subscribeWithCard } from '../factories/subscriber-factory.ts';
import { createAccount } from '../factories/sign-in.ts';
import { signupBody } from '../factories/signup-body.ts';

/**
 * Issue 25 item 7 (DECISIONS R11 amended, R12; docs/decisions/032): a price change is previewed
 * before it is scheduled, told only to accounts that will be billed at it, and can be withdrawn
 * until its date, which tells every account that was told.
 */
describe('price changes: preview, confirm, withdraw (R11 amended)', () => {
  let t: TestApp;
  let now = new Date('2026-03-15T15:00:00Z'); // 11:00 in New York
  let counter = 0;
  let browsers: StaffBrowsers;

  beforeAll(async () => {
    t = await buildTestApp({ now: () => now });
    browsers = await staffBrowsers(t);
    await seedDemoPromotions(t.app.db, now);
  });
  afterAll(() => t.close());

  const call = (
    url: string,
    payload?: Record<string, unknown>,
    role: keyof StaffBrowsers = 'admin',
  ) =>
    browsers[role].request({
      method: payload === undefined ? 'GET' : 'POST',
      url,
      ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
    });
  const keyed = (payload: Record<string, unknown>) => ({ requestKey: randomUUID(), ...payload });
  const counts = async () => ({
    prices: (await t.app.db.select({ n: count() }).from(prices))[0]!.n,
    notices: (await t.app.db.select({ n: count() }).from(priceChangeNotices))[0]!.n,
    mails: (await t.app.db.select({ n: count() }).from(mailOutbox))[0]!.n,
    audit: (await t.app.db.select({ n: count() }).from(staffAudit))[0]!.n,
  });
  const mailsLike = (subject: string) =>
    t.app.db
      .select({ to: mailOutbox.toAddress, subject: mailOutbox.subject, text: mailOutbox.textBody })
      .from(mailOutbox)
      .where(like(mailOutbox.subject, subject));

  /** A subscriber with a card at the sandbox gateway, its period ending (and billed) on `due`. */
  async function subscriber(
    codes: TSubscriptionCode[],
    due: string,
    fields: { status?: string; details?: string } = {},
  ) {
    counter += 1;
    const email = `withdraw${counter}@example.com`;
    const { user } = await createAccount(t, {
      email,
      accountStatus: fields.status ?? 'active',
      complimentary: fields.details === 'complimentary',
      withIdentity: false,
      subscriptions: codes,
      nextBillDate: due,
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

  const CHANGE = { effectiveDate: '2026-05-01', prices: [{ item: 'KBB', cents: 7200 }] };
  let active: { id: string; email: string };
  let endsAfter: { id: string; email: string };
  let signedUp: string;

  it('the preview and the withdrawal are an admin’s (R12)', async () => {
    for (const role of ['support', 'billing'] as const) {
      const preview = await call('/api/admin/prices/preview', CHANGE, role);
      expect(preview.statusCode, role).toBe(403);
      const withdrawal = await call(
        '/api/admin/prices/withdrawal',
        keyed({ effectiveDate: '2026-05-01', reason: 'Not this month' }),
        role,
      );
      expect(withdrawal.statusCode, role).toBe(403);
      expect(withdrawal.json().code).toBe('STAFF_ROLE_REQUIRED');
    }
  });

  it('previews: the accounts that will be billed at the new price and one sample notice; changes nothing', async () => {
    active = await subscriber(['KBB', 'NADA'], '2026-05-15');
    await subscriber(['KBB'], '2026-05-15', { details: 'complimentary' });
    // Pending cancel ends at its period's end: before the date, it is never billed at the new price.
    const endsBefore = await subscriber(['KBB'], '2026-04-15', { status: 'pending cancel' });
    endsAfter = await subscriber(['KBB'], '2026-05-15', { status: 'pending cancel' });
    await subscriber(['KBB'], '2026-05-15', { status: 'inactive' });
    await subscriber(['NADA'], '2026-05-15');

    const before = await counts();
    const preview = await call('/api/admin/prices/preview', CHANGE);
    expect(preview.statusCode, preview.body).toBe(200);
    const data = preview.json().data;
    expect(data).toMatchObject({
      effectiveDate: '2026-05-01',
      effectiveFrom: '2026-05-01T04:00:00.000Z',
      rows: [{ item: 'KBB', cents: 7200, from: '2026-05-01T04:00:00.000Z' }],
      accountsAffected: 2,
    });
    // The notice exactly as scheduling would send it, to one of the accounts it reaches.
    expect([active.email, endsAfter.email]).toContain(data.sampleNotice.to);
    expect(data.sampleNotice.subject).toBe(
      'DealerPass: your monthly price changes on May 01, 2026',
    );
    expect(data.sampleNotice.text).toMatch(/changes from \$(138|68)\.00 to \$(145|75)\.00/);
    expect(await counts()).toEqual(before);
    expect(endsBefore.id).toBeTruthy();

    const tooSoon = await call('/api/admin/prices/preview', {
      ...CHANGE,
      effectiveDate: '2026-04-13',
    });
    expect(tooSoon.statusCode).toBe(400);
    expect(tooSoon.json().code).toBe('PRICE_CHANGE_TOO_SOON');
  });

  it('confirmed, it tells exactly the accounts the preview counted; the list counts the same', async () => {
    const preview = (await call('/api/admin/prices/preview', CHANGE)).json().data;
    const scheduled = await call('/api/admin/prices', keyed(CHANGE));
    expect(scheduled.statusCode).toBe(201);
    expect(scheduled.json().data.notified).toBe(preview.accountsAffected);
    const told = await mailsLike('%monthly price changes%');
    expect(told.map((mail) => mail.to).sort()).toEqual([active.email, endsAfter.email].sort());
    expect(told.find((mail) => mail.to === preview.sampleNotice.to)).toMatchObject({
      subject: preview.sampleNotice.subject,
      text: preview.sampleNotice.text,
    });
    const list = (await call('/api/admin/prices', undefined, 'support')).json().data;
    expect(list.scheduled).toEqual([
      expect.objectContaining({
        effectiveDate: '2026-05-01',
        accountsAffected: 2,
        noticesSent: 2,
      }),
    ]);
  });

  it('a sign-up after the scheduling is told in its welcome e-mail and counted as told', async () => {
    signedUp = 'withdraw-signup@example.com';
    const browser = await t.browser();
    const response = await browser.request({
      method: 'POST',
      url: '/api/v2/signup',
      payload: {
        ...signupBody(signedUp, { subscriptions: ['KBB'], promoCode: 'FREEMONTH' }),
        recaptcha: await t.solveCaptcha(),
      },
    });
    expect(response.statusCode, response.body).toBe(201);
    const list = (await call('/api/admin/prices', undefined, 'support')).json().data;
    expect(list.scheduled[0]).toMatchObject({ accountsAffected: 3, noticesSent: 3 });
  });

  it('withdraws until its date: the rows leave the table, every account told is told again, audited', async () => {
    const requestKey = randomUUID();
    const body = { effectiveDate: '2026-05-01', reason: 'Announced by mistake', requestKey };
    const withdrawn = await call('/api/admin/prices/withdrawal', body);
    expect(withdrawn.statusCode, withdrawn.body).toBe(200);
    expect(withdrawn.json().data).toMatchObject({
      effectiveDate: '2026-05-01',
      effectiveFrom: '2026-05-01T04:00:00.000Z',
      rows: [{ item: 'KBB', cents: 7200 }],
      notified: 3,
    });
    const mails = await mailsLike('%is withdrawn');
    expect(mails.map((mail) => mail.to).sort()).toEqual(
      [active.email, endsAfter.email, signedUp].sort(),
    );
    expect(mails.find((mail) => mail.to === active.email)!.text).toContain(
      'from $138.00 to $145.00. That change is withdrawn',
    );
    expect(mails[0]!.subject).toBe('DealerPass: the price change of May 01, 2026 is withdrawn');
    const [audit] = await t.app.db
      .select()
      .from(staffAudit)
      .where(eq(staffAudit.requestKey, requestKey));
    expect(audit).toMatchObject({
      action: 'withdrawPrice',
      staffEmail: browsers.admin.email,
      userId: null,
      reason: 'Announced by mistake',
      before: { effectiveDate: '2026-05-01', rows: [{ item: 'KBB', cents: 7200 }] },
      after: { notified: 3 },
    });
    expect(withdrawn.json().data.auditId).toBe(audit!.id);
    expect(
      await t.app.db.select().from(prices).where(eq(prices.scheduledBy, browsers.admin.email)),
    ).toEqual([]);
    const list = (await call('/api/admin/prices', undefined, 'support')).json().data;
    expect(list.scheduled).toEqual([]);

    // A repeat of the request answers the same and tells nobody twice (R12, decision 026).
    const before = await counts();
    const repeat = await call('/api/admin/prices/withdrawal', body);
    expect(repeat.statusCode).toBe(200);
    expect(repeat.json()).toEqual(withdrawn.json());
    expect(await counts()).toEqual(before);
    // Another request for the same date finds nothing left to withdraw.
    const again = await call('/api/admin/prices/withdrawal', { ...body, requestKey: randomUUID() });
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('PRICE_CHANGE_NOT_WITHDRAWABLE');
    expect(await counts()).toEqual(before);

    // The renewal after the date pays the old price: the change is gone.
    now = new Date('2026-05-15T15:00:00Z');
    await runBilling({ ...t.app.deps.billing, now: () => now }, { userId: active.id });
    const [paid] = await t.app.db.select().from(payments).where(eq(payments.userId, active.id));
    expect(paid!.amountCents).toBe(6500 + 7000 + 300);
    now = new Date('2026-03-15T15:00:00Z');
  });

  it('a change that has taken effect, or does within 15 minutes, cannot be withdrawn', async () => {
    await call(
      '/api/admin/prices',
      keyed({ effectiveDate: '2026-04-20', prices: [{ item: 'APG', cents: 6600 }] }),
    );
    // Ten minutes before midnight in New York: too close (every instance must drop it first).
    now = new Date('2026-04-20T03:50:00Z');
    const close = await call(
      '/api/admin/prices/withdrawal',
      keyed({ effectiveDate: '2026-04-20', reason: 'Nearly too late' }),
    );
    expect(close.statusCode).toBe(409);
    now = new Date('2026-04-20T04:00:00Z'); // midnight in New York: in force
    const late = await call(
      '/api/admin/prices/withdrawal',
      keyed({ effectiveDate: '2026-04-20', reason: 'Too late now' }),
    );
    expect(late.statusCode).toBe(409);
    expect(late.json().code).toBe('PRICE_CHANGE_NOT_WITHDRAWABLE');
    expect(
      await t.app.db
        .select()
        .from(prices)
        .where(and(eq(prices.item, 'APG'), eq(prices.cents, 6600))),
    ).toHaveLength(1);
    now = new Date('2026-03-15T15:00:00Z');
  });
});

import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADJUST_SUBSCRIPTION_MESSAGES } from '@dealerpass/domain/admin/account-actions';
import {
  mailOutbox,
  payments,
  sandboxGatewayTransactions,
  subscriptions,
  users,
} from '../../src/db/schema.ts';
import { SESSION_COOKIE } from '../../src/plugins/session.ts';
import { issueSandboxToken } from '../../src/sandboxes/payments/sandbox-tokens.ts';
import {
  APPROVED_CARD,
  auditOf,
  consolePost,
  DECLINED_CARD,
  staffCookies,
} from '../factories/admin-fixtures.ts';
import { buildTestApp, type TestApp, type TestBrowser } from '../support/helper.ts';
import { createAccount, sessionFor } from '../factories/sign-in.ts';

const REASON = 'Dealer called the support line';

/**
 * "Adjust" (issue 28): billing staff change a dealer's selection on their behalf with the dealer's
 * own preview and rules (R10), charged to the card on file, nothing charged for a complimentary
 * account, audited with a reason, once per request key, the dealer's receipt e-mail sent.
 */
describe('operator console: a change on the dealer’s behalf', () => {
  let t: TestApp;
  let browser: TestBrowser;
  let staff: Awaited<ReturnType<typeof staffCookies>>;
  // 2026-03-25 11:00 in New York: the period 2026-03-10 → 2026-04-10 has 16 of 31 days left.
  const now = new Date('2026-03-25T15:00:00Z');
  let counter = 0;

  beforeAll(async () => {
    t = await buildTestApp({ now: () => now });
    browser = await t.browser();
    staff = await staffCookies(t);
  }, 60_000);
  afterAll(() => t.close());

  async function dealer(
    options: {
      codes?: string[];
      card?: string;
      complimentary?: boolean;
      noCard?: boolean;
      status?: string;
    } = {},
  ) {
    counter += 1;
    const email = `adjust${counter}-${now.getTime() % 1000}@example.com`;
    const codes = options.codes ?? ['NADA'];
    const { user } = await createAccount(t, {
      email,
      withIdentity: false,
      subscriptions: codes,
      accountStatus: options.status ?? 'active',
      complimentary: options.complimentary ?? false,
    });
    const token = await issueSandboxToken(
      t.app.db,
      {
        creditCardNumber: options.card ?? APPROVED_CARD,
        creditCardExpiration: '1230',
        creditCardCode: '123',
      },
      now,
    );
    const profile = await t.app.payments.createCustomerProfile({
      accountId: user.id,
      email,
      paymentToken: token.paymentToken,
    });
    if (!options.noCard) {
      await t.app.db
        .update(users)
        .set({ cardBrand: profile.card.brand, cardLast4: profile.card.last4 })
        .where(eq(users.id, user.id));
    }
    await t.app.db.insert(subscriptions).values({
      userId: user.id,
      codes,
      cycleAnchor: '2026-01-10',
      currentPeriodStart: '2026-03-10',
      currentPeriodEnd: '2026-04-10',
      gatewayCustomerId: options.noCard ? null : profile.customerProfileId,
      gatewayPaymentProfileId: options.noCard ? null : profile.paymentProfileId,
    });
    return { userId: user.id, email, paymentProfileId: profile.paymentProfileId };
  }

  const base = (userId: string) => `/api/admin/accounts/${userId}/subscription-change`;
  const preview = (cookie: string, userId: string, codes: string[]) =>
    t.app.inject({
      method: 'GET',
      url: `${base(userId)}?codes=${codes.join(',')}`,
      headers: { cookie: `${browser.cookie}; ${cookie}` },
    });
  const adjust = (
    userId: string,
    body: { codes: string[]; basedOn?: { codes: string[]; pendingRemovals: string[] } },
    options: { key?: string; cookie?: string; reason?: string } = {},
  ) =>
    consolePost(t, browser, options.cookie ?? staff.billing.cookie, base(userId), {
      requestKey: options.key ?? crypto.randomUUID(),
      codes: body.codes,
      basedOn: body.basedOn ?? { codes: ['NADA'], pendingRemovals: [] },
      reason: options.reason ?? REASON,
    });
  const selectionOf = async (userId: string) =>
    (await t.app.db.select().from(subscriptions).where(eq(subscriptions.userId, userId)))[0]!;
  const paymentsOf = (userId: string) =>
    t.app.db.select().from(payments).where(eq(payments.userId, userId));
  const mailsTo = (email: string) =>
    t.app.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, email));

  it('previews what the dealer’s own page previews (R10), for billing and admin only', async () => {
    const { userId } = await dealer();
    const response = await preview(staff.billing.cookie, userId, ['NADA', 'MMR']);
    expect(response.statusCode, response.body).toBe(200);
    // The dealer's page asks the same question of the dealer's route: the same figures.
    const own = await t.app.inject({
      method: 'GET',
      url: '/api/users/subscriptions/change?codes=NADA,MMR',
      headers: {
        cookie: `${browser.cookie}; ${SESSION_COOKIE}=${await sessionFor(t, userId, now)}`,
      },
    });
    expect(own.statusCode, own.body).toBe(200);
    expect(response.json().data).toEqual({ ...own.json().data, complimentary: false });
    // (138.00 − 73.00) × 16/31 = 33.548… → 33.55
    expect(response.json().data).toMatchObject({ chargeTodayCents: 3355, added: ['MMR'] });
    expect((await preview(staff.admin.cookie, userId, ['NADA', 'MMR'])).statusCode).toBe(200);
    expect((await preview(staff.support.cookie, userId, ['NADA', 'MMR'])).statusCode).toBe(403);
    expect(
      (await adjust(userId, { codes: ['NADA', 'MMR'] }, { cookie: staff.support.cookie }))
        .statusCode,
    ).toBe(403);
    expect(await paymentsOf(userId)).toHaveLength(0);
    expect((await preview(staff.billing.cookie, crypto.randomUUID(), ['NADA'])).statusCode).toBe(
      404,
    );
  });

  it('charges an addition to the card on file once per key, audited with its reason, the receipt e-mailed', async () => {
    const { userId, email } = await dealer();
    const requestKey = crypto.randomUUID();
    const first = await adjust(userId, { codes: ['NADA', 'MMR'] }, { key: requestKey });
    expect(first.statusCode, first.body).toBe(200);
    const data = first.json().data;
    expect(data).toMatchObject({
      outcome: 'charged',
      repeated: false,
      declineReason: null,
      change: { added: ['MMR'], chargeTodayCents: 3355 },
    });
    const paid = await paymentsOf(userId);
    expect(paid).toHaveLength(1);
    expect(paid[0]).toMatchObject({ amountCents: 3355 });
    expect(data.change.paymentId).toBe(paid[0]!.id);
    expect((await selectionOf(userId)).codes).toEqual(['NADA', 'MMR']);
    // The dealer's own change sends the receipt; so does this one.
    const mails = await mailsTo(email);
    expect(mails.map((mail) => mail.receiptPaymentId)).toEqual([paid[0]!.id]);
    // Audited: who, which account, what, before and after, the reason (R12).
    const audit = await auditOf(t, userId);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      action: 'adjustSubscription',
      staffEmail: staff.billing.email,
      reason: REASON,
      requestKey,
    });
    expect(audit[0]!.before).toMatchObject({ codes: ['NADA'], pendingRemovals: [] });
    expect(audit[0]!.after).toMatchObject({ added: ['MMR'], chargeTodayCents: 3355 });
    // The same request again (a double click, a lost answer): the first outcome, no second charge.
    const again = await adjust(userId, { codes: ['NADA', 'MMR'] }, { key: requestKey });
    expect(again.statusCode).toBe(200);
    expect(again.json().data).toMatchObject({
      outcome: 'charged',
      repeated: true,
      auditId: data.auditId,
    });
    expect(await paymentsOf(userId)).toHaveLength(1);
    expect(await auditOf(t, userId)).toHaveLength(1);
    // The key with another body is another intent: 409, nothing written.
    const reused = await adjust(userId, { codes: ['NADA', 'KBB'] }, { key: requestKey });
    expect(reused.statusCode).toBe(409);
    expect(reused.json().code).toBe('REQUEST_KEY_REUSED');
    // The timeline shows it.
    const timeline = await t.app.inject({
      method: 'GET',
      url: `/api/admin/accounts/${userId}/timeline`,
      headers: { cookie: `${browser.cookie}; ${staff.support.cookie}` },
    });
    expect(timeline.statusCode, timeline.body).toBe(200);
    const entries = timeline.json().data as { kind: string; summary: string }[];
    expect(entries.filter((entry) => entry.kind === 'staff')).toEqual([
      expect.objectContaining({
        summary: expect.stringContaining(
          'Subscriptions changed for the dealer (added Manheim Market Report; prorated charge $33.55)',
        ),
      }),
    ]);
  });

  it('says a decline is a decline: nothing changes, nothing is paid, the attempt is audited', async () => {
    const { userId, email } = await dealer({ card: DECLINED_CARD });
    const response = await adjust(userId, { codes: ['NADA', 'MMR'] });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data).toMatchObject({ outcome: 'declined' });
    expect(response.json().data.declineReason).toEqual(expect.any(String));
    expect((await selectionOf(userId)).codes).toEqual(['NADA']);
    expect(await paymentsOf(userId)).toHaveLength(0);
    expect(await mailsTo(email)).toHaveLength(0);
    expect(await auditOf(t, userId)).toHaveLength(1);
  });

  it('charges a complimentary account nothing, and changes it all the same', async () => {
    const { userId, paymentProfileId } = await dealer({ complimentary: true });
    const shown = await preview(staff.billing.cookie, userId, ['NADA', 'MMR']);
    expect(shown.json().data).toMatchObject({
      complimentary: true,
      chargeTodayCents: 0,
      nextBillCents: 0,
      cardRequired: false,
    });
    const response = await adjust(userId, { codes: ['NADA', 'MMR'] });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data).toMatchObject({ outcome: 'applied', change: { paymentId: null } });
    expect((await selectionOf(userId)).codes).toEqual(['NADA', 'MMR']);
    expect(await paymentsOf(userId)).toHaveLength(0);
    const charges = await t.app.db
      .select()
      .from(sandboxGatewayTransactions)
      .where(eq(sandboxGatewayTransactions.paymentProfileId, paymentProfileId));
    expect(charges).toEqual([]);
  });

  it('leaves a removal pending until the next bill date, charging nothing (R10)', async () => {
    const { userId } = await dealer({ codes: ['NADA', 'MMR'] });
    const response = await adjust(userId, {
      codes: ['NADA'],
      basedOn: { codes: ['NADA', 'MMR'], pendingRemovals: [] },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data).toMatchObject({
      outcome: 'applied',
      change: { removed: ['MMR'] },
    });
    const selection = await selectionOf(userId);
    expect(selection.codes).toEqual(['NADA', 'MMR']);
    expect(selection.pendingRemovals).toEqual(['MMR']);
    expect(selection.pendingRemovalsAt).toBe('2026-04-10');
  });

  it('refuses a change based on a selection the dealer changed meanwhile (409), charging nothing', async () => {
    const { userId } = await dealer();
    // The dealer adds MMR in their own window after the console's preview.
    const own = await t.app.inject({
      method: 'POST',
      url: '/api/users/subscriptions/change',
      headers: {
        cookie: `${browser.cookie}; ${SESSION_COOKIE}=${await sessionFor(t, userId, now)}`,
        'x-csrf-token': browser.token,
        'content-type': 'application/json',
      },
      payload: JSON.stringify({
        codes: ['NADA', 'MMR'],
        idempotencyKey: crypto.randomUUID(),
        basedOn: { codes: ['NADA'], pendingRemovals: [] },
      }),
    });
    expect(own.statusCode, own.body).toBe(200);
    const response = await adjust(userId, { codes: ['NADA', 'KBB'] });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({
      code: 'CHANGE_SELECTION_STALE',
      message: ADJUST_SUBSCRIPTION_MESSAGES.stale,
    });
    expect(await paymentsOf(userId)).toHaveLength(1);
    expect((await selectionOf(userId)).codes).toEqual(['NADA', 'MMR']);
    expect(await auditOf(t, userId)).toHaveLength(0);
  });

  it('refuses what R10 refuses, in the console’s words, writing nothing', async () => {
    const cancelling = await dealer({ status: 'pending cancel' });
    const refused = await adjust(cancelling.userId, { codes: ['NADA', 'MMR'] });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      code: 'ACTION_NOT_ALLOWED',
      message: ADJUST_SUBSCRIPTION_MESSAGES.notAllowed,
    });
    const noCard = await dealer({ noCard: true });
    const withoutCard = await adjust(noCard.userId, { codes: ['NADA', 'MMR'] });
    expect(withoutCard.statusCode).toBe(402);
    expect(withoutCard.json()).toMatchObject({
      code: 'CHANGE_CARD_REQUIRED',
      message: ADJUST_SUBSCRIPTION_MESSAGES.cardRequired,
    });
    const unchanged = await adjust(noCard.userId, { codes: ['NADA'] });
    expect(unchanged.statusCode).toBe(400);
    const missing = await adjust(crypto.randomUUID(), { codes: ['NADA', 'MMR'] });
    expect(missing.statusCode).toBe(404);
    const noReason = await consolePost(t, browser, staff.billing.cookie, base(noCard.userId), {
      requestKey: crypto.randomUUID(),
      codes: ['NADA'],
      basedOn: { codes: ['NADA'], pendingRemovals: [] },
    });
    expect(noReason.statusCode).toBe(400);
    for (const { userId } of [cancelling, noCard]) {
      expect(await auditOf(t, userId)).toHaveLength(0);
      expect(await paymentsOf(userId)).toHaveLength(0);
    }
    expect(t.conformanceFailures).toEqual([]);
  });
});

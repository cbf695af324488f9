import { spawnSync } from 'node:child_process';
import { and, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  billingPeriods,
  mailOutbox,
  payments,
  subscriptionChanges,
  subscriptions,
  users,
} from '../../src/db/schema.ts';
import { SESSION_COOKIE } from '../../src/plugins/session.ts';
import { getBalanceCents } from '../../src/services/billing/account-balance.ts';
import { changeSubscription } from '../../src/services/billing/change-subscription.ts';
import { runBilling } from '../../src/services/billing/run-billing.ts';
import { buildTestApp, type TestApp, type TestBrowser } from '../support/helper.ts';
import { subscribeWithCard } from '../factories/subscriber-factory.ts';
import { createAccount, sessionFor } from '../factories/sign-in.ts';
import { storedReceiptPdf } from '../support/stored-receipt.ts';

const APPROVED = '4111111111111111';
const DECLINED = '4000000000000002';
const URL = '/api/users/subscriptions/change';

const pdfText = (pdf: Buffer) =>
  spawnSync('/usr/bin/pdftotext', ['-', '-'], { input: pdf, encoding: 'latin1' }).stdout;

/** Subscription changes (DECISIONS R10, docs/decisions/024). */
describe('subscription changes (R10)', () => {
  let t: TestApp;
  let browser: TestBrowser;
  // 2026-03-25 11:00 in New York: the period 2026-03-10 → 2026-04-10 has 16 of 31 days left.
  let now = new Date('2026-03-25T15:00:00Z');
  let counter = 0;

  beforeAll(async () => {
    t = await buildTestApp({ now: () => now });
    browser = await t.browser();
  });
  afterAll(() => t.close());

  async function subscriber(
    options: {
      codes?: string[];
      card?: string;
      status?: string;
      details?: string;
      /** No card on file (a promotion covered the first month): no gateway profile. */
      noCard?: boolean;
    } = {},
  ) {
    counter += 1;
    const email = `change${counter}@example.com`;
    const codes = options.codes ?? ['NADA'];
    const { user } = await createAccount(t, {
      email,
      withIdentity: false,
      subscriptions: codes,
      accountStatus: options.status ?? 'active',
      complimentary: options.details === 'complimentary',
    });
    await subscribeWithCard(t, {
      userId: user.id,
      email,
      codes,
      cycleAnchor: '2026-01-10',
      currentPeriodStart: '2026-03-10',
      currentPeriodEnd: '2026-04-10',
      now,
      card: options.card ?? APPROVED,
      withoutProfileOnSubscription: options.noCard,
    });
    return { userId: user.id, session: await sessionFor(t, user.id, now), email };
  }

  const request = (method: 'GET' | 'POST', url: string, session: string, payload?: object) =>
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
  const preview = (session: string, codes: string[]) =>
    request('GET', `${URL}?codes=${codes.join(',')}`, session);
  /** The selection the change page shows (R10), which a change is based on. */
  const shownSelection = async (session: string) => {
    const state = await request('GET', '/api/users/subscriptions/pendingRemovals', session);
    if (state.statusCode !== 200) return { codes: [], pendingRemovals: [] };
    const data = state.json().data as { codes: string[]; current: { codes: string[] } };
    return { codes: data.current.codes, pendingRemovals: data.codes };
  };
  const change = async (
    session: string,
    codes: string[],
    key: string = crypto.randomUUID(),
    basedOn?: { codes: string[]; pendingRemovals: string[] },
  ) =>
    request('POST', URL, session, {
      codes,
      idempotencyKey: key,
      basedOn: basedOn ?? (await shownSelection(session)),
    });
  const subscriptionOf = async (userId: string) =>
    (await t.app.db.select().from(subscriptions).where(eq(subscriptions.userId, userId)))[0]!;
  const paymentsOf = (userId: string) =>
    t.app.db.select().from(payments).where(eq(payments.userId, userId));

  it('previews an addition: today prorated (R10), the next bill at the full new total', async () => {
    const { session } = await subscriber();
    const response = await preview(session, ['NADA', 'MMR']);
    expect(response.statusCode).toBe(200);
    // (138.00 − 73.00) × 16/31 = 33.548… → 33.55
    expect(response.json().data).toMatchObject({
      added: ['MMR'],
      removed: [],
      chargeTodayCents: 3355,
      daysLeft: 16,
      daysInPeriod: 31,
      currentMonthlyCents: 7300,
      nextBillCents: 13800,
      nextBillDate: '2026-04-10',
      allowance: 'any',
    });
  });

  it('validates every field with the domain schema', async () => {
    const { session } = await subscriber();
    for (const codes of [['GALVES_S', 'GALVES'], ['BOGUS'], ['KBB_S'], ['NADA', 'NADA']]) {
      expect((await change(session, codes)).statusCode, codes.join()).toBe(400);
      expect((await preview(session, codes)).statusCode, codes.join()).toBe(400);
    }
    const badKey = await request('POST', URL, session, {
      codes: ['NADA', 'MMR'],
      idempotencyKey: 'x',
    });
    expect(badKey.statusCode).toBe(400);
    const extra = await request('POST', URL, session, {
      codes: ['NADA', 'MMR'],
      idempotencyKey: crypto.randomUUID(),
      basedOn: { codes: ['NADA'], pendingRemovals: [] },
      amount: 0,
    });
    expect(extra.statusCode).toBe(400);
    const none = await change(session, ['NADA']);
    expect(none.statusCode).toBe(400);
    expect(none.json().errors[0].source).toBe('codes');
    // A change never leaves nothing to pay for: every subscription stops by cancelling (R4).
    for (const empty of [await change(session, []), await preview(session, [])]) {
      expect(empty.statusCode).toBe(400);
      expect(empty.json().errors[0]).toMatchObject({
        source: 'codes',
        message: 'At least one subscription is required.',
      });
    }
  });

  it('charges an addition at once, exactly once per key: payment, receipt with the prorated line and period, e-mail, balance', async () => {
    const { userId, session, email } = await subscriber();
    const key = crypto.randomUUID();
    // A resend (a lost answer, a double click) is the same request: the same body and key.
    const shown = await shownSelection(session);
    const first = await change(session, ['NADA', 'MMR'], key, shown);
    expect(first.statusCode).toBe(200);
    expect(first.json().data).toMatchObject({ chargeTodayCents: 3355, added: ['MMR'] });
    const again = await change(session, ['NADA', 'MMR'], key, shown);
    expect(again.json()).toEqual(first.json());
    const paid = await paymentsOf(userId);
    expect(paid).toHaveLength(1);
    expect(paid[0]!.amountCents).toBe(3355);
    expect(first.json().data.paymentId).toBe(paid[0]!.id);
    // Dated by the application's clock, as the charge's lease is counted against it.
    const [recorded] = await t.app.db
      .select()
      .from(subscriptionChanges)
      .where(eq(subscriptionChanges.idempotencyKey, key));
    expect(recorded!.createdAt).toEqual(now);
    expect(paid[0]!.createdAt).toEqual(now);
    const text = pdfText(await storedReceiptPdf(t, paid[0]!.receiptPdf));
    expect(text).toContain('Prorated: Manheim Market Report (16 of 31 days)');
    expect(text).toContain('Mar 25, 2026');
    expect(text).toContain('Apr 09, 2026');
    expect(text).toContain('$33.55');
    expect(await getBalanceCents(t.app.db, userId)).toBe(0);
    const [mail] = await t.app.db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.toAddress, email), like(mailOutbox.subject, '%receipt%')));
    expect(mail!.textBody).toContain('We charged $33.55');
    expect(mail!.receiptPaymentId).toBe(paid[0]!.id);
    expect((await subscriptionOf(userId)).codes).toEqual(['NADA', 'MMR']);
    const [user] = await t.app.db.select().from(users).where(eq(users.id, userId));
    expect(user!.subscriptions).toEqual(['NADA', 'MMR']);
  });

  it('a declined prorated charge changes nothing and answers the transaction message', async () => {
    const { userId, session } = await subscriber({ card: DECLINED });
    const key = crypto.randomUUID();
    const response = await change(session, ['NADA', 'KBB'], key);
    expect(response.statusCode).toBe(402);
    expect(response.json()).toMatchObject({
      code: 'CHANGE_DECLINED',
      message: 'The transaction was not successful. Please try again or contact Customer Support.',
    });
    expect((await subscriptionOf(userId)).codes).toEqual(['NADA']);
    expect(await paymentsOf(userId)).toEqual([]);
    expect(await getBalanceCents(t.app.db, userId)).toBe(0);
    expect((await change(session, ['NADA', 'KBB'], key)).statusCode).toBe(402);
  });

  it('a second paid item that makes extras free charges nothing', async () => {
    const { userId, session } = await subscriber({ codes: ['NADA', 'CF', 'AC'] });
    const response = await change(session, ['NADA', 'MMR', 'CF', 'AC']);
    expect(response.statusCode).toBe(200);
    expect(response.json().data.chargeTodayCents).toBe(0);
    expect(await paymentsOf(userId)).toEqual([]);
    expect((await subscriptionOf(userId)).codes).toEqual(['NADA', 'MMR', 'CF', 'AC']);
  });

  it('a removal waits for the next bill date, can be undone, and the bill date charges the new selection', async () => {
    const { userId, session } = await subscriber({ codes: ['NADA', 'KBB'] });
    const removed = await change(session, ['NADA']);
    expect(removed.statusCode).toBe(200);
    expect(removed.json().data).toMatchObject({
      removed: ['KBB'],
      chargeTodayCents: 0,
      nextBillCents: 7300,
      nextBillDate: '2026-04-10',
    });
    expect(await subscriptionOf(userId)).toMatchObject({
      codes: ['NADA', 'KBB'],
      pendingRemovals: ['KBB'],
      pendingRemovalsAt: '2026-04-10',
    });
    const pending = await request('GET', '/api/users/subscriptions/pendingRemovals', session);
    expect(pending.json().data).toEqual({
      codes: ['KBB'],
      takeEffectOn: '2026-04-10',
      current: { codes: ['NADA', 'KBB'], autoExtras: [] },
    });

    const undone = await request('POST', '/api/users/subscriptions/pendingRemovals/undo', session, {
      code: 'KBB',
    });
    expect(undone.statusCode).toBe(200);
    expect((await subscriptionOf(userId)).pendingRemovals).toEqual([]);
    expect(
      (
        await request('POST', '/api/users/subscriptions/pendingRemovals/undo', session, {
          code: 'KBB',
        })
      ).statusCode,
    ).toBe(400);

    expect((await change(session, ['NADA'])).statusCode).toBe(200);
    const saved = now;
    now = new Date('2026-04-10T15:00:00Z');
    try {
      await runBilling({ ...t.app.deps.billing, now: () => now }, { userId });
    } finally {
      now = saved;
    }
    const paid = await paymentsOf(userId);
    expect(paid.map((payment) => payment.amountCents)).toEqual([7300]);
    expect(await subscriptionOf(userId)).toMatchObject({ codes: ['NADA'], pendingRemovals: [] });
  });

  it('a simulcast removed alone is pending, shown, and not billed from the bill date while its base is', async () => {
    const { userId, session } = await subscriber({ codes: ['NADA', 'NADA_S'] });
    const removed = await change(session, ['NADA']);
    expect(removed.json().data).toMatchObject({ removed: ['NADA_S'], nextBillDate: '2026-04-10' });
    const pending = await request('GET', '/api/users/subscriptions/pendingRemovals', session);
    expect(pending.json().data).toMatchObject({ codes: ['NADA_S'], takeEffectOn: '2026-04-10' });
    const saved = now;
    now = new Date('2026-04-10T15:00:00Z');
    try {
      await runBilling({ ...t.app.deps.billing, now: () => now }, { userId });
    } finally {
      now = saved;
    }
    const [bill] = await paymentsOf(userId);
    expect(bill?.amountCents).toBe(7300);
    expect(await subscriptionOf(userId)).toMatchObject({ codes: ['NADA'], pendingRemovals: [] });
  });

  it('an addition on the bill date, before the run, does not postpone a removal waiting for that date', async () => {
    const { userId, session } = await subscriber({ codes: ['NADA', 'MMR'] });
    expect((await change(session, ['NADA'])).json().data).toMatchObject({
      removed: ['MMR'],
      nextBillDate: '2026-04-10',
    });
    const saved = now;
    now = new Date('2026-04-10T13:00:00Z'); // the bill date, the run not yet through
    try {
      const added = await change(await sessionFor(t, userId, now), ['NADA', 'KBB']);
      expect(added.statusCode).toBe(200);
      expect(added.json().data).toMatchObject({ removed: ['MMR'], nextBillDate: '2026-04-10' });
      expect(await subscriptionOf(userId)).toMatchObject({
        pendingRemovals: ['MMR'],
        pendingRemovalsAt: '2026-04-10',
      });
      await runBilling({ ...t.app.deps.billing, now: () => now }, { userId });
    } finally {
      now = saved;
    }
    const [renewal] = await t.app.db
      .select()
      .from(billingPeriods)
      .where(and(eq(billingPeriods.userId, userId), eq(billingPeriods.kind, 'renewal')));
    const codes = (renewal!.quote as { lines: { code: string }[] }).lines.map((line) => line.code);
    expect(codes).toContain('KBB');
    expect(codes).not.toContain('MMR');
    expect(await subscriptionOf(userId)).toMatchObject({
      codes: ['NADA', 'KBB'],
      pendingRemovals: [],
    });
  });

  it('access by status (R10): validating payment removes only; pending cancel, complimentary and inactive are refused', async () => {
    const validating = await subscriber({ codes: ['NADA', 'KBB'], status: 'validating payment' });
    expect((await change(validating.session, ['NADA', 'KBB', 'MMR'])).statusCode).toBe(403);
    const removal = await change(validating.session, ['NADA']);
    expect(removal.statusCode).toBe(200);
    expect(removal.json().data.allowance).toBe('removalsOnly');

    const pendingCancel = await subscriber({ status: 'pending cancel' });
    const refused = await change(pendingCancel.session, ['NADA', 'MMR']);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('CHANGE_NOT_ALLOWED');
    expect((await preview(pendingCancel.session, ['NADA'])).json().code).toBe('CHANGE_NOT_ALLOWED');

    const complimentary = await subscriber({ details: 'complimentary' });
    expect((await change(complimentary.session, ['NADA', 'MMR'])).statusCode).toBe(403);

    const inactive = await subscriber({ status: 'inactive' });
    const closed = await change(inactive.session, ['NADA', 'MMR']);
    expect(closed.statusCode).toBe(403);
    expect(closed.json().code).toBe('ACCOUNT_INACTIVE');
    for (const account of [pendingCancel, complimentary, inactive]) {
      expect((await subscriptionOf(account.userId)).codes).toEqual(['NADA']);
    }
  });

  it('a second change while the first one’s charge is at the gateway is refused (409), and the first charges once', async () => {
    const { userId } = await subscriber();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const real = t.app.payments;
    const deps = {
      ...t.app.deps.billing,
      now: () => now,
      payments: {
        ...real,
        charge: async (input: Parameters<typeof real.charge>[0]) => {
          await gate;
          return real.charge(input);
        },
      },
    };
    const basedOn = { codes: ['NADA'], pendingRemovals: [] };
    const first = changeSubscription(deps, userId, {
      codes: ['NADA', 'MMR'],
      idempotencyKey: crypto.randomUUID(),
      basedOn,
    });
    // Wait until the first change is committed as in flight, its charge held at the gateway.
    for (let i = 0; i < 200; i++) {
      const rows = await t.app.db
        .select()
        .from(subscriptionChanges)
        .where(
          and(eq(subscriptionChanges.userId, userId), eq(subscriptionChanges.status, 'charging')),
        );
      if (rows.length > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await expect(
      changeSubscription(deps, userId, {
        codes: ['NADA', 'KBB'],
        idempotencyKey: crypto.randomUUID(),
        basedOn,
      }),
    ).rejects.toMatchObject({ code: 'CHANGE_IN_PROGRESS', statusCode: 409 });
    release();
    expect((await first).chargeTodayCents).toBe(3355);
    expect((await paymentsOf(userId)).map((payment) => payment.amountCents)).toEqual([3355]);
    expect((await subscriptionOf(userId)).codes).toEqual(['NADA', 'MMR']);
  });

  it('409 while another change is in flight; after its lease, the next request finishes it with its own key', async () => {
    const { userId, session } = await subscriber();
    const today = '2026-03-25';
    const changeId = crypto.randomUUID();
    const sub = await subscriptionOf(userId);
    // A change whose request stopped after its period was opened, before its charge was recorded.
    const [period] = await t.app.db
      .insert(billingPeriods)
      .values({
        userId,
        kind: 'change',
        periodStart: today,
        periodEnd: '2026-04-10',
        amountCents: 3355,
        quote: {
          lines: [
            {
              code: 'PRORATED',
              name: 'Prorated: Manheim Market Report (16 of 31 days)',
              cents: 3355,
              listCents: 3355,
              free: false,
            },
          ],
          subtotalCents: 3355,
          platformFeeCents: 0,
          totalCents: 3355,
        },
        idempotencyKey: `change:${changeId}`,
        gatewayCustomerId: sub.gatewayCustomerId,
        gatewayPaymentProfileId: sub.gatewayPaymentProfileId,
        cardBrand: 'visa',
        cardLast4: '1111',
      })
      .returning();
    const firstKey = crypto.randomUUID();
    await t.app.db.insert(subscriptionChanges).values({
      id: changeId,
      userId,
      idempotencyKey: firstKey,
      status: 'charging',
      codesBefore: ['NADA'],
      codesRequested: ['NADA', 'MMR'],
      amountCents: 3355,
      billingPeriodId: period!.id,
      createdAt: now,
      result: {
        ...(await preview(session, ['NADA', 'MMR'])).json().data,
        changeId,
        paymentId: null,
      },
    });
    const busy = await change(session, ['NADA', 'KBB']);
    expect(busy.statusCode).toBe(409);
    expect(busy.json().code).toBe('CHANGE_IN_PROGRESS');
    expect(await paymentsOf(userId)).toEqual([]);

    now = new Date(now.getTime() + 2 * 60_000);
    const shown = await shownSelection(session);
    const resumed = await change(session, ['NADA', 'MMR'], firstKey, shown);
    expect(resumed.statusCode).toBe(200);
    expect((await paymentsOf(userId)).map((payment) => payment.amountCents)).toEqual([3355]);
    expect((await subscriptionOf(userId)).codes).toEqual(['NADA', 'MMR']);
    const repeat = await change(session, ['NADA', 'MMR'], firstKey, shown);
    expect(repeat.json()).toEqual(resumed.json());
    expect(await paymentsOf(userId)).toHaveLength(1);
  });
  it('a change based on a selection another window changed since is refused (409) and changes nothing', async () => {
    const { userId, session } = await subscriber();
    const olderTab = await shownSelection(session);
    // Window A adds AuctionNet and is charged for it.
    const added = await change(session, ['NADA', 'ANET']);
    expect(added.statusCode).toBe(200);
    // Window B, opened before, still shows NADA alone and adds PMR: as computed against what the
    // account holds now, it would leave AuctionNet pending removal.
    const stale = await request('POST', URL, session, {
      codes: ['NADA', 'PMR'],
      idempotencyKey: crypto.randomUUID(),
      basedOn: olderTab,
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({
      code: 'CHANGE_SELECTION_STALE',
      message: expect.stringContaining(
        'Your subscriptions changed in another window; review the change.',
      ),
    });
    expect(await subscriptionOf(userId)).toMatchObject({
      codes: ['NADA', 'ANET'],
      pendingRemovals: [],
    });
    expect(await paymentsOf(userId)).toHaveLength(1);
    // Reviewed against what the account holds now, the same change goes through.
    const reviewed = await change(session, ['NADA', 'ANET', 'PMR']);
    expect(reviewed.statusCode).toBe(200);
    expect(reviewed.json().data).toMatchObject({ added: ['PMR'], removed: [] });
  });

  it('with no card on file, a change that charges today says a card is needed first (402), and charges nothing', async () => {
    const { userId, session } = await subscriber({ noCard: true });
    const shown = await preview(session, ['NADA', 'MMR']);
    expect(shown.json().data).toMatchObject({ chargeTodayCents: 3355, cardRequired: true });
    const refused = await change(session, ['NADA', 'MMR']);
    expect(refused.statusCode).toBe(402);
    expect(refused.json()).toMatchObject({
      code: 'CHANGE_CARD_REQUIRED',
      message: expect.stringContaining('no card on file'),
    });
    expect(await paymentsOf(userId)).toEqual([]);
    expect((await subscriptionOf(userId)).codes).toEqual(['NADA']);
    // Nothing to charge today needs no card.
    const { session: two } = await subscriber({ codes: ['NADA', 'MMR'], noCard: true });
    expect((await preview(two, ['NADA'])).json().data.cardRequired).toBe(false);
    expect((await change(two, ['NADA'])).statusCode).toBe(200);
  });

  it('the preview lists every addition with its monthly price, extras that two paid items make free as free', async () => {
    const { session } = await subscriber();
    // Ticking a second paid item ticks the extras too (R3): they are added, free.
    const response = await preview(session, ['NADA', 'MMR', 'CF', 'AC']);
    expect(response.statusCode).toBe(200);
    expect(response.json().data.additions).toEqual([
      { code: 'MMR', monthlyCents: 6500, free: false },
      { code: 'CF', monthlyCents: 0, free: true },
      { code: 'AC', monthlyCents: 0, free: true },
    ]);
    expect(response.json().data.cardRequired).toBe(false);
    const alone = await preview(session, ['NADA', 'CF']);
    expect(alone.json().data.additions).toEqual([{ code: 'CF', monthlyCents: 5500, free: false }]);
  });
});

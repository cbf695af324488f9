import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_STATUS } from '@dealerpass/domain/account/status';
import { billingPeriods, invoices, mailOutbox, subscriptions, users } from '../../src/db/schema.ts';
import { issueSandboxToken } from '../../src/sandboxes/payments/sandbox-tokens.ts';
import { SESSION_COOKIE } from '../../src/plugins/session.ts';
import { requestAnnualBilling } from '../../src/services/annual-billing/request-annual-billing.ts';
import {
  changeSubscription,
  previewSubscriptionChange,
} from '../../src/services/billing/change-subscription.ts';
import { undoPendingRemoval } from '../../src/services/billing/changes/pending-removals.ts';
import { runBilling } from '../../src/services/billing/run-billing.ts';
import { consolePost } from '../factories/admin-fixtures.ts';
import { annualDealer } from '../factories/annual-fixtures.ts';
import { staffSessionFor } from '../factories/staff-sign-in.ts';
import { sessionFor } from '../factories/sign-in.ts';
import { BILLING_ADDRESS } from '../factories/subscriber-factory.ts';
import { buildTestApp, type TestApp, type TestBrowser } from '../support/helper.ts';

const NOW = new Date('2026-03-10T15:00:00Z');
const TODAY = '2026-03-10';
const PREVIOUS = '2026-02-10';
const at = (date: string) => new Date(`${date}T15:00:00Z`);
const key = () => crypto.randomUUID();
// NADA 70 + MMR 65 + the 3-dollar fee = 138 a month: 1,490.40 a year with 10 % off (R14).
const ANNUAL_CENTS = 149_040;
// With KBB (65): 203 a month, 2,436 a year, 2,192.40 with the discount.
const WITH_KBB_CENTS = 219_240;
// NADA alone: 73 a month, 876 a year, 788.40 with the discount.
const NADA_ALONE_CENTS = 78_840;
// MMR at 75 from the change: 148 a month, 1,776 a year, 1,598.40 with the discount.
const MMR_AT_75_CENTS = 159_840;

/**
 * An open annual invoice always asks for what its year will bill (R14, decision 052): a change
 * of the selection (the dealer's, staff's Adjust, an undone removal) or of the prices in force at
 * the year's start (a price change scheduled or withdrawn) voids it and issues a new one with the
 * new figures, e-mailed, in the same transaction; a check is recorded only for the new total. And
 * R11's notice tells a dealer billed annually by check about the year, not a monthly card charge.
 */
describe('annual invoices follow the selection and the prices of their year', () => {
  let t: TestApp;
  let browser: TestBrowser;
  let now = NOW;

  beforeAll(async () => {
    t = await buildTestApp({ now: () => now });
    browser = await t.browser();
  }, 60_000);
  afterAll(() => t.close());

  const fresh = (options: { invoice?: boolean; codes?: string[] } = {}) =>
    annualDealer(t, { now: NOW, today: TODAY, previous: PREVIOUS, ...options });
  const staffNow = async (role: 'billing' | 'admin') =>
    (await staffSessionFor(t, role, { now })).cookie;
  const post = async (role: 'billing' | 'admin', url: string, body: object) =>
    consolePost(t, browser, await staffNow(role), url, body);
  const invoicesOf = (userId: string) =>
    t.app.db
      .select()
      .from(invoices)
      .where(eq(invoices.userId, userId))
      .orderBy(asc(invoices.number));
  const mailsTo = (email: string) =>
    t.app.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, email));
  const recordCheck = (userId: string, invoiceId: string, amountCents: number) =>
    post('billing', `/api/admin/accounts/${userId}/invoices/${invoiceId}/check`, {
      requestKey: key(),
      checkNumber: '2468',
      amountCents,
      receivedOn: TODAY,
    });
  const sequenceOf = (number: string) => Number(number.split('-')[2]);

  it('the dealer adds an item: the open invoice is voided and a new one issued for the new selection, in one e-mail; a check is recorded only for the new total', async () => {
    const { user, invoice } = await fresh({ invoice: true });
    expect(invoice!.totalCents).toBe(ANNUAL_CENTS);
    // The preview says so before the change is confirmed.
    const preview = await previewSubscriptionChange(t.app.deps.billing, user.id, [
      'NADA',
      'MMR',
      'KBB',
    ]);
    expect(preview.annualInvoice).toEqual({
      number: invoice!.number,
      totalCents: ANNUAL_CENTS,
      newTotalCents: WITH_KBB_CENTS,
    });
    const result = await changeSubscription(t.app.deps.billing, user.id, {
      codes: ['NADA', 'MMR', 'KBB'],
      idempotencyKey: key(),
      basedOn: { codes: ['NADA', 'MMR'], pendingRemovals: [] },
    });
    expect(result.paymentId).not.toBeNull();

    const [voided, issued] = await invoicesOf(user.id);
    expect(voided).toMatchObject({ id: invoice!.id, status: 'void', voidedBy: 'replaced' });
    expect(voided!.voidReason).toContain(issued!.number);
    expect(issued).toMatchObject({
      status: 'open',
      kind: 'request',
      periodStart: '2026-04-10',
      periodEnd: '2027-04-09',
      dueOn: '2026-04-10',
      totalCents: WITH_KBB_CENTS,
    });
    expect(issued!.codes).toEqual(expect.arrayContaining(['NADA', 'MMR', 'KBB']));
    // The next number: no gap, none twice.
    expect(sequenceOf(issued!.number)).toBe(sequenceOf(voided!.number) + 1);

    const told = (await mailsTo(user.email)).filter((mail) => mail.invoiceId === issued!.id);
    expect(told).toHaveLength(1);
    expect(told[0]!.subject).toContain(
      `invoice ${issued!.number} replaces invoice ${voided!.number}`,
    );
    expect(told[0]!.textBody).toContain('Your subscriptions changed');
    expect(told[0]!.textBody).toContain('$2,192.40');
    expect(told[0]!.textBody).toContain(`Please do not pay invoice ${voided!.number}.`);

    const old = await recordCheck(user.id, voided!.id, ANNUAL_CENTS);
    expect(old.json().code).toBe('INVOICE_NOT_OPEN');
    const short = await recordCheck(user.id, issued!.id, ANNUAL_CENTS);
    expect(short.statusCode).toBe(409);
    expect(short.json().code).toBe('CHECK_AMOUNT_MISMATCH');
    expect(short.json().message).toContain('$2,192.40');
    const paid = await recordCheck(user.id, issued!.id, WITH_KBB_CENTS);
    expect(paid.statusCode, paid.body).toBe(200);
  });

  it('staff remove an item for the dealer (Adjust) and the dealer undoes it: the invoice follows each time', async () => {
    const { user, invoice } = await fresh({ invoice: true });
    const preview = await t.app.inject({
      method: 'GET',
      url: `/api/admin/accounts/${user.id}/subscription-change?codes=NADA`,
      headers: { cookie: `${browser.cookie}; ${await staffNow('billing')}` },
    });
    expect(preview.json().data.annualInvoice).toEqual({
      number: invoice!.number,
      totalCents: ANNUAL_CENTS,
      newTotalCents: NADA_ALONE_CENTS,
    });
    const adjusted = await post('billing', `/api/admin/accounts/${user.id}/subscription-change`, {
      requestKey: key(),
      codes: ['NADA'],
      basedOn: { codes: ['NADA', 'MMR'], pendingRemovals: [] },
      reason: 'Dealer asked by phone',
    });
    expect(adjusted.statusCode, adjusted.body).toBe(200);
    // The removal waits for the next bill date, 2026-04-10, the year's first day: out of the year.
    let all = await invoicesOf(user.id);
    expect(all.map((row) => [row.status, row.totalCents])).toEqual([
      ['void', ANNUAL_CENTS],
      ['open', NADA_ALONE_CENTS],
    ]);

    await undoPendingRemoval(t.app.deps.billing, user.id, 'MMR');
    all = await invoicesOf(user.id);
    expect(all.map((row) => [row.status, row.totalCents])).toEqual([
      ['void', ANNUAL_CENTS],
      ['void', NADA_ALONE_CENTS],
      ['open', ANNUAL_CENTS],
    ]);
    expect(all[0]!.id).toBe(invoice!.id);
    const replaced = (await mailsTo(user.email)).filter((mail) =>
      mail.subject.includes('replaces invoice'),
    );
    expect(replaced).toHaveLength(2);
    const [selection] = await t.app.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.userId, user.id));
    expect(selection!.pendingRemovals).toEqual([]);
  });

  it('asks for the selection in force at the year’s start: a removal pending until then is out of the invoice from the request on', async () => {
    const { user } = await fresh();
    await changeSubscription(t.app.deps.billing, user.id, {
      codes: ['NADA'],
      idempotencyKey: key(),
      basedOn: { codes: ['NADA', 'MMR'], pendingRemovals: [] },
    });
    const view = await requestAnnualBilling(t.app.db, t.app.deps.billing, {
      userId: user.id,
      now,
      body: { requestKey: key() },
      params: {},
    });
    const [invoice] = await invoicesOf(user.id);
    expect(invoice!.id).toBe(view.id);
    expect(invoice!.totalCents).toBe(NADA_ALONE_CENTS);
    expect(invoice!.codes).toEqual(['NADA']);
  });

  it('a price change scheduled before the year’s start reprices the open invoice: the notice tells of the annual amount and carries the new invoice; its withdrawal puts the invoice back', async () => {
    const { user, invoice } = await fresh({ invoice: true });
    const scheduled = await post('admin', '/api/admin/prices', {
      requestKey: key(),
      effectiveDate: '2026-04-09',
      prices: [{ item: 'MMR', cents: 7500 }],
    });
    expect(scheduled.statusCode, scheduled.body).toBe(201);
    let all = await invoicesOf(user.id);
    expect(all.map((row) => [row.status, row.totalCents])).toEqual([
      ['void', ANNUAL_CENTS],
      ['open', MMR_AT_75_CENTS],
    ]);
    const repriced = all[1]!;
    const notices = (await mailsTo(user.email)).filter((mail) =>
      mail.subject.includes('annual invoice changes'),
    );
    expect(notices).toHaveLength(1);
    const notice = notices[0]!;
    expect(notice.invoiceId).toBe(repriced.id);
    expect(notice.textBody).toContain(`invoice ${invoice!.number} ($1,490.40) is void`);
    expect(notice.textBody).toContain(`invoice ${repriced.number} replaces it: $1,598.40`);
    // Not a monthly card charge: the year by check is what the dealer is told about.
    expect(notice.textBody).not.toContain('Your first bill on or after that date');
    // One e-mail for the change: no second one for the invoice alone.
    expect(
      (await mailsTo(user.email)).filter((mail) => mail.invoiceId === repriced.id),
    ).toHaveLength(1);

    const short = await recordCheck(user.id, repriced.id, ANNUAL_CENTS);
    expect(short.json().code).toBe('CHECK_AMOUNT_MISMATCH');

    const withdrawn = await post('admin', '/api/admin/prices/withdrawal', {
      requestKey: key(),
      effectiveDate: '2026-04-09',
      reason: 'Announced by mistake',
    });
    expect(withdrawn.statusCode, withdrawn.body).toBe(200);
    all = await invoicesOf(user.id);
    expect(all.map((row) => [row.status, row.totalCents])).toEqual([
      ['void', ANNUAL_CENTS],
      ['void', MMR_AT_75_CENTS],
      ['open', ANNUAL_CENTS],
    ]);
    const back = all[2]!;
    const withdrawal = (await mailsTo(user.email)).find((mail) =>
      mail.subject.includes('is withdrawn'),
    );
    expect(withdrawal?.invoiceId).toBe(back.id);
    expect(withdrawal?.textBody).toContain(`invoice ${back.number} replaces it: $1,490.40`);
    const paid = await recordCheck(user.id, back.id, ANNUAL_CENTS);
    expect(paid.statusCode, paid.body).toBe(200);
  });

  it('a price change during a year paid by check: nothing is billed at it until the renewal invoice, and the notice says so', async () => {
    const { user, invoice } = await fresh({ invoice: true });
    expect((await recordCheck(user.id, invoice!.id, ANNUAL_CENTS)).statusCode).toBe(200);
    now = at('2026-04-10');
    await runBilling(t.app.deps.billing);
    now = at('2026-06-01');
    const scheduled = await post('admin', '/api/admin/prices', {
      requestKey: key(),
      effectiveDate: '2026-08-01',
      prices: [{ item: 'MMR', cents: 7500 }],
    });
    expect(scheduled.statusCode, scheduled.body).toBe(201);
    const notices = (await mailsTo(user.email)).filter((mail) =>
      mail.subject.includes('prices change on'),
    );
    expect(notices).toHaveLength(1);
    const text = notices[0]!.textBody;
    expect(text).toContain('changes from $138.00 to $148.00');
    expect(text).toContain('paid through Apr 09, 2027');
    expect(text).toContain('nothing is billed at the new prices before that year ends');
    expect(text).toContain('from the year starting Apr 10, 2027: $1,598.40 a year');
    expect(text).toContain('(now $1,490.40)');
    expect(text).not.toContain('Your first bill on or after that date');
    // The invoice paid is not touched.
    expect((await invoicesOf(user.id)).map((row) => row.status)).toEqual(['paid']);

    // No card charge in the year; the renewal invoice, 45 days before its end, has the new prices.
    now = at('2027-02-24');
    await runBilling(t.app.deps.billing);
    now = NOW;
    const [renewal] = await t.app.db
      .select()
      .from(invoices)
      .where(and(eq(invoices.userId, user.id), eq(invoices.kind, 'renewal')));
    expect(renewal).toMatchObject({ periodStart: '2027-04-10', totalCents: MMR_AT_75_CENTS });
  });

  /** The dealer reactivates an inactive account with a good card, as Billing Details sends it. */
  const reactivate = async (userId: string) => {
    const { paymentToken } = await issueSandboxToken(
      t.app.db,
      { creditCardNumber: '4111111111111111', creditCardExpiration: '1230', creditCardCode: '123' },
      now,
    );
    return t.app.inject({
      method: 'PUT',
      url: '/api/users/reactivate',
      headers: {
        cookie: `${browser.cookie}; ${SESSION_COOKIE}=${await sessionFor(t, userId, now)}`,
        'x-csrf-token': browser.token,
        'content-type': 'application/json',
      },
      payload: JSON.stringify({
        paymentToken,
        cardBrand: 'visa',
        cardLast4: '1111',
        creditCardExpiration: '1230',
        ...BILLING_ADDRESS,
        requestKey: key(),
      }),
    });
  };
  const runAt = async (date: string) => {
    now = at(date);
    await runBilling(t.app.deps.billing);
  };

  it('an account that went inactive with an open invoice and reactivates: the invoice moves to the new cycle (one e-mail, the next number), and the year paid by check holds no card charge', async () => {
    try {
      const { user } = await fresh();
      // Asked on 2026-03-12: the year starts on 2026-05-10, the first bill date 30 days away.
      now = at('2026-03-12');
      await requestAnnualBilling(t.app.db, t.app.deps.billing, {
        userId: user.id,
        now,
        body: { requestKey: key() },
        params: {},
      });
      const [asked] = await invoicesOf(user.id);
      expect(asked).toMatchObject({ status: 'open', periodStart: '2026-05-10' });
      // The card is removed: the renewal of 2026-04-10 fails, and R4's retries 1, 3 and 5 days
      // later too; the account is inactive on 2026-04-15, the invoice still open.
      await t.app.db
        .update(subscriptions)
        .set({ gatewayCustomerId: null, gatewayPaymentProfileId: null })
        .where(eq(subscriptions.userId, user.id));
      for (const date of ['2026-04-10', '2026-04-11', '2026-04-13', '2026-04-15'])
        await runAt(date);
      const [inactive] = await t.app.db.select().from(users).where(eq(users.id, user.id));
      expect(inactive!.accountStatus).toBe(ACCOUNT_STATUS.inactive);
      expect((await invoicesOf(user.id)).map((row) => row.status)).toEqual(['open']);

      // Reactivated on 2026-04-20: the new cycle's bill dates fall on the 20th (R4).
      now = at('2026-04-20');
      const reactivated = await reactivate(user.id);
      expect(reactivated.statusCode, reactivated.body).toBe(200);
      const [voided, issued] = await invoicesOf(user.id);
      expect(voided).toMatchObject({ id: asked!.id, status: 'void', voidedBy: 'replaced' });
      // R14 as asked today: the first bill date of the new cycle 30 days away.
      expect(issued).toMatchObject({
        status: 'open',
        periodStart: '2026-05-20',
        periodEnd: '2027-05-19',
        dueOn: '2026-05-20',
        totalCents: ANNUAL_CENTS,
      });
      expect(sequenceOf(issued!.number)).toBe(sequenceOf(voided!.number) + 1);
      const told = (await mailsTo(user.email)).filter((mail) => mail.invoiceId === issued!.id);
      expect(told).toHaveLength(1);
      expect(told[0]!.subject).toContain(
        `invoice ${issued!.number} replaces invoice ${voided!.number}`,
      );
      expect(told[0]!.textBody).toContain('Your account was reactivated with a new billing day');

      expect((await recordCheck(user.id, voided!.id, ANNUAL_CENTS)).json().code).toBe(
        'INVOICE_NOT_OPEN',
      );
      const paid = await recordCheck(user.id, issued!.id, ANNUAL_CENTS);
      expect(paid.statusCode, paid.body).toBe(200);
      // R14: no card charge inside the year paid by check; monthly again at its end.
      for (const date of ['2026-05-20', '2026-06-20', '2027-04-20', '2027-05-20']) {
        await runAt(date);
      }
      const renewals = await t.app.db
        .select({ start: billingPeriods.periodStart, kind: billingPeriods.kind })
        .from(billingPeriods)
        .where(eq(billingPeriods.userId, user.id))
        .orderBy(asc(billingPeriods.periodStart));
      const inYear = renewals.filter(
        (row) => row.kind === 'renewal' && row.start >= '2026-05-20' && row.start < '2027-05-20',
      );
      expect(inYear).toEqual([]);
      expect(renewals.at(-1)).toEqual({ start: '2027-05-20', kind: 'renewal' });
    } finally {
      now = NOW;
    }
  });

  it('staff cannot record a check for an inactive account’s invoice: its year would start on a day of the old cycle', async () => {
    try {
      const { user } = await fresh();
      now = at('2026-03-12');
      await requestAnnualBilling(t.app.db, t.app.deps.billing, {
        userId: user.id,
        now,
        body: { requestKey: key() },
        params: {},
      });
      await t.app.db
        .update(subscriptions)
        .set({ gatewayCustomerId: null, gatewayPaymentProfileId: null })
        .where(eq(subscriptions.userId, user.id));
      for (const date of ['2026-04-10', '2026-04-11', '2026-04-13', '2026-04-15'])
        await runAt(date);
      now = at('2026-04-16');
      const [open] = await invoicesOf(user.id);
      const refused = await recordCheck(user.id, open!.id, ANNUAL_CENTS);
      expect(refused.statusCode).toBe(409);
      expect(refused.json().code).toBe('ANNUAL_NOT_AVAILABLE');
      expect(refused.json().message).toContain('inactive');
      expect((await invoicesOf(user.id)).map((row) => row.status)).toEqual(['open']);
    } finally {
      now = NOW;
    }
  });
});

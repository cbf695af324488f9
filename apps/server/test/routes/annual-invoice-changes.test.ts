import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invoices, mailOutbox, subscriptions } from '../../src/db/schema.ts';
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
});

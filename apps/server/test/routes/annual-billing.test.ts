import { spawnSync } from 'node:child_process';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_STATUS } from '@dealerpass/domain/account/status';
import { ANNUAL_INELIGIBLE_MESSAGES } from '@dealerpass/domain/billing/annual';
import { INVOICE_NUMBER_PATTERN } from '@dealerpass/domain/schemas/annual-billing';
import type { TOverview } from '@dealerpass/domain/overview/overview-views';
import {
  billingPeriods,
  checks,
  invoices,
  mailOutbox,
  paymentDeclines,
  payments,
  subscriptions,
  users,
} from '../../src/db/schema.ts';
import { SESSION_COOKIE } from '../../src/plugins/session.ts';
import { getBalanceCents } from '../../src/services/billing/account-balance.ts';
import { recordChargeback } from '../../src/services/billing/record-chargeback.ts';
import { cancelSubscription } from '../../src/services/billing/cancel-subscription.ts';
import { changeSubscription } from '../../src/services/billing/change-subscription.ts';
import { runBilling } from '../../src/services/billing/run-billing.ts';
import { requestAnnualBilling } from '../../src/services/annual-billing/request-annual-billing.ts';
import { issueSandboxToken } from '../../src/sandboxes/payments/sandbox-tokens.ts';
import { auditOf, consolePost, plainDealer, staffCookies } from '../factories/admin-fixtures.ts';
import { BILLING_ADDRESS } from '../factories/subscriber-factory.ts';
import { annualDealer } from '../factories/annual-fixtures.ts';
import { parseCsv } from '../support/csv.ts';
import { buildTestApp, type TestApp, type TestBrowser } from '../support/helper.ts';
import { addOpeningBalance, sessionFor } from '../factories/sign-in.ts';
import { staffSessionFor } from '../factories/staff-sign-in.ts';
import { storedReceiptPdf } from '../support/stored-receipt.ts';

const NOW = new Date('2026-03-10T15:00:00Z');
const TODAY = '2026-03-10';
const PREVIOUS = '2026-02-10';
const at = (date: string) => new Date(`${date}T15:00:00Z`);
const key = () => crypto.randomUUID();
const REASON = 'Dealer asked by phone';
// NADA 70 + MMR 65 + the 3-dollar fee = 138 a month; 1,656 a year; 1,490.40 with 10 % off (R14).
const YEAR_CENTS = 165_600;
const ANNUAL_CENTS = 149_040;

const pdfText = (pdf: Buffer) =>
  spawnSync('/usr/bin/pdftotext', ['-layout', '-', '-'], { input: pdf, encoding: 'utf8' }).stdout;

/**
 * Annual payment by check with the 10 % discount (R14, issue 28): every route of the dealer and
 * the console, and the rules through the billing run: the period, the amount, the void at the due
 * date, the check and its ledger, the year the run passes without a card charge, the renewal
 * invoice, the year's end unpaid, the returned check and R4's retries, additions and
 * cancellation during the year.
 */
describe('annual billing by check', () => {
  let t: TestApp;
  let browser: TestBrowser;
  let staff: Awaited<ReturnType<typeof staffCookies>>;
  let now = NOW;

  beforeAll(async () => {
    t = await buildTestApp({ now: () => now });
    browser = await t.browser();
    staff = await staffCookies(t);
  }, 60_000);
  afterAll(() => t.close());

  const dealer = async (userId: string) => `${SESSION_COOKIE}=${await sessionFor(t, userId, now)}`;
  const get = (cookie: string, url: string) =>
    t.app.inject({ method: 'GET', url, headers: { cookie: [browser.cookie, cookie].join('; ') } });
  const post = (cookie: string, url: string, body: object) =>
    consolePost(t, browser, cookie, url, body);
  const fresh = (options: { invoice?: boolean; card?: string; codes?: string[] } = {}) =>
    annualDealer(t, { now: NOW, today: TODAY, previous: PREVIOUS, ...options });
  const account = (userId: string) => `/api/admin/accounts/${userId}`;
  const userRow = async (userId: string) =>
    (await t.app.db.select().from(users).where(eq(users.id, userId)))[0]!;
  const subscriptionRow = async (userId: string) =>
    (await t.app.db.select().from(subscriptions).where(eq(subscriptions.userId, userId)))[0]!;
  const mailsTo = async (email: string) =>
    t.app.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, email));
  const runAt = async (date: string) => {
    now = at(date);
    try {
      return await runBilling(t.app.deps.billing);
    } finally {
      now = NOW;
    }
  };
  const periodsOf = async (userId: string) =>
    t.app.db
      .select()
      .from(billingPeriods)
      .where(eq(billingPeriods.userId, userId))
      .orderBy(billingPeriods.periodStart, billingPeriods.createdAt);
  /** A billing member's session opened at the clock's time (a session opened a year ago is over). */
  const billingNow = async () => (await staffSessionFor(t, 'billing', { now })).cookie;
  const recordCheckFor = async (userId: string, invoiceId: string, amountCents = ANNUAL_CENTS) =>
    post(await billingNow(), `${account(userId)}/invoices/${invoiceId}/check`, {
      requestKey: key(),
      checkNumber: '1234',
      amountCents,
      receivedOn: TODAY,
    });

  it('offers an active monthly account the year at 10 % off from the first bill date 30 days on', async () => {
    const { user } = await fresh();
    const response = await get(await dealer(user.id), '/api/users/annualBilling');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data).toEqual({
      offer: {
        monthlyTotalCents: 13_800,
        yearTotalCents: YEAR_CENTS,
        discountedTotalCents: ANNUAL_CENTS,
        periodStart: '2026-04-10',
        remitTo: {
          payee: 'DealerPass, Inc.',
          lines: [
            'Attn: Accounts Receivable',
            'PO Box 1000',
            'Springfield, IL 62705',
            'United States',
          ],
        },
      },
      ineligibleReason: null,
      openInvoice: null,
      annualPeriod: null,
      invoices: [],
    });
  });

  it('tells an ineligible account why and refuses its request', async () => {
    const pending = await plainDealer(t, {
      accountStatus: 'pending cancel',
      subscriptions: ['NADA'],
    });
    const cookie = await dealer(pending.id);
    const state = await get(cookie, '/api/users/annualBilling');
    expect(state.json().data).toMatchObject({
      offer: null,
      ineligibleReason: ANNUAL_INELIGIBLE_MESSAGES.pendingCancel,
    });
    const refused = await post(cookie, '/api/users/annualBilling', { requestKey: key() });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      code: 'ANNUAL_NOT_AVAILABLE',
      message: ANNUAL_INELIGIBLE_MESSAGES.pendingCancel,
    });
    expect(await t.app.db.select().from(invoices).where(eq(invoices.userId, pending.id))).toEqual(
      [],
    );
  });

  it('issues, e-mails and serves the invoice; one open at a time; a repeat answers the first', async () => {
    const { user } = await fresh();
    const cookie = await dealer(user.id);
    const requestKey = key();
    const changed = await post(cookie, '/api/users/annualBilling', {
      requestKey: key(),
      basedOn: { periodStart: '2026-04-10', discountedTotalCents: ANNUAL_CENTS - 1 },
    });
    expect(changed.statusCode).toBe(409);
    expect(changed.json().code).toBe('ANNUAL_OFFER_CHANGED');
    const created = await post(cookie, '/api/users/annualBilling', {
      requestKey,
      basedOn: { periodStart: '2026-04-10', discountedTotalCents: ANNUAL_CENTS },
    });
    expect(created.statusCode, created.body).toBe(201);
    const invoice = created.json().data.invoice;
    expect(invoice).toMatchObject({
      status: 'open',
      issuedOn: TODAY,
      dueOn: '2026-04-10',
      periodStart: '2026-04-10',
      periodEnd: '2027-04-09',
      discountCents: YEAR_CENTS - ANNUAL_CENTS,
      totalCents: ANNUAL_CENTS,
      lines: [
        { label: 'J.D. Power (NADA) × 12', amountCents: 84_000 },
        { label: 'Manheim Market Report × 12', amountCents: 78_000 },
        { label: 'Platform fee × 12', amountCents: 3_600 },
      ],
    });
    expect(invoice.number).toMatch(INVOICE_NUMBER_PATTERN);
    expect(invoice.number).toMatch(/^DP-2026-\d{6}$/);
    const repeated = await post(cookie, '/api/users/annualBilling', {
      requestKey,
      basedOn: { periodStart: '2026-04-10', discountedTotalCents: ANNUAL_CENTS },
    });
    expect(repeated.statusCode).toBe(201);
    expect(repeated.json().data.invoice.id).toBe(invoice.id);
    const second = await post(cookie, '/api/users/annualBilling', { requestKey: key() });
    expect(second.statusCode).toBe(409);
    expect(second.json().message).toBe(ANNUAL_INELIGIBLE_MESSAGES.openInvoice);

    const mails = (await mailsTo(user.email)).filter((mail) => mail.invoiceId === invoice.id);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toContain(invoice.number);

    const state = (await get(cookie, '/api/users/annualBilling')).json().data;
    expect(state.openInvoice.id).toBe(invoice.id);
    expect(state.offer).toBeNull();
    expect(state.invoices).toHaveLength(1);

    const pdf = await get(cookie, `/api/users/annualBilling/invoices/${invoice.id}/pdf`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toContain(`${invoice.number}.pdf`);
    const text = pdfText(pdf.rawPayload);
    for (const expected of [
      'Invoice',
      invoice.number,
      'DealerPass, Inc.',
      '100 Demo Way, Suite 200',
      'Springfield, IL 62701',
      user.dealership,
      'J.D. Power (NADA) × 12',
      '$840.00',
      'Platform fee × 12',
      '$36.00',
      'Annual discount (10%)',
      '-$165.60',
      'Total due',
      '$1,490.40',
      'Apr 10, 2026 – Apr 09, 2027',
      'Mar 10, 2026',
      'PO Box 1000',
      `Write the invoice number ${invoice.number} on the check.`,
    ]) {
      expect(text, expected).toContain(expected);
    }

    // Another account's invoice is not found, for the dealer; staff of every role read it.
    const other = await fresh();
    const foreign = await get(
      await dealer(other.user.id),
      `/api/users/annualBilling/invoices/${invoice.id}/pdf`,
    );
    expect(foreign.statusCode).toBe(404);
    const staffPdf = await get(
      staff.support.cookie,
      `${account(user.id)}/invoices/${invoice.id}/pdf`,
    );
    expect(staffPdf.statusCode).toBe(200);
    expect(
      (await get(staff.support.cookie, `${account(other.user.id)}/invoices/${invoice.id}/pdf`))
        .statusCode,
    ).toBe(404);
  });

  it('"Keep paying monthly by card" voids the invoice, e-mails it, and monthly billing goes on', async () => {
    const { user, invoice } = await fresh({ invoice: true });
    const cookie = await dealer(user.id);
    const voided = await post(cookie, `/api/users/annualBilling/invoices/${invoice!.id}/void`, {
      requestKey: key(),
    });
    expect(voided.statusCode, voided.body).toBe(200);
    expect(voided.json().data.invoice).toMatchObject({ status: 'void', voidedOn: TODAY });
    const again = await post(cookie, `/api/users/annualBilling/invoices/${invoice!.id}/void`, {
      requestKey: key(),
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('INVOICE_NOT_OPEN');
    expect((await mailsTo(user.email)).some((mail) => mail.subject.includes('is void'))).toBe(true);
    await runAt('2026-04-10');
    const periods = await periodsOf(user.id);
    expect(periods.map((period) => [period.kind, period.periodStart, period.status])).toEqual([
      ['renewal', '2026-03-10', 'paid'],
      ['renewal', '2026-04-10', 'paid'],
    ]);
  });

  it('voids an unpaid invoice at its due date (e-mail) and bills the month by card', async () => {
    const { user, invoice } = await fresh({ invoice: true });
    await runAt('2026-04-09');
    expect(
      (await t.app.db.select().from(invoices).where(eq(invoices.id, invoice!.id)))[0]!.status,
    ).toBe('open');
    await runAt('2026-04-10');
    const [row] = await t.app.db.select().from(invoices).where(eq(invoices.id, invoice!.id));
    expect(row).toMatchObject({ status: 'void', voidedOn: '2026-04-10', voidedBy: 'due date' });
    const mails = await mailsTo(user.email);
    expect(mails.some((mail) => mail.textBody.includes('by its due date'))).toBe(true);
    const periods = await periodsOf(user.id);
    expect(periods.at(-1)).toMatchObject({
      kind: 'renewal',
      periodStart: '2026-04-10',
      status: 'paid',
    });
  });

  it('staff set it up on the dealer’s behalf (billing and up, audited), list it as due and find it by number', async () => {
    const { user } = await fresh();
    const url = `${account(user.id)}/annual-billing`;
    const support = await post(staff.support.cookie, url, { requestKey: key(), reason: REASON });
    expect(support.statusCode).toBe(403);
    const created = await post(staff.billing.cookie, url, { requestKey: key(), reason: REASON });
    expect(created.statusCode, created.body).toBe(201);
    const invoice = created.json().data.invoice;
    const audit = await auditOf(t, user.id);
    expect(audit.at(-1)).toMatchObject({ action: 'requestAnnualBilling', reason: REASON });

    const queue = await get(staff.support.cookie, '/api/admin/invoices?status=open');
    expect(queue.statusCode, queue.body).toBe(200);
    const queued = queue.json().data.invoices.find((row: { id: string }) => row.id === invoice.id);
    expect(queued).toMatchObject({
      userId: user.id,
      dealershipName: user.dealership,
      overdue: false,
    });

    const search = await get(
      staff.support.cookie,
      `/api/admin/accounts?q=${invoice.number.toLowerCase()}`,
    );
    expect(search.json().data.map((row: { userId: string }) => row.userId)).toEqual([user.id]);

    const detail = (await get(staff.support.cookie, account(user.id))).json().data;
    expect(detail.invoices.map((row: { id: string }) => row.id)).toEqual([invoice.id]);
    expect(detail.annualPeriod).toBeNull();
    const timeline = (await get(staff.support.cookie, `${account(user.id)}/timeline`)).json().data;
    expect(timeline.some((entry: { kind: string }) => entry.kind === 'invoice')).toBe(true);

    const resent = await post(
      staff.billing.cookie,
      `${account(user.id)}/invoices/${invoice.id}/resend`,
      {
        requestKey: key(),
      },
    );
    expect(resent.statusCode, resent.body).toBe(200);
    expect(
      (await mailsTo(user.email)).filter((mail) => mail.invoiceId === invoice.id),
    ).toHaveLength(2);

    const voided = await post(
      staff.billing.cookie,
      `${account(user.id)}/invoices/${invoice.id}/void`,
      {
        requestKey: key(),
        reason: REASON,
      },
    );
    expect(voided.json().data.invoice.status).toBe('void');
    expect((await auditOf(t, user.id)).map((row) => row.action)).toEqual([
      'requestAnnualBilling',
      'resendInvoice',
      'voidInvoice',
    ]);
  });

  it('records a check only for the amount left open; the year is paid, no card charge falls in it', async () => {
    const { user, invoice } = await fresh({ invoice: true });
    const wrong = await recordCheckFor(user.id, invoice!.id, ANNUAL_CENTS - 100);
    expect(wrong.statusCode).toBe(409);
    expect(wrong.json()).toMatchObject({ code: 'CHECK_AMOUNT_MISMATCH' });
    expect(wrong.json().message).toContain('$1,490.40');
    const supportTry = await post(
      staff.support.cookie,
      `${account(user.id)}/invoices/${invoice!.id}/check`,
      {
        requestKey: key(),
        checkNumber: '1234',
        amountCents: ANNUAL_CENTS,
        receivedOn: TODAY,
      },
    );
    expect(supportTry.statusCode).toBe(403);
    const balanceBefore = await getBalanceCents(t.app.db, user.id);
    const paid = await recordCheckFor(user.id, invoice!.id);
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json().data.invoice).toMatchObject({
      status: 'paid',
      paidOn: TODAY,
      check: { number: '1234', receivedOn: TODAY, amountCents: ANNUAL_CENTS },
    });
    // The ledger took the charge and the payment together.
    expect(await getBalanceCents(t.app.db, user.id)).toBe(balanceBefore);
    const [payment] = await t.app.db
      .select()
      .from(payments)
      .where(and(eq(payments.userId, user.id), eq(payments.gatewayTransactionId, 'check:1234')));
    expect(payment).toMatchObject({ amountCents: ANNUAL_CENTS, cardBrand: 'Check' });
    const receipt = pdfText(await storedReceiptPdf(t, payment!.receiptPdf));
    expect(receipt).toContain('Paid with Check 1234');
    expect(receipt).toContain('Annual discount (10%)');
    const receiptMail = (await mailsTo(user.email)).find(
      (mail) => mail.receiptPaymentId === payment!.id,
    );
    expect(receiptMail?.textBody).toContain('Check 1234');
    expect(await subscriptionRow(user.id)).toMatchObject({
      annualPeriodStart: '2026-04-10',
      annualPeriodEnd: '2027-04-09',
    });

    // The month before the year is still billed by card; the year is passed with no charge.
    const cardCharges = async () =>
      (await t.app.db.select().from(payments).where(eq(payments.userId, user.id))).filter(
        (row) => row.cardBrand !== 'Check',
      ).length;
    const before = await cardCharges();
    for (const date of ['2026-04-10', '2026-05-10', '2026-12-10', '2027-03-10']) await runAt(date);
    expect(await cardCharges()).toBe(before);
    expect(await subscriptionRow(user.id)).toMatchObject({
      currentPeriodStart: '2026-04-10',
      currentPeriodEnd: '2027-04-10',
    });
    expect((await userRow(user.id)).nextBillDate).toBe('2027-04-10');
    now = at('2026-06-01');
    const state = (await get(await dealer(user.id), '/api/users/annualBilling')).json().data;
    now = NOW;
    expect(state).toMatchObject({
      annualPeriod: { start: '2026-04-10', end: '2027-04-09' },
      offer: null,
      ineligibleReason: ANNUAL_INELIGIBLE_MESSAGES.annual,
    });
    const again = await recordCheckFor(user.id, invoice!.id);
    expect(again.json().code).toBe('INVOICE_NOT_OPEN');
  });

  it('issues the renewal invoice 45 days before the year ends; unpaid, the account returns to monthly card billing', async () => {
    const { user, invoice } = await fresh({ invoice: true });
    expect((await recordCheckFor(user.id, invoice!.id)).statusCode).toBe(200);
    await runAt('2026-04-10');
    await runAt('2027-02-23');
    const count = async () =>
      (await t.app.db.select().from(invoices).where(eq(invoices.userId, user.id))).length;
    expect(await count()).toBe(1);
    await runAt('2027-02-24');
    await runAt('2027-02-25');
    const all = await t.app.db.select().from(invoices).where(eq(invoices.userId, user.id));
    expect(all).toHaveLength(2);
    const renewal = all.find((row) => row.kind === 'renewal')!;
    expect(renewal).toMatchObject({
      status: 'open',
      issuedOn: '2027-02-24',
      dueOn: '2027-04-10',
      periodStart: '2027-04-10',
      periodEnd: '2028-04-09',
      totalCents: ANNUAL_CENTS,
    });
    await runAt('2027-04-10');
    const [voided] = await t.app.db.select().from(invoices).where(eq(invoices.id, renewal.id));
    expect(voided!.status).toBe('void');
    const periods = await periodsOf(user.id);
    expect(periods.at(-1)).toMatchObject({
      kind: 'renewal',
      periodStart: '2027-04-10',
      periodEnd: '2027-05-10',
      status: 'paid',
      amountCents: 13_800,
    });
  });

  it('a renewal paid by check continues the year with no card charge', async () => {
    const { user, invoice } = await fresh({ invoice: true });
    expect((await recordCheckFor(user.id, invoice!.id)).statusCode).toBe(200);
    await runAt('2026-04-10');
    await runAt('2027-02-24');
    const [renewal] = await t.app.db
      .select()
      .from(invoices)
      .where(and(eq(invoices.userId, user.id), eq(invoices.kind, 'renewal')));
    now = at('2027-03-01');
    const paid = await recordCheckFor(user.id, renewal!.id);
    now = NOW;
    expect(paid.statusCode, paid.body).toBe(200);
    await runAt('2027-04-10');
    expect(await subscriptionRow(user.id)).toMatchObject({
      annualPeriodStart: '2026-04-10',
      annualPeriodEnd: '2028-04-09',
      currentPeriodEnd: '2028-04-10',
    });
  });

  it('a returned check reverses the payment: owed, validating payment, and R4’s retry charges the card', async () => {
    const { user, invoice } = await fresh({ invoice: true });
    expect((await recordCheckFor(user.id, invoice!.id)).statusCode).toBe(200);
    await runAt('2026-04-10');
    now = at('2026-04-15');
    const returned = await post(
      await billingNow(),
      `${account(user.id)}/invoices/${invoice!.id}/check/returned`,
      { requestKey: key(), reason: 'Returned: insufficient funds' },
    );
    now = NOW;
    expect(returned.statusCode, returned.body).toBe(200);
    expect(returned.json().data.invoice).toMatchObject({
      status: 'void',
      check: { number: '1234', returnedOn: '2026-04-15' },
    });
    expect(await getBalanceCents(t.app.db, user.id)).toBe(ANNUAL_CENTS);
    expect((await userRow(user.id)).accountStatus).toBe(ACCOUNT_STATUS.validatingPayment);
    const twice = await post(
      await billingNow(),
      `${account(user.id)}/invoices/${invoice!.id}/check/returned`,
      { requestKey: key(), reason: 'Returned again' },
    );
    expect(twice.json().code).toBe('CHECK_NOT_RETURNABLE');
    // The first retry, a day later, charges the card on file for the year.
    await runAt('2026-04-16');
    expect(await getBalanceCents(t.app.db, user.id)).toBe(0);
    expect((await userRow(user.id)).accountStatus).toBe(ACCOUNT_STATUS.active);
    const cardPaid = await t.app.db
      .select()
      .from(payments)
      .where(and(eq(payments.userId, user.id), eq(payments.amountCents, ANNUAL_CENTS)));
    expect(cardPaid.map((row) => (row.cardBrand === 'Check' ? row.status : 'card'))).toEqual(
      expect.arrayContaining(['refunded', 'card']),
    );
    expect(await subscriptionRow(user.id)).toMatchObject({ currentPeriodEnd: '2027-04-10' });
    expect(await t.app.db.select().from(checks).where(eq(checks.userId, user.id))).toHaveLength(1);
  });

  it('a returned check is a money movement of its own: the export’s row on the day of the return, the overview’s part equal to the export to the cent (R18)', async () => {
    const { user, invoice } = await fresh({ invoice: true });
    expect((await recordCheckFor(user.id, invoice!.id)).statusCode).toBe(200);
    await runAt('2026-04-10');
    now = at('2026-04-15');
    const returned = await post(
      await billingNow(),
      `${account(user.id)}/invoices/${invoice!.id}/check/returned`,
      { requestKey: key(), reason: 'Returned: insufficient funds' },
    );
    expect(returned.statusCode, returned.body).toBe(200);
    const [paid] = await t.app.db
      .select()
      .from(payments)
      .where(and(eq(payments.userId, user.id), eq(payments.gatewayTransactionId, 'check:1234')));
    now = at('2026-04-20');
    try {
      const billing = await billingNow();
      const exported = async (month: string) => {
        const response = await get(billing, `/api/admin/finance/movements.csv?month=${month}`);
        expect(response.statusCode, response.body).toBe(200);
        const [header, ...rows] = parseCsv(response.body);
        return rows.map((row) => Object.fromEntries(header!.map((name, i) => [name, row[i]!])));
      };
      const march = await exported('2026-03');
      const april = await exported('2026-04');
      const ofPayment = (rows: Record<string, string>[]) =>
        rows.filter((row) => row.payment_id === paid!.id);
      // The check paid on the day it was recorded; it went back, whole, on the day it was returned.
      expect(ofPayment(march)).toEqual([
        expect.objectContaining({
          business_date: TODAY,
          kind: 'payment',
          method: 'check',
          direction: 'in',
          amount: '1490.40',
        }),
      ]);
      expect(ofPayment(april)).toEqual([
        expect.objectContaining({
          business_date: '2026-04-15',
          kind: 'returned check',
          method: 'check',
          direction: 'out',
          amount: '1490.40',
          account_id: user.id,
          gateway_transaction_id: 'check:1234',
          movement_id: `returned-check:${paid!.id}`,
        }),
      ]);

      // The overview's parts of each month are the export's rows of each kind, to the cent.
      const overview = await get(billing, '/api/admin/overview?from=2026-03&to=2026-04');
      expect(overview.statusCode, overview.body).toBe(200);
      const months = overview.json<{ data: TOverview }>().data.months;
      for (const [month, rows] of [
        [months[0]!, march],
        [months[1]!, april],
      ] as const) {
        const sum = (kind: string) =>
          rows
            .filter((row) => row.kind === kind)
            .reduce((total, row) => total + Math.round(Number(row.amount) * 100), 0);
        expect(month.revenue, month.month).toEqual({
          paymentsCents: sum('payment'),
          refundsCents: sum('refund'),
          chargebacksCents: sum('chargeback'),
          returnedChecksCents: sum('returned check'),
          revenueCents: sum('payment') - sum('refund') - sum('chargeback') - sum('returned check'),
        });
      }
      expect(months[1]!.revenue.returnedChecksCents).toBeGreaterThanOrEqual(ANNUAL_CENTS);
      // The bar lists the account with what went back.
      const behind = await get(
        billing,
        '/api/admin/overview/accounts?figure=returnedChecks&month=2026-04',
      );
      expect(behind.statusCode, behind.body).toBe(200);
      expect(
        behind
          .json<{ data: { accounts: { userId: string; cents: number }[] } }>()
          .data.accounts.find((row) => row.userId === user.id),
      ).toMatchObject({ cents: ANNUAL_CENTS });
    } finally {
      now = NOW;
    }
  });

  it('a returned check with no card on file: inactive after the last retry', async () => {
    const { user, invoice } = await fresh({ invoice: true });
    expect((await recordCheckFor(user.id, invoice!.id)).statusCode).toBe(200);
    await runAt('2026-04-10');
    await t.app.db
      .update(subscriptions)
      .set({ gatewayCustomerId: null, gatewayPaymentProfileId: null })
      .where(eq(subscriptions.userId, user.id));
    now = at('2026-04-15');
    await post(await billingNow(), `${account(user.id)}/invoices/${invoice!.id}/check/returned`, {
      requestKey: key(),
      reason: 'Returned: account closed',
    });
    now = NOW;
    // R4: 1, 3 and 5 days after the return.
    for (const date of ['2026-04-16', '2026-04-18', '2026-04-20']) {
      expect((await userRow(user.id)).accountStatus).toBe(ACCOUNT_STATUS.validatingPayment);
      await runAt(date);
    }
    expect((await userRow(user.id)).accountStatus).toBe(ACCOUNT_STATUS.inactive);
    expect(await getBalanceCents(t.app.db, user.id)).toBe(ANNUAL_CENTS);
  });

  /** A year paid by check from 2026-04-10, its check returned on 2026-04-15, then cancelled. */
  async function returnedThenCancelled(options: { card: boolean }) {
    const { user, invoice } = await fresh({ invoice: true });
    expect((await recordCheckFor(user.id, invoice!.id)).statusCode).toBe(200);
    await runAt('2026-04-10');
    if (!options.card) {
      await t.app.db
        .update(subscriptions)
        .set({ gatewayCustomerId: null, gatewayPaymentProfileId: null })
        .where(eq(subscriptions.userId, user.id));
    }
    now = at('2026-04-15');
    try {
      const returned = await post(
        await billingNow(),
        `${account(user.id)}/invoices/${invoice!.id}/check/returned`,
        { requestKey: key(), reason: 'Returned: insufficient funds' },
      );
      expect(returned.statusCode, returned.body).toBe(200);
      await cancelSubscription(t.app.deps.billing, user.id, {
        cancellationReasonOptions: ['business-is-slow'],
        userProvidedCancelReason: '',
      });
    } finally {
      now = NOW;
    }
    expect((await userRow(user.id)).accountStatus).toBe(ACCOUNT_STATUS.pendingCancel);
    expect(await getBalanceCents(t.app.db, user.id)).toBe(ANNUAL_CENTS);
    return { user };
  }

  it('a dealer who cancels after a returned check still owes the year: R4’s retry charges it, the cancellation stands and takes effect at the year’s end (decision 054)', async () => {
    const { user } = await returnedThenCancelled({ card: true });
    // The cancellation does not end the account at the year's start, already passed: the
    // first retry, a day after the return, charges the year to the card on file.
    await runAt('2026-04-16');
    expect(await getBalanceCents(t.app.db, user.id)).toBe(0);
    expect((await userRow(user.id)).accountStatus).toBe(ACCOUNT_STATUS.pendingCancel);
    expect(await subscriptionRow(user.id)).toMatchObject({
      currentPeriodEnd: '2027-04-10',
      annualPeriodStart: '2026-04-10',
      annualPeriodEnd: '2027-04-09',
    });
    await runAt('2027-03-10');
    expect((await userRow(user.id)).accountStatus).toBe(ACCOUNT_STATUS.pendingCancel);
    await runAt('2027-04-10');
    expect((await userRow(user.id)).accountStatus).toBe(ACCOUNT_STATUS.inactive);
    expect(await getBalanceCents(t.app.db, user.id)).toBe(0);
  });

  it('a dealer who cancels after a returned check, no card on file: pending cancel through R4’s retries, inactive at the last, the year owed', async () => {
    const { user } = await returnedThenCancelled({ card: false });
    for (const date of ['2026-04-16', '2026-04-18']) {
      await runAt(date);
      expect((await userRow(user.id)).accountStatus).toBe(ACCOUNT_STATUS.pendingCancel);
    }
    const declines = await t.app.db
      .select()
      .from(paymentDeclines)
      .where(eq(paymentDeclines.userId, user.id));
    expect(declines).toHaveLength(2);
    await runAt('2026-04-20');
    expect((await userRow(user.id)).accountStatus).toBe(ACCOUNT_STATUS.inactive);
    expect(await getBalanceCents(t.app.db, user.id)).toBe(ANNUAL_CENTS);
  });

  /**
   * A dealer (anchor day 10, billed on 2026-03-10) who asks on 2026-03-20: the year starts on
   * 2026-05-10, with the month from 2026-04-10 still billed by card. The check is recorded that
   * day and returned on 2026-03-25, before the year starts (decision 052).
   */
  async function returnedBeforeTheYear(options: { card: boolean }) {
    const { user } = await fresh();
    now = at('2026-03-20');
    try {
      const view = await requestAnnualBilling(t.app.db, t.app.deps.billing, {
        userId: user.id,
        now,
        body: { requestKey: key() },
        params: {},
      });
      expect(view).toMatchObject({ periodStart: '2026-05-10', dueOn: '2026-05-10' });
      const paid = await post(await billingNow(), `${account(user.id)}/invoices/${view.id}/check`, {
        requestKey: key(),
        checkNumber: '5678',
        amountCents: ANNUAL_CENTS,
        receivedOn: '2026-03-20',
      });
      expect(paid.statusCode, paid.body).toBe(200);
      if (!options.card) {
        await t.app.db
          .update(subscriptions)
          .set({ gatewayCustomerId: null, gatewayPaymentProfileId: null })
          .where(eq(subscriptions.userId, user.id));
      }
      now = at('2026-03-25');
      const returned = await post(
        await billingNow(),
        `${account(user.id)}/invoices/${view.id}/check/returned`,
        { requestKey: key(), reason: 'Returned: insufficient funds' },
      );
      expect(returned.statusCode, returned.body).toBe(200);
      const state = (await get(await dealer(user.id), '/api/users/annualBilling')).json().data;
      // The year is not paid any more: the account is not shown as billed annually.
      expect(state.annualPeriod).toBeNull();
      return { user, invoiceId: view.id };
    } finally {
      now = NOW;
    }
  }
  const cardPayments = async (userId: string) =>
    (await t.app.db.select().from(payments).where(eq(payments.userId, userId)))
      .filter((row) => row.cardBrand !== 'Check')
      .map((row) => row.amountCents)
      .sort((a, b) => a - b);

  it('a check returned before the year starts is owed at once: R4’s first retry, a day later, charges the card for the year, and the month before it is still billed by card', async () => {
    const { user } = await returnedBeforeTheYear({ card: true });
    expect(await getBalanceCents(t.app.db, user.id)).toBe(ANNUAL_CENTS);
    expect((await userRow(user.id)).accountStatus).toBe(ACCOUNT_STATUS.validatingPayment);
    expect(await cardPayments(user.id)).toEqual([13_800]);

    // R4's first retry: a day after the return, not at the year's start.
    await runAt('2026-03-26');
    expect(await getBalanceCents(t.app.db, user.id)).toBe(0);
    expect((await userRow(user.id)).accountStatus).toBe(ACCOUNT_STATUS.active);
    expect(await cardPayments(user.id)).toEqual([13_800, ANNUAL_CENTS]);
    expect(await subscriptionRow(user.id)).toMatchObject({
      // Monthly card billing goes on until the year starts.
      currentPeriodEnd: '2026-04-10',
      failedAttempts: 0,
      nextRetryAt: null,
      annualPeriodStart: '2026-05-10',
      annualPeriodEnd: '2027-05-09',
    });
    const owed = (await periodsOf(user.id)).filter((period) => period.kind === 'annual');
    expect(owed.map((period) => period.status)).toEqual(['refunded', 'paid']);

    await runAt('2026-04-10');
    expect(await cardPayments(user.id)).toEqual([13_800, 13_800, ANNUAL_CENTS]);
    // The year paid by card is passed like one paid by check: no card charge falls in it.
    for (const date of ['2026-05-10', '2026-06-10', '2027-04-10']) await runAt(date);
    expect(await cardPayments(user.id)).toEqual([13_800, 13_800, ANNUAL_CENTS]);
    expect(await subscriptionRow(user.id)).toMatchObject({
      currentPeriodStart: '2026-05-10',
      currentPeriodEnd: '2027-05-10',
    });
    expect(await getBalanceCents(t.app.db, user.id)).toBe(0);
  });

  it('a check returned before the year starts, no card on file: R4’s retries fail and the account is inactive at the last retry date; a reactivation on the year’s first day charges what is owed once', async () => {
    const { user } = await returnedBeforeTheYear({ card: false });
    // R4's retries: 1, 3 and 5 days after the return (2026-03-25), the last making it inactive.
    for (const date of ['2026-03-26', '2026-03-28', '2026-03-29']) {
      await runAt(date);
      expect((await userRow(user.id)).accountStatus).toBe(ACCOUNT_STATUS.validatingPayment);
    }
    await runAt('2026-03-30');
    expect((await userRow(user.id)).accountStatus).toBe(ACCOUNT_STATUS.inactive);
    expect(await getBalanceCents(t.app.db, user.id)).toBe(ANNUAL_CENTS);
    expect(await cardPayments(user.id)).toEqual([13_800]);

    // Reactivated on the day the year would have started: the month and the balance, once.
    now = at('2026-05-10');
    try {
      const { paymentToken } = await issueSandboxToken(
        t.app.db,
        {
          creditCardNumber: '4111111111111111',
          creditCardExpiration: '1230',
          creditCardCode: '123',
        },
        now,
      );
      const reactivated = await t.app.inject({
        method: 'PUT',
        url: '/api/users/reactivate',
        headers: {
          cookie: [browser.cookie, await dealer(user.id)].join('; '),
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
      expect(reactivated.statusCode, reactivated.body).toBe(200);
    } finally {
      now = NOW;
    }
    expect((await userRow(user.id)).accountStatus).toBe(ACCOUNT_STATUS.active);
    expect(await getBalanceCents(t.app.db, user.id)).toBe(0);
    expect(await cardPayments(user.id)).toEqual([13_800, 13_800 + ANNUAL_CENTS]);
    // The year owed is closed with the reactivation: no run charges it again.
    for (const date of ['2026-05-11', '2026-06-10']) await runAt(date);
    expect(await cardPayments(user.id)).toEqual([13_800, 13_800, 13_800 + ANNUAL_CENTS]);
  });

  it('during the year: an addition is charged at once on the discounted year, prorated; a cancellation waits for the year’s end', async () => {
    const { user, invoice } = await fresh({ invoice: true, codes: ['NADA'] });
    expect((await recordCheckFor(user.id, invoice!.id, invoice!.totalCents)).statusCode).toBe(200);
    await runAt('2026-04-10');
    now = at('2026-10-10');
    try {
      const result = await changeSubscription(t.app.deps.billing, user.id, {
        codes: ['NADA', 'KBB'],
        idempotencyKey: key(),
        basedOn: { codes: ['NADA'], pendingRemovals: [] },
      });
      // NADA alone 73 → 788.40 a year; with KBB 138 → 1,490.40; 702.00 × 182 / 365 → 350.04.
      expect(result.daysInPeriod).toBe(365);
      expect(result.daysLeft).toBe(182);
      expect(result.chargeTodayCents).toBe(35_004);
      await cancelSubscription(t.app.deps.billing, user.id, {
        cancellationReasonOptions: ['business-is-slow'],
        userProvidedCancelReason: '',
      });
    } finally {
      now = NOW;
    }
    expect((await userRow(user.id)).accountStatus).toBe(ACCOUNT_STATUS.pendingCancel);
    await runAt('2027-03-10');
    expect((await userRow(user.id)).accountStatus).toBe(ACCOUNT_STATUS.pendingCancel);
    await runAt('2027-04-10');
    expect((await userRow(user.id)).accountStatus).toBe(ACCOUNT_STATUS.inactive);
  });

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
        cookie: `${browser.cookie}; ${await dealer(userId)}`,
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
  const periodsIn = async (userId: string, from: string, to: string, kind: string) =>
    (await periodsOf(userId)).filter(
      (period) => period.kind === kind && period.periodStart >= from && period.periodStart < to,
    );

  it('a chargeback during a year paid by check, then a reactivation: only what is owed is charged, the year and its cycle go on, no card renewal falls in it (decision 058)', async () => {
    const { user, payment, invoice } = await fresh({ invoice: true });
    expect((await recordCheckFor(user.id, invoice!.id)).statusCode).toBe(200);
    await runAt('2026-04-10');
    const before = await subscriptionRow(user.id);
    expect(before).toMatchObject({
      currentPeriodStart: '2026-04-10',
      currentPeriodEnd: '2027-04-10',
    });

    // The month before the year is charged back on 2026-05-01: the fee, the account inactive.
    expect(
      await recordChargeback(t.app.db, { paymentId: payment!.id, now: at('2026-05-01') }),
    ).toBe(true);
    expect((await userRow(user.id)).accountStatus).toBe(ACCOUNT_STATUS.inactive);
    const owed = await getBalanceCents(t.app.db, user.id);
    expect(owed).toBeGreaterThan(0);

    now = at('2026-05-05');
    try {
      const reactivated = await reactivate(user.id);
      expect(reactivated.statusCode, reactivated.body).toBe(200);
      // Active again on its annual billing: the next bill date stays the year's end.
      expect(reactivated.json().data.nextBillDate).toBe('2027-04-10');
      const shown = await get(await dealer(user.id), '/api/users/current');
      expect(shown.json().data).toMatchObject({
        accountStatus: 'active',
        nextBillDate: '2027-04-10',
      });
    } finally {
      now = NOW;
    }
    // R4/R15: the reactivation charged the balance the chargeback left, nothing for a month.
    const [charged] = await periodsIn(user.id, '2026-05-05', '2026-05-06', 'reactivation');
    expect(charged).toMatchObject({ status: 'paid', amountCents: owed, periodEnd: '2027-04-10' });
    expect(await getBalanceCents(t.app.db, user.id)).toBe(0);
    expect(await subscriptionRow(user.id)).toMatchObject({
      cycleAnchor: before.cycleAnchor,
      currentPeriodStart: '2026-04-10',
      currentPeriodEnd: '2027-04-10',
      annualPeriodStart: '2026-04-10',
      annualPeriodEnd: '2027-04-09',
    });
    expect((await userRow(user.id)).nextBillDate).toBe('2027-04-10');

    // R14: no card renewal inside the year, whatever day the run comes.
    for (const date of ['2026-05-10', '2026-06-05', '2026-06-10', '2026-12-05', '2027-03-10'])
      await runAt(date);
    expect(await periodsIn(user.id, '2026-04-10', '2027-04-10', 'renewal')).toEqual([]);
    expect((await userRow(user.id)).accountStatus).toBe(ACCOUNT_STATUS.active);
    // Its renewal invoice was not paid: monthly card billing again at the year's end.
    await runAt('2027-04-10');
    expect(
      (await periodsIn(user.id, '2027-04-10', '2027-04-11', 'renewal')).map((row) => row.status),
    ).toEqual(['paid']);
  });

  it('a reactivation inside a paid year with nothing owed (a credit covers the fee): active again at once, nothing sent to the card (decision 058)', async () => {
    const { user, payment, invoice } = await fresh({ invoice: true });
    expect((await recordCheckFor(user.id, invoice!.id)).statusCode).toBe(200);
    await runAt('2026-04-10');
    await recordChargeback(t.app.db, { paymentId: payment!.id, now: at('2026-05-01') });
    await addOpeningBalance(t, user.id, -(await getBalanceCents(t.app.db, user.id)));
    const paymentsBefore = await cardPayments(user.id);
    now = at('2026-05-05');
    try {
      const reactivated = await reactivate(user.id);
      expect(reactivated.statusCode, reactivated.body).toBe(200);
      expect(reactivated.json().data).toMatchObject({
        accountStatus: 'active',
        nextBillDate: '2027-04-10',
      });
    } finally {
      now = NOW;
    }
    expect(await cardPayments(user.id)).toEqual(paymentsBefore);
    const [period] = await periodsIn(user.id, '2026-05-05', '2026-05-06', 'reactivation');
    expect(period).toMatchObject({ status: 'paid', amountCents: 0, periodEnd: '2027-04-10' });
    expect(await subscriptionRow(user.id)).toMatchObject({
      currentPeriodStart: '2026-04-10',
      currentPeriodEnd: '2027-04-10',
    });
    for (const date of ['2026-05-10', '2026-06-05']) await runAt(date);
    expect(await periodsIn(user.id, '2026-04-10', '2027-04-10', 'renewal')).toEqual([]);
  });

  it('a dealer who cancels after paying a year that has not begun: billed monthly to the year’s start, none in it, inactive at its end (decision 058)', async () => {
    const { user } = await fresh();
    now = at('2026-03-12');
    try {
      // Asked on 2026-03-12: the year starts on 2026-05-10, the first bill date 30 days away.
      const view = await requestAnnualBilling(t.app.db, t.app.deps.billing, {
        userId: user.id,
        now,
        body: { requestKey: key() },
        params: {},
      });
      expect((await recordCheckFor(user.id, view.id)).statusCode).toBe(200);
      now = at('2026-03-15');
      await cancelSubscription(t.app.deps.billing, user.id, {
        cancellationReasonOptions: ['business-is-slow'],
        userProvidedCancelReason: '',
      });
      const shown = await get(await dealer(user.id), '/api/users/current');
      // The next bill is the month before the year; the cancellation takes effect at the year's end.
      expect(shown.json().data).toMatchObject({
        accountStatus: ACCOUNT_STATUS.pendingCancel,
        nextBillDate: '2026-04-10',
        cancellationTakesEffect: '2027-05-10',
      });
      const detail = await get(await billingNow(), account(user.id));
      expect(detail.json().data.status).toMatchObject({
        nextBillDate: '2026-04-10',
        cancellationTakesEffect: '2027-05-10',
      });
    } finally {
      now = NOW;
    }
    const paidBefore = await cardPayments(user.id);
    // The month before the year is billed as usual; the cancellation stands.
    await runAt('2026-04-10');
    expect((await userRow(user.id)).accountStatus).toBe(ACCOUNT_STATUS.pendingCancel);
    expect(await cardPayments(user.id)).toEqual([...paidBefore, 13_800].sort((a, b) => a - b));
    // The year: no card charge, still pending cancel to its end.
    for (const date of ['2026-05-10', '2026-06-10', '2027-03-10', '2027-04-10']) {
      await runAt(date);
      expect((await userRow(user.id)).accountStatus).toBe(ACCOUNT_STATUS.pendingCancel);
    }
    expect(await periodsIn(user.id, '2026-05-10', '2027-05-10', 'renewal')).toEqual([]);
    expect(await subscriptionRow(user.id)).toMatchObject({ currentPeriodEnd: '2027-05-10' });
    await runAt('2027-05-10');
    expect((await userRow(user.id)).accountStatus).toBe(ACCOUNT_STATUS.inactive);
    expect(await cardPayments(user.id)).toEqual([...paidBefore, 13_800].sort((a, b) => a - b));
    expect(await periodsIn(user.id, '2027-05-10', '2027-05-11', 'renewal')).toEqual([]);
  });

  /** A year asked on 2026-03-12 (it starts on 2026-05-10, the first bill date 30 days away), paid. */
  const yearFromMay = async (userId: string) => {
    now = at('2026-03-12');
    try {
      const view = await requestAnnualBilling(t.app.db, t.app.deps.billing, {
        userId,
        now,
        body: { requestKey: key() },
        params: {},
      });
      expect((await recordCheckFor(userId, view.id)).statusCode).toBe(200);
    } finally {
      now = NOW;
    }
  };
  const reactivateAt = async (userId: string, date: string) => {
    now = at(date);
    try {
      const reactivated = await reactivate(userId);
      expect(reactivated.statusCode, reactivated.body).toBe(200);
      return reactivated.json().data as { accountStatus: string; nextBillDate: string };
    } finally {
      now = NOW;
    }
  };

  it('a chargeback before a paid year begins, then a reactivation: R4’s month and the balance to the year’s first day, the cycle kept, the run passes the year then (decision 060)', async () => {
    const { user, payment, invoice } = await fresh({ invoice: true });
    expect((await recordCheckFor(user.id, invoice!.id)).statusCode).toBe(200);
    const before = await subscriptionRow(user.id);
    // The month before the year (2026-03-10 to 04-10) is charged back on 03-20: inactive.
    await recordChargeback(t.app.db, { paymentId: payment!.id, now: at('2026-03-20') });
    expect((await userRow(user.id)).accountStatus).toBe(ACCOUNT_STATUS.inactive);
    // The month's money went back (its period no longer billed); the 25-dollar fee is owed.
    expect(await getBalanceCents(t.app.db, user.id)).toBe(2_500);

    const shown = await reactivateAt(user.id, '2026-03-25');
    expect(shown).toMatchObject({ accountStatus: 'active', nextBillDate: '2026-04-10' });
    // R4: the month's price and the balance; the period runs to the year's first day.
    const [charged] = await periodsIn(user.id, '2026-03-25', '2026-03-26', 'reactivation');
    expect(charged).toMatchObject({
      status: 'paid',
      amountCents: 13_800 + 2_500,
      periodEnd: '2026-04-10',
    });
    expect(await getBalanceCents(t.app.db, user.id)).toBe(0);
    expect(await subscriptionRow(user.id)).toMatchObject({
      cycleAnchor: before.cycleAnchor,
      currentPeriodEnd: '2026-04-10',
    });

    // The run reaches the year's first day on the kept cycle and passes it with no charge.
    for (const date of ['2026-04-10', '2026-04-25', '2026-05-10', '2026-12-10', '2027-03-10'])
      await runAt(date);
    expect(await periodsIn(user.id, '2026-03-26', '2027-04-10', 'renewal')).toEqual([]);
    expect(await subscriptionRow(user.id)).toMatchObject({
      currentPeriodStart: '2026-04-10',
      currentPeriodEnd: '2027-04-10',
    });
    expect((await userRow(user.id)).accountStatus).toBe(ACCOUNT_STATUS.active);
  });

  it('a chargeback of an earlier month before a paid year, a reactivation in a month paid: the balance only, to the year’s first day (decision 060)', async () => {
    const { user, payment } = await fresh();
    await yearFromMay(user.id);
    // The month before the year (2026-04-10 to 05-10) is paid; March's payment is charged back.
    await runAt('2026-04-10');
    await recordChargeback(t.app.db, { paymentId: payment!.id, now: at('2026-04-20') });
    expect((await userRow(user.id)).accountStatus).toBe(ACCOUNT_STATUS.inactive);
    expect(await getBalanceCents(t.app.db, user.id)).toBe(2_500);

    const shown = await reactivateAt(user.id, '2026-04-25');
    expect(shown).toMatchObject({ accountStatus: 'active', nextBillDate: '2026-05-10' });
    const [charged] = await periodsIn(user.id, '2026-04-25', '2026-04-26', 'reactivation');
    expect(charged).toMatchObject({ status: 'paid', amountCents: 2_500, periodEnd: '2026-05-10' });
    expect((charged!.quote as { lines: { code: string }[] }).lines.map((l) => l.code)).toEqual([
      'BALANCE',
    ]);
    for (const date of ['2026-05-10', '2026-05-25', '2026-06-10', '2027-04-10']) await runAt(date);
    expect(await periodsIn(user.id, '2026-04-11', '2027-05-10', 'renewal')).toEqual([]);
    expect(await subscriptionRow(user.id)).toMatchObject({
      currentPeriodStart: '2026-05-10',
      currentPeriodEnd: '2027-05-10',
    });
  });

  it('a reactivation on a paid year’s first day: active on the year, the balance only, nothing charged for the year (decision 060)', async () => {
    const { user, payment, invoice } = await fresh({ invoice: true });
    expect((await recordCheckFor(user.id, invoice!.id)).statusCode).toBe(200);
    await recordChargeback(t.app.db, { paymentId: payment!.id, now: at('2026-03-20') });
    // Still inactive when the year begins: the run does not pass it for an inactive account.
    await runAt('2026-04-10');
    const paidBefore = await cardPayments(user.id);

    const shown = await reactivateAt(user.id, '2026-04-10');
    expect(shown).toMatchObject({ accountStatus: 'active', nextBillDate: '2027-04-10' });
    // The fee the chargeback left, nothing for the year (decision 058 from its first day on).
    const [charged] = await periodsIn(user.id, '2026-04-10', '2026-04-11', 'reactivation');
    expect(charged).toMatchObject({ status: 'paid', amountCents: 2_500, periodEnd: '2027-04-10' });
    expect(await cardPayments(user.id)).toEqual([...paidBefore, 2_500].sort((a, b) => a - b));
    expect(await subscriptionRow(user.id)).toMatchObject({
      currentPeriodStart: '2026-04-10',
      currentPeriodEnd: '2027-04-10',
    });
    for (const date of ['2026-04-11', '2026-05-10', '2027-03-10']) await runAt(date);
    expect(await periodsIn(user.id, '2026-04-10', '2027-04-10', 'renewal')).toEqual([]);
  });

  it('a reactivation on a paid year’s first day with nothing owed: active on the year at once, nothing sent to the card (decision 060)', async () => {
    const { user, payment, invoice } = await fresh({ invoice: true });
    expect((await recordCheckFor(user.id, invoice!.id)).statusCode).toBe(200);
    await recordChargeback(t.app.db, { paymentId: payment!.id, now: at('2026-03-20') });
    await addOpeningBalance(t, user.id, -(await getBalanceCents(t.app.db, user.id)));
    const paidBefore = await cardPayments(user.id);
    const shown = await reactivateAt(user.id, '2026-04-10');
    expect(shown).toMatchObject({ accountStatus: 'active', nextBillDate: '2027-04-10' });
    expect(await cardPayments(user.id)).toEqual(paidBefore);
    expect(await subscriptionRow(user.id)).toMatchObject({
      currentPeriodStart: '2026-04-10',
      currentPeriodEnd: '2027-04-10',
    });
    await runAt('2026-05-10');
    expect(await periodsIn(user.id, '2026-04-10', '2027-04-10', 'renewal')).toEqual([]);
  });

  it('a pending cancellation whose month before a paid year is declined to R4’s last retry: the month owed, still pending cancel, the year, inactive at its end (decision 060)', async () => {
    const { user } = await fresh();
    await yearFromMay(user.id);
    now = at('2026-03-15');
    try {
      await cancelSubscription(t.app.deps.billing, user.id, {
        cancellationReasonOptions: ['business-is-slow'],
        userProvidedCancelReason: '',
      });
      // A card that declines replaces the good one.
      const { paymentToken } = await issueSandboxToken(
        t.app.db,
        {
          creditCardNumber: '4000000000000002',
          creditCardExpiration: '1230',
          creditCardCode: '123',
        },
        now,
      );
      const replaced = await t.app.inject({
        method: 'PUT',
        url: '/api/users/paymentProfile',
        headers: {
          cookie: `${browser.cookie}; ${await dealer(user.id)}`,
          'x-csrf-token': browser.token,
          'content-type': 'application/json',
        },
        payload: JSON.stringify({
          paymentToken,
          cardBrand: 'visa',
          cardLast4: '0002',
          creditCardExpiration: '1230',
          ...BILLING_ADDRESS,
          requestKey: key(),
        }),
      });
      expect(replaced.statusCode, replaced.body).toBe(200);
    } finally {
      now = NOW;
    }
    // The month before the year (2026-04-10 to 05-10): declined, and R4's retries 1, 3, 5 days on.
    for (const date of ['2026-04-10', '2026-04-11', '2026-04-13', '2026-04-15']) {
      await runAt(date);
      expect((await userRow(user.id)).accountStatus).toBe(ACCOUNT_STATUS.pendingCancel);
    }
    const [month] = await periodsIn(user.id, '2026-04-10', '2026-04-11', 'renewal');
    expect(month).toMatchObject({ status: 'failed', amountCents: 13_800 });
    expect(await getBalanceCents(t.app.db, user.id)).toBe(13_800);
    now = at('2026-04-16');
    try {
      const shown = await get(await dealer(user.id), '/api/users/current');
      expect(shown.json().data).toMatchObject({
        accountStatus: ACCOUNT_STATUS.pendingCancel,
        nextBillDate: '2026-05-10',
        cancellationTakesEffect: '2027-05-10',
      });
    } finally {
      now = NOW;
    }
    // The year: passed at its first day with no charge; the cancellation at its end.
    for (const date of ['2026-04-20', '2026-05-10', '2026-06-10', '2027-04-10']) {
      await runAt(date);
      expect((await userRow(user.id)).accountStatus).toBe(ACCOUNT_STATUS.pendingCancel);
    }
    expect(await subscriptionRow(user.id)).toMatchObject({
      currentPeriodStart: '2026-05-10',
      currentPeriodEnd: '2027-05-10',
    });
    await runAt('2027-05-10');
    expect((await userRow(user.id)).accountStatus).toBe(ACCOUNT_STATUS.inactive);
    // R4: the declined month stays owed; nothing else was billed.
    expect(await getBalanceCents(t.app.db, user.id)).toBe(13_800);
    expect(await periodsIn(user.id, '2026-04-11', '2027-05-11', 'renewal')).toEqual([]);
  });

  it('a pending cancellation with no card on file before a paid year: R4’s declines, still pending cancel, the year, inactive at its end (decision 060)', async () => {
    const { user } = await fresh();
    await yearFromMay(user.id);
    now = at('2026-03-15');
    try {
      await cancelSubscription(t.app.deps.billing, user.id, {
        cancellationReasonOptions: ['business-is-slow'],
        userProvidedCancelReason: '',
      });
    } finally {
      now = NOW;
    }
    await t.app.db
      .update(subscriptions)
      .set({ gatewayCustomerId: null, gatewayPaymentProfileId: null })
      .where(eq(subscriptions.userId, user.id));
    for (const date of ['2026-04-10', '2026-04-11', '2026-04-13', '2026-04-15']) {
      await runAt(date);
      expect((await userRow(user.id)).accountStatus).toBe(ACCOUNT_STATUS.pendingCancel);
    }
    expect(await subscriptionRow(user.id)).toMatchObject({ currentPeriodEnd: '2026-05-10' });
    for (const date of ['2026-05-10', '2027-04-10']) {
      await runAt(date);
      expect((await userRow(user.id)).accountStatus).toBe(ACCOUNT_STATUS.pendingCancel);
    }
    await runAt('2027-05-10');
    expect((await userRow(user.id)).accountStatus).toBe(ACCOUNT_STATUS.inactive);
    expect(await periodsIn(user.id, '2026-04-10', '2027-05-11', 'renewal')).toEqual([]);
  });

  it('a reactivation before a paid year in a month paid, with nothing owed: active at once, nothing sent to the card, the cycle into the year (decision 060)', async () => {
    const { user, payment } = await fresh();
    await yearFromMay(user.id);
    await runAt('2026-04-10');
    await recordChargeback(t.app.db, { paymentId: payment!.id, now: at('2026-04-20') });
    await addOpeningBalance(t, user.id, -(await getBalanceCents(t.app.db, user.id)));
    const paidBefore = await cardPayments(user.id);
    const shown = await reactivateAt(user.id, '2026-04-25');
    expect(shown).toMatchObject({ accountStatus: 'active', nextBillDate: '2026-05-10' });
    expect(await cardPayments(user.id)).toEqual(paidBefore);
    const [period] = await periodsIn(user.id, '2026-04-25', '2026-04-26', 'reactivation');
    expect(period).toMatchObject({ status: 'paid', amountCents: 0, periodEnd: '2026-05-10' });
    for (const date of ['2026-05-10', '2026-06-10']) await runAt(date);
    expect(await periodsIn(user.id, '2026-04-11', '2027-05-10', 'renewal')).toEqual([]);
    expect(await subscriptionRow(user.id)).toMatchObject({
      currentPeriodStart: '2026-05-10',
      currentPeriodEnd: '2027-05-10',
    });
  });

  it('refuses an addition during the year without a card, asking for one', async () => {
    const { user, invoice } = await fresh({ invoice: true, codes: ['NADA'] });
    expect((await recordCheckFor(user.id, invoice!.id, invoice!.totalCents)).statusCode).toBe(200);
    await runAt('2026-04-10');
    await t.app.db
      .update(subscriptions)
      .set({ gatewayCustomerId: null, gatewayPaymentProfileId: null })
      .where(eq(subscriptions.userId, user.id));
    now = at('2026-10-10');
    try {
      await expect(
        changeSubscription(t.app.deps.billing, user.id, {
          codes: ['NADA', 'KBB'],
          idempotencyKey: key(),
          basedOn: { codes: ['NADA'], pendingRemovals: [] },
        }),
      ).rejects.toMatchObject({ code: 'CHANGE_CARD_REQUIRED' });
    } finally {
      now = NOW;
    }
  });
});

import { spawnSync } from 'node:child_process';
import { and, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PaymentGatewayError } from '../../src/adapters/payments/payment-gateway.ts';
import {
  accountEvents,
  balanceEntries,
  mailOutbox,
  payments,
  refunds,
  users,
} from '../../src/db/schema.ts';
import { SESSION_COOKIE } from '../../src/plugins/session.ts';
import { getBalanceCents } from '../../src/services/billing/account-balance.ts';
import { loadMailAttachments } from '../../src/services/mail/mail-attachments.ts';
import {
  auditOf,
  consolePost,
  gatewayRefundsOf,
  plainDealer,
  renewingDealer,
  signedUpDealer,
  staffCookies,
} from '../factories/admin-fixtures.ts';
import { buildTestApp, type TestApp, type TestBrowser } from '../support/helper.ts';
import { sessionFor } from '../factories/sign-in.ts';

const NOW = new Date('2026-03-10T15:00:00Z');
const REASON = 'Goodwill: outage on 8 March';
const key = () => crypto.randomUUID();

const pdfText = (pdf: Buffer) =>
  spawnSync('/usr/bin/pdftotext', ['-', '-'], { input: pdf, encoding: 'latin1' }).stdout;

/**
 * Staff refunds (DECISIONS R12, docs/decisions/026): of an approved payment, up to what is not
 * yet refunded, through the gateway exactly once; the balance, the payment history and a refund
 * receipt follow.
 */
describe('operator console: refunds', () => {
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

  const refundUrl = (userId: string, paymentId: string) =>
    `/api/admin/accounts/${userId}/payments/${paymentId}/refund`;
  const refund = (userId: string, paymentId: string, amountCents: number, requestKey = key()) =>
    consolePost(t, browser, staff.billing.cookie, refundUrl(userId, paymentId), {
      requestKey,
      amountCents,
      reason: REASON,
    });
  const renewing = () =>
    renewingDealer(t, { now: NOW, today: '2026-03-10', previous: '2026-02-10' });
  /** The dealer cancels (R4): within the trial, the sign-up charge is refunded. */
  const cancelAccount = async (userId: string) =>
    t.app.inject({
      method: 'PATCH',
      url: '/api/users/cancel',
      headers: {
        cookie: `${browser.cookie}; ${SESSION_COOKIE}=${await sessionFor(t, userId, NOW)}`,
        'x-csrf-token': browser.token,
        'content-type': 'application/json',
      },
      payload: JSON.stringify({
        cancellationReasonOptions: ['too-expensive'],
        userProvidedCancelReason: '',
      }),
    });
  const refundRows = (paymentId: string) =>
    t.app.db.select().from(refunds).where(eq(refunds.paymentId, paymentId));
  const refundEntries = (userId: string) =>
    t.app.db
      .select()
      .from(balanceEntries)
      .where(and(eq(balanceEntries.userId, userId), like(balanceEntries.source, 'refund%')));
  const dealerGet = async (userId: string, url: string) =>
    t.app.inject({
      method: 'GET',
      url,
      headers: { cookie: `${SESSION_COOKIE}=${await sessionFor(t, userId, NOW)}` },
    });

  it('refunds a trial (sign-up) payment in full: receipt, e-mail, balance and the dealer’s Billing page', async () => {
    const { user, payment } = await signedUpDealer(t, browser);
    const response = await refund(user.id, payment.id, payment.amountCents);
    expect(response.statusCode, response.body).toBe(200);
    const data = response.json().data;
    expect(data).toMatchObject({
      repeated: false,
      account: { accountStatus: 'active', balanceCents: 0 },
      refund: {
        paymentId: payment.id,
        amountCents: payment.amountCents,
        status: 'succeeded',
        paymentRefundedCents: payment.amountCents,
        refundableCents: 0,
      },
    });

    // The money went back once, under the refund's own key.
    const given = await gatewayRefundsOf(t, payment.gatewayTransactionId);
    expect(given.map((row) => [row.amountCents, row.idempotencyKey])).toEqual([
      [payment.amountCents, `staff-refund:${data.refund.refundId}`],
    ]);
    const [row] = await refundRows(payment.id);
    expect(row).toMatchObject({ status: 'succeeded', gatewayRefundId: given[0]!.id });
    const receipt = pdfText(row!.receiptPdf!);
    expect(receipt).toContain('Refund receipt');
    expect(receipt).toContain(data.refund.refundId);
    expect(receipt).toMatch(/Amount refunded \$\d+\.\d\d/);
    expect(receipt).toContain('Visa ending in 1111');

    // The balance is what it was (decision 026): the money given back and the charge forgiven.
    expect(await getBalanceCents(t.app.db, user.id)).toBe(0);
    expect(
      (await refundEntries(user.id)).map((entry) => [entry.kind, entry.amountCents]).sort(),
    ).toEqual(
      [
        ['credit', -payment.amountCents],
        ['payment', payment.amountCents],
      ].sort(),
    );
    const [mail] = await t.app.db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.toAddress, user.email), like(mailOutbox.subject, '%refund%')));
    // The refund receipt goes with the mail, read from the refund row when it is sent.
    expect(mail!.receiptRefundId).toBe(data.refund.refundId);
    const attached = await loadMailAttachments(t.app.db, mail!, t.app.config.billing.timeZone);
    expect(attached.map((file) => file.filename)).toEqual([
      expect.stringMatching(/^\d{4}-\d{2}-\d{2}-refund\.pdf$/),
    ]);
    expect(Buffer.from(attached[0]!.content).equals(row!.receiptPdf!)).toBe(true);
    const [event] = await t.app.db
      .select()
      .from(accountEvents)
      .where(and(eq(accountEvents.userId, user.id), eq(accountEvents.event, 'refund')));
    expect(event).toMatchObject({
      actor: 'staff',
      details: { staffEmail: staff.billing.email, amountCents: payment.amountCents },
    });
    const [audit] = await auditOf(t, user.id);
    expect(audit).toMatchObject({
      id: data.auditId,
      action: 'refund',
      reason: REASON,
      before: { paymentRefundedCents: 0, balanceCents: 0, accountStatus: 'active' },
      after: { paymentRefundedCents: payment.amountCents, refundId: data.refund.refundId },
    });

    // The dealer's payment history shows the payment, what was refunded and the refund receipt.
    const history = await dealerGet(user.id, '/api/users/paymentHistory?year=2026');
    expect(history.statusCode).toBe(200);
    const [shown] = history.json().data.payments;
    expect(shown).toMatchObject({
      amount: payment.amountCents / 100,
      refundedAmount: payment.amountCents / 100,
      refunds: [{ refundDate: '2026-03-10', amount: payment.amountCents / 100 }],
    });
    expect(Buffer.from(shown.refunds[0].receiptBlob, 'base64').equals(row!.receiptPdf!)).toBe(true);
    const current = await dealerGet(user.id, '/api/users/current');
    expect(current.json().data).toMatchObject({ currentBalance: 0, accountStatus: 'active' });

    // Nothing is left to refund.
    const more = await refund(user.id, payment.id, 1);
    expect(more.statusCode).toBe(409);
    expect(more.json().code).toBe('REFUND_NOT_ALLOWED');
  });

  it('refunds partly, twice, up to the payment; beyond it is 409 and nothing moves', async () => {
    const { user, payment } = await renewing();
    const total = payment!.amountCents;
    const first = await refund(user.id, payment!.id, 1000);
    expect(first.json().data.refund).toMatchObject({
      paymentRefundedCents: 1000,
      refundableCents: total - 1000,
    });
    const tooMuch = await refund(user.id, payment!.id, total - 999);
    expect(tooMuch.statusCode).toBe(409);
    expect(tooMuch.json().code).toBe('REFUND_NOT_ALLOWED');
    const rest = await refund(user.id, payment!.id, total - 1000);
    expect(rest.json().data.refund).toMatchObject({
      paymentRefundedCents: total,
      refundableCents: 0,
    });
    expect((await refundRows(payment!.id)).map((row) => row.status)).toEqual([
      'succeeded',
      'succeeded',
    ]);
    const given = await gatewayRefundsOf(t, payment!.gatewayTransactionId);
    expect(given.map((row) => row.amountCents).sort()).toEqual([1000, total - 1000].sort());
    expect(await getBalanceCents(t.app.db, user.id)).toBe(0);
    // The second receipt names what the first refund gave back.
    const second = (await refundRows(payment!.id)).find((row) => row.amountCents !== 1000)!;
    expect(pdfText(second.receiptPdf!)).toContain('Refunded before');
    const history = await dealerGet(user.id, '/api/users/paymentHistory?year=2026');
    const [shown] = history.json().data.payments;
    expect(shown.refundedAmount).toBe(total / 100);
    // Both settled at the test's one instant: their order within the day is not the point.
    expect(shown.refunds.map((given: { amount: number }) => given.amount).sort()).toEqual(
      [10, (total - 1000) / 100].sort(),
    );
  });

  it('the same request key twice refunds once and answers the first result', async () => {
    const { user, payment } = await renewing();
    const requestKey = key();
    const first = await refund(user.id, payment!.id, 500, requestKey);
    const second = await refund(user.id, payment!.id, 500, requestKey);
    expect(second.statusCode).toBe(200);
    expect(second.json().data).toMatchObject({
      auditId: first.json().data.auditId,
      repeated: true,
      refund: { refundId: first.json().data.refund.refundId, paymentRefundedCents: 500 },
    });
    expect(await gatewayRefundsOf(t, payment!.gatewayTransactionId)).toHaveLength(1);
    expect(await refundRows(payment!.id)).toHaveLength(1);
    expect(await auditOf(t, user.id)).toHaveLength(1);
    expect(await refundEntries(user.id)).toHaveLength(2);
  });

  it('a double click (the same key at once) refunds once', async () => {
    const { user, payment } = await renewing();
    const requestKey = key();
    const answers = await Promise.all([
      refund(user.id, payment!.id, 700, requestKey),
      refund(user.id, payment!.id, 700, requestKey),
    ]);
    const statuses = answers.map((answer) => answer.statusCode).sort();
    expect(statuses[0]).toBe(200);
    // The second waits for the first's answer, or is told it is in progress.
    expect([200, 409]).toContain(statuses[1]);
    expect(await gatewayRefundsOf(t, payment!.gatewayTransactionId)).toHaveLength(1);
    expect((await refundRows(payment!.id)).map((row) => row.status)).toEqual(['succeeded']);
    expect(await auditOf(t, user.id)).toHaveLength(1);
  });

  it('two requests at once with different keys: only what is refundable goes out', async () => {
    const { user, payment } = await renewing();
    const total = payment!.amountCents;
    const part = Math.ceil(total * 0.6);
    const answers = await Promise.all([
      refund(user.id, payment!.id, part),
      refund(user.id, payment!.id, part),
    ]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    const refused = answers.find((answer) => answer.statusCode === 409)!;
    expect(refused.json().code).toBe('REFUND_NOT_ALLOWED');
    const given = await gatewayRefundsOf(t, payment!.gatewayTransactionId);
    expect(given.map((row) => row.amountCents)).toEqual([part]);
    expect(await refundRows(payment!.id)).toHaveLength(1);
  });

  it('a gateway refusal: 502 REFUND_FAILED, the refund failed, nothing recorded as refunded', async () => {
    const { user, payment } = await renewing();
    // Someone refunded the charge at the gateway directly, outside DealerPass: the gateway now
    // refuses any more.
    await t.app.payments.refund({
      transactionId: payment!.gatewayTransactionId,
      amountCents: payment!.amountCents,
      idempotencyKey: 'outside-dealerpass',
    });
    const requestKey = key();
    const response = await refund(user.id, payment!.id, 300, requestKey);
    expect(response.statusCode).toBe(502);
    expect(response.json().code).toBe('REFUND_FAILED');
    const [row] = await refundRows(payment!.id);
    expect(row).toMatchObject({ status: 'failed', failureReason: 'refund_not_allowed' });
    expect(await refundEntries(user.id)).toEqual([]);
    expect(await getBalanceCents(t.app.db, user.id)).toBe(0);
    const events = await t.app.db
      .select()
      .from(accountEvents)
      .where(and(eq(accountEvents.userId, user.id), eq(accountEvents.event, 'refund')));
    expect(events).toEqual([]);
    const history = await dealerGet(user.id, '/api/users/paymentHistory?year=2026');
    expect(history.json().data.payments[0].refunds).toBeUndefined();
    const [audit] = await auditOf(t, user.id);
    expect(audit).toMatchObject({ action: 'refund', after: { refundStatus: 'failed' } });
    // The same request again answers the same failure and asks the gateway nothing more.
    const again = await refund(user.id, payment!.id, 300, requestKey);
    expect(again.statusCode).toBe(502);
    expect(await gatewayRefundsOf(t, payment!.gatewayTransactionId)).toHaveLength(1);
    expect(await auditOf(t, user.id)).toHaveLength(1);
  });

  it('a payment the trial cancellation refunded is fully refunded already', async () => {
    const { user, payment } = await signedUpDealer(t, browser);
    const cancel = await cancelAccount(user.id);
    expect(cancel.statusCode, cancel.body).toBe(200);
    const response = await refund(user.id, payment.id, 100);
    expect(response.statusCode).toBe(409);
    expect(response.json().code).toBe('REFUND_NOT_ALLOWED');
    expect(await gatewayRefundsOf(t, payment.gatewayTransactionId)).toHaveLength(1);
  });

  it('a trial cancellation after a partial staff refund refunds only the rest', async () => {
    const { user, payment } = await signedUpDealer(t, browser);
    expect((await refund(user.id, payment.id, 2000)).statusCode).toBe(200);
    const cancel = await cancelAccount(user.id);
    expect(cancel.statusCode, cancel.body).toBe(200);
    const given = await gatewayRefundsOf(t, payment.gatewayTransactionId);
    expect(given.map((row) => row.amountCents).sort((a, b) => a - b)).toEqual(
      [2000, payment.amountCents - 2000].sort((a, b) => a - b),
    );
    const [paid] = await t.app.db.select().from(payments).where(eq(payments.id, payment.id));
    expect(paid!.status).toBe('refunded');
    expect(await getBalanceCents(t.app.db, user.id)).toBe(0);
  });

  it('a staff refund while the trial cancellation waits for the gateway is refused: the charge goes back once', async () => {
    const { user, payment } = await signedUpDealer(t, browser);
    const refundAtGateway = t.app.payments.refund.bind(t.app.payments);
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let asked!: () => void;
    const gatewayAsked = new Promise<void>((resolve) => (asked = resolve));
    // The cancellation's refund reaches the gateway and waits there.
    const held = vi.spyOn(t.app.payments, 'refund').mockImplementationOnce(async (input) => {
      asked();
      await released;
      return refundAtGateway(input);
    });
    try {
      const cancelling = cancelAccount(user.id);
      await gatewayAsked;
      const response = await refund(user.id, payment.id, payment.amountCents);
      expect(response.statusCode).toBe(409);
      expect(response.json().code).toBe('REFUND_NOT_ALLOWED');
      release();
      const cancel = await cancelling;
      expect(cancel.statusCode, cancel.body).toBe(200);
    } finally {
      held.mockRestore();
    }
    const given = await gatewayRefundsOf(t, payment.gatewayTransactionId);
    expect(given.map((row) => row.amountCents)).toEqual([payment.amountCents]);
    expect(await refundRows(payment.id)).toEqual([]);
    expect(await auditOf(t, user.id)).toEqual([]);
  });

  it('a trial cancellation the gateway did not answer keeps its claim; the retry refunds the same amount, once', async () => {
    const { user, payment } = await signedUpDealer(t, browser);
    expect((await refund(user.id, payment.id, 1500)).statusCode).toBe(200);
    const refundAtGateway = t.app.payments.refund.bind(t.app.payments);
    const lost = vi.spyOn(t.app.payments, 'refund').mockImplementationOnce(async (input) => {
      await refundAtGateway(input);
      throw new PaymentGatewayError('network_error', 'no answer in time');
    });
    try {
      const first = await cancelAccount(user.id);
      expect(first.statusCode).toBe(400);
      expect(first.json().code).toBe('CANCEL_ACCOUNT_FAILED');
    } finally {
      lost.mockRestore();
    }
    // The claim holds: no staff refund opens on the payment in between.
    expect((await refund(user.id, payment.id, 100)).json().code).toBe('REFUND_NOT_ALLOWED');
    const retry = await cancelAccount(user.id);
    expect(retry.statusCode, retry.body).toBe(200);
    const given = await gatewayRefundsOf(t, payment.gatewayTransactionId);
    expect(given.map((row) => row.amountCents).sort((a, b) => a - b)).toEqual(
      [1500, payment.amountCents - 1500].sort((a, b) => a - b),
    );
    const [paid] = await t.app.db.select().from(payments).where(eq(payments.id, payment.id));
    expect(paid).toMatchObject({
      status: 'refunded',
      refundClaimedCents: payment.amountCents - 1500,
    });
  });

  it('a trial cancellation the gateway refused gives the payment back to staff refunds', async () => {
    const { user, payment } = await signedUpDealer(t, browser);
    const refused = vi
      .spyOn(t.app.payments, 'refund')
      .mockRejectedValueOnce(new PaymentGatewayError('refund_not_allowed', 'refund refused'));
    try {
      expect((await cancelAccount(user.id)).statusCode).toBe(400);
    } finally {
      refused.mockRestore();
    }
    const [kept] = await t.app.db.select().from(payments).where(eq(payments.id, payment.id));
    expect(kept).toMatchObject({ status: 'succeeded', refundClaimedAt: null });
    const response = await refund(user.id, payment.id, payment.amountCents);
    expect(response.statusCode, response.body).toBe(200);
  });

  it('a refund whose gateway answer was lost stays pending and is completed once by the same key', async () => {
    const { user, payment } = await renewing();
    // The gateway refunds, but its answer never arrives (a timeout): a retryable failure.
    const refundAtGateway = t.app.payments.refund.bind(t.app.payments);
    const lost = vi.spyOn(t.app.payments, 'refund').mockImplementationOnce(async (input) => {
      await refundAtGateway(input);
      throw new PaymentGatewayError('network_error', 'no answer in time');
    });
    try {
      const requestKey = key();
      const first = await refund(user.id, payment!.id, 900, requestKey);
      expect(first.statusCode).toBe(409);
      expect(first.json().code).toBe('ACTION_IN_PROGRESS');
      expect((await refundRows(payment!.id)).map((row) => row.status)).toEqual(['pending']);
      expect(await refundEntries(user.id)).toEqual([]);
      // Its key is no other action's while it is pending either.
      const clash = await consolePost(
        t,
        browser,
        staff.billing.cookie,
        `/api/admin/accounts/${user.id}/block`,
        { requestKey, reason: REASON },
      );
      expect(clash.statusCode).toBe(409);
      expect(clash.json().code).toBe('REQUEST_KEY_REUSED');
      // In flight, it counts against what is left: the rest only, not a cent more.
      const tooMuch = await refund(user.id, payment!.id, payment!.amountCents - 899);
      expect(tooMuch.json().code).toBe('REFUND_NOT_ALLOWED');
      // Within the first request's minute the same key waits; after it, it completes the refund.
      expect((await refund(user.id, payment!.id, 900, requestKey)).statusCode).toBe(409);
      now = new Date(NOW.getTime() + 2 * 60_000);
      const resumed = await refund(user.id, payment!.id, 900, requestKey);
      expect(resumed.statusCode, resumed.body).toBe(200);
      expect(resumed.json().data.refund).toMatchObject({
        amountCents: 900,
        paymentRefundedCents: 900,
      });
      const given = await gatewayRefundsOf(t, payment!.gatewayTransactionId);
      expect(given.map((row) => row.amountCents)).toEqual([900]);
      expect((await refundRows(payment!.id)).map((row) => row.status)).toEqual(['succeeded']);
      expect(await auditOf(t, user.id)).toHaveLength(1);
    } finally {
      lost.mockRestore();
      now = NOW;
    }
  });

  it('a charged-back payment has nothing left to refund, and the account page says so', async () => {
    const { user, payment } = await renewing();
    const paymentView = async () => {
      const response = await t.app.inject({
        method: 'GET',
        url: `/api/admin/accounts/${user.id}`,
        headers: { cookie: staff.billing.cookie },
      });
      const views = response.json().data.payments as { paymentId: string }[];
      return views.find((view) => view.paymentId === payment!.id);
    };
    expect(await paymentView()).toMatchObject({
      refundableCents: payment!.amountCents,
      chargedBackAt: null,
    });
    // A refund in flight counts against what is left, on the page as in the check.
    const pending = await t.app.db
      .insert(refunds)
      .values({
        paymentId: payment!.id,
        userId: user.id,
        amountCents: 500,
        status: 'pending',
        requestKey: key(),
        reason: REASON,
        staffId: staff.billing.staffId,
        receiptPdf: Buffer.from('%PDF-'),
        createdAt: NOW,
      })
      .returning();
    expect((await paymentView())!).toMatchObject({ refundableCents: payment!.amountCents - 500 });
    await t.app.db.delete(refunds).where(eq(refunds.id, pending[0]!.id));

    const chargeback = await consolePost(
      t,
      browser,
      staff.billing.cookie,
      `/api/admin/accounts/${user.id}/payments/${payment!.id}/chargeback`,
      { requestKey: key(), reason: 'Dispute 5120 from the card network' },
    );
    expect(chargeback.statusCode, chargeback.body).toBe(200);
    expect(await paymentView()).toMatchObject({
      refundableCents: 0,
      chargedBackAt: NOW.toISOString(),
    });
    // The card network gave the money back already: a refund would give it twice.
    const response = await refund(user.id, payment!.id, 100);
    expect(response.statusCode).toBe(409);
    expect(response.json().code).toBe('REFUND_NOT_ALLOWED');
    expect(await gatewayRefundsOf(t, payment!.gatewayTransactionId)).toEqual([]);
    expect(await refundRows(payment!.id)).toEqual([]);
  });

  it('another account’s payment, or an unknown one, is 404', async () => {
    const { payment } = await renewing();
    const stranger = await plainDealer(t);
    for (const paymentId of [payment!.id, crypto.randomUUID()]) {
      const response = await refund(stranger.id, paymentId, 100);
      expect(response.statusCode).toBe(404);
    }
    expect(await refundRows(payment!.id)).toEqual([]);
    const [kept] = await t.app.db.select().from(users).where(eq(users.id, stranger.id));
    expect(kept!.accountStatus).toBe('active');
  });
});

import { and, eq, like } from 'drizzle-orm';
import { formatCalendarDate, parseIsoDate } from '@dealerpass/domain/time/calendar-date';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox } from '../../src/db/schema.ts';
import { SESSION_COOKIE } from '../../src/plugins/session.ts';
import { consolePost, signedUpDealer, staffCookies } from '../factories/admin-fixtures.ts';
import { buildTestApp, type TestApp, type TestBrowser } from '../support/helper.ts';
import { sessionFor } from '../factories/sign-in.ts';

const NOW = new Date('2026-03-10T15:00:00Z');
const PDF = /^JVBERi0/;

/**
 * What the dealer sees of a refund (R4's trial refund, R12's staff refund): the payment stays in
 * Payment History as refunded, with a refund receipt, and an e-mail tells them, dates as the
 * account shows every date (000 §4: 'Mar 10, 2026', never '2026-03-10').
 */
describe('refunds as the dealer sees them', () => {
  let t: TestApp;
  let browser: TestBrowser;

  beforeAll(async () => {
    t = await buildTestApp({ now: () => NOW });
    browser = await t.browser();
  }, 60_000);
  afterAll(() => t.close());

  const dealerRequest = async (
    userId: string,
    method: 'GET' | 'PATCH',
    url: string,
    body?: object,
  ) =>
    t.app.inject({
      method,
      url,
      headers: {
        cookie: `${browser.cookie}; ${SESSION_COOKIE}=${await sessionFor(t, userId, NOW)}`,
        'x-csrf-token': browser.token,
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      ...(body ? { payload: JSON.stringify(body) } : {}),
    });
  const refundMailsOf = (email: string) =>
    t.app.db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.toAddress, email), like(mailOutbox.subject, '%refund%')));

  it('a trial cancellation leaves the payment in Payment History as refunded, with its receipt, and e-mails the refund', async () => {
    const { user, payment } = await signedUpDealer(t, browser);
    const cancel = await dealerRequest(user.id, 'PATCH', '/api/users/cancel', {
      cancellationReasonOptions: ['too-expensive'],
      userProvidedCancelReason: '',
    });
    expect(cancel.statusCode, cancel.body).toBe(200);
    expect(cancel.json().data.accountStatus).toBe('inactive');

    const history = await dealerRequest(user.id, 'GET', '/api/users/paymentHistory?year=2026');
    expect(history.statusCode, history.body).toBe(200);
    const rows = history.json().data.payments;
    const amount = payment.amountCents / 100;
    expect(rows).toEqual([
      expect.objectContaining({
        activationDate: '2026-03-10',
        amount,
        refundedAmount: amount,
        refunds: [{ refundDate: '2026-03-10', amount, receiptBlob: expect.stringMatching(PDF) }],
      }),
    ]);
    // The receipt is one document, whenever it is asked for.
    const again = await dealerRequest(user.id, 'GET', '/api/users/paymentHistory?year=2026');
    expect(again.json().data.payments[0].refunds[0].receiptBlob).toBe(
      rows[0].refunds[0].receiptBlob,
    );

    const mails = await refundMailsOf(user.email);
    expect(mails).toHaveLength(1);
    const [mail] = mails;
    expect(mail!.subject).toContain(`refund of $${amount.toFixed(2)}`);
    expect(mail!.textBody).toContain(
      `your payment of ${formatCalendarDate(parseIsoDate('2026-03-10'))}`,
    );
    expect(mail!.textBody).not.toContain('2026-03-10');
    expect(mail!.textBody).toContain('Payment History');
    expect(mail!.textBody).not.toContain('attached');
  });

  it('a staff refund’s e-mail writes the payment’s date as the account does', async () => {
    const staff = await staffCookies(t);
    const { user, payment } = await signedUpDealer(t, browser);
    const response = await consolePost(
      t,
      browser,
      staff.billing.cookie,
      `/api/admin/accounts/${user.id}/payments/${payment.id}/refund`,
      { requestKey: crypto.randomUUID(), amountCents: 500, reason: 'Goodwill' },
    );
    expect(response.statusCode, response.body).toBe(200);
    const [mail] = await refundMailsOf(user.email);
    expect(mail!.textBody).toContain('your payment of Mar 10, 2026');
    expect(mail!.textBody).not.toMatch(/\d{4}-\d{2}-\d{2}/);
  }, 60_000);
});

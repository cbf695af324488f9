import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHARGEBACK_FEE_CENTS } from '@dealerpass/domain/billing/renewal-calendar';
import {
  accountEvents,
  balanceEntries,
  billingPeriods,
  paymentDeclines,
  sandboxGatewayTransactions,
  subscriptions,
  users,
} from '../../src/db/schema.ts';
import { SESSION_COOKIE } from '../../src/plugins/session.ts';
import { getBalanceCents } from '../../src/services/billing/account-balance.ts';
import { runBilling } from '../../src/services/billing/run-billing.ts';
import { issueSandboxToken } from '../../src/sandboxes/payments/sandbox-tokens.ts';
import {
  APPROVED_CARD,
  auditOf,
  consolePost,
  DECLINED_CARD,
  plainDealer,
  renewingDealer,
  signedUpDealer,
  staffCookies,
} from '../factories/admin-fixtures.ts';
import { buildTestApp, type TestApp, type TestBrowser } from '../support/helper.ts';
import { sessionFor } from '../factories/sign-in.ts';

const NOW = new Date('2026-03-10T15:00:00Z');
const TODAY = '2026-03-10';
const PREVIOUS = '2026-02-10';
const REASON = 'Customer called the support line';
const key = () => crypto.randomUUID();

/**
 * The billing role's account actions besides refunds (DECISIONS R12, docs/decisions/026):
 * complimentary, chargebacks, a renewal retried now, balance credits and charges. Refunds are
 * admin-refunds.test.ts; the role matrix and support's actions admin-actions.test.ts.
 */
describe('operator console: billing actions', () => {
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

  const post = (cookie: string | null, url: string, body: object) =>
    consolePost(t, browser, cookie, url, body);
  const url = (userId: string, path: string) => `/api/admin/accounts/${userId}/${path}`;
  const userRow = async (userId: string) =>
    (await t.app.db.select().from(users).where(eq(users.id, userId)))[0]!;
  const renewing = (card?: string) =>
    renewingDealer(t, { now: NOW, today: TODAY, previous: PREVIOUS, ...(card ? { card } : {}) });

  describe('billing', () => {
    it('complimentary: the run waives an active complimentary account’s period; off charges again', async () => {
      const { user } = await renewing();
      const on = await post(staff.billing.cookie, url(user.id, 'complimentary'), {
        requestKey: key(),
        on: true,
      });
      expect(on.json().data.account).toMatchObject({ complimentary: true });
      expect((await userRow(user.id)).complimentary).toBe(true);
      const twice = await post(staff.billing.cookie, url(user.id, 'complimentary'), {
        requestKey: key(),
        on: true,
      });
      expect(twice.statusCode).toBe(409);
      // The next bill date (2026-04-10) arrives: waived, nothing charged.
      now = new Date('2026-04-10T15:00:00Z');
      try {
        await runBilling(t.app.deps.billing, { userId: user.id });
      } finally {
        now = NOW;
      }
      const periods = await t.app.db
        .select()
        .from(billingPeriods)
        .where(eq(billingPeriods.userId, user.id));
      expect(periods.map((period) => period.status).sort()).toEqual(['paid', 'waived']);
      const off = await post(staff.billing.cookie, url(user.id, 'complimentary'), {
        requestKey: key(),
        on: false,
        reason: 'Trial of the partnership ended',
      });
      expect(off.json().data.account).toMatchObject({ complimentary: false });
      now = new Date('2026-05-10T15:00:00Z');
      try {
        await runBilling(t.app.deps.billing, { userId: user.id });
      } finally {
        now = NOW;
      }
      const charged = await t.app.db
        .select()
        .from(billingPeriods)
        .where(eq(billingPeriods.userId, user.id));
      expect(charged.map((period) => period.status).sort()).toEqual(['paid', 'paid', 'waived']);
      const events = await t.app.db
        .select()
        .from(accountEvents)
        .where(and(eq(accountEvents.userId, user.id), eq(accountEvents.actor, 'staff')));
      expect(events.map((event) => event.event).sort()).toEqual([
        'complimentary off',
        'complimentary on',
      ]);
      const audit = await auditOf(t, user.id);
      expect(audit.map((row) => row.action)).toEqual(['complimentaryOn', 'complimentaryOff']);
      expect(audit[0]).toMatchObject({
        before: { complimentary: false },
        after: { complimentary: true },
      });
      // Only an active account is made complimentary.
      const { user: failing } = await renewing(DECLINED_CARD);
      const refused = await post(staff.billing.cookie, url(failing.id, 'complimentary'), {
        requestKey: key(),
        on: true,
      });
      expect(refused.statusCode).toBe(409);
    });

    it('records a chargeback: R4’s fee and inactive, once, naming the member', async () => {
      const { user, payment } = await renewing();
      const body = { requestKey: key(), reason: 'Dispute 4411 from the card network' };
      const path = url(user.id, `payments/${payment!.id}/chargeback`);
      const response = await post(staff.billing.cookie, path, body);
      expect(response.statusCode).toBe(200);
      expect(response.json().data.account).toMatchObject({
        accountStatus: 'inactive',
        balanceCents: CHARGEBACK_FEE_CENTS,
      });
      expect((await post(staff.billing.cookie, path, body)).json().data.repeated).toBe(true);
      const other = await post(staff.billing.cookie, path, { ...body, requestKey: key() });
      expect(other.statusCode).toBe(409);
      expect(await getBalanceCents(t.app.db, user.id)).toBe(CHARGEBACK_FEE_CENTS);
      const events = await t.app.db
        .select()
        .from(accountEvents)
        .where(and(eq(accountEvents.userId, user.id), eq(accountEvents.actor, 'staff')));
      expect(events.map((event) => event.toStatus ?? event.event).sort()).toEqual([
        'chargeback',
        'inactive',
      ]);
      for (const event of events)
        expect(event.details).toMatchObject({ staffEmail: staff.billing.email });
      const [audit] = await auditOf(t, user.id);
      expect(audit).toMatchObject({
        action: 'chargeback',
        before: { accountStatus: 'active', balanceCents: 0 },
        after: { accountStatus: 'inactive', balanceCents: CHARGEBACK_FEE_CENTS },
      });
      // Another account's payment is not found through this one.
      const stranger = await plainDealer(t);
      const notFound = await post(
        staff.billing.cookie,
        url(stranger.id, `payments/${payment!.id}/chargeback`),
        { requestKey: key(), reason: REASON },
      );
      expect(notFound.statusCode).toBe(404);
    });

    it('a chargeback recorded on the day of the payment still lets the dealer reactivate that day (issue 25 item 3)', async () => {
      // The charged-back period started today, as a sign-up's or a renewal's does: the
      // reactivation's new period starts today too, and must not be refused as "already billed".
      const { user, payment } = await signedUpDealer(t, browser);
      const chargeback = await post(
        staff.billing.cookie,
        url(user.id, `payments/${payment.id}/chargeback`),
        { requestKey: key(), reason: REASON },
      );
      expect(chargeback.statusCode).toBe(200);
      expect((await userRow(user.id)).accountStatus).toBe('inactive');
      const token = await issueSandboxToken(
        t.app.db,
        { creditCardNumber: APPROVED_CARD, creditCardExpiration: '1230', creditCardCode: '123' },
        NOW,
      );
      const reactivated = await t.app.inject({
        method: 'PUT',
        url: '/api/users/reactivate',
        headers: {
          cookie: `${browser.cookie}; ${SESSION_COOKIE}=${await sessionFor(t, user.id, NOW)}`,
          'x-csrf-token': browser.token,
          'content-type': 'application/json',
        },
        payload: JSON.stringify({
          requestKey: key(),
          paymentToken: token.paymentToken,
          cardBrand: 'visa',
          cardLast4: '1111',
          creditCardExpiration: '1230',
          billingFirstName: 'Pat',
          billingLastName: 'Payer',
          billingCountry: 'US',
          billingAddress1: '2 Bill St',
          billingAddress2: '',
          billingCity: 'Lansing',
          billingState: 'MI',
          billingZip: '48901',
        }),
      });
      expect(reactivated.statusCode, reactivated.body).toBe(200);
      expect((await userRow(user.id)).accountStatus).toBe('active');
      // The month and R4's fee were charged, and nothing is owed after.
      expect(await getBalanceCents(t.app.db, user.id)).toBe(0);
      const periods = await t.app.db
        .select()
        .from(billingPeriods)
        .where(eq(billingPeriods.userId, user.id));
      const reactivation = periods.find((period) => period.kind === 'reactivation');
      expect(reactivation).toMatchObject({ status: 'paid', periodStart: TODAY });
      expect(reactivation!.amountCents).toBe(payment.amountCents + CHARGEBACK_FEE_CENTS);
    });

    /**
     * A failed renewal (validating payment) whose card works again: the dealer's bank fixed it,
     * and no new card was saved, so nothing has retried it yet. `charges` are the approved
     * charges of that card at the gateway.
     */
    async function fixedCardDealer() {
      const { user, customer } = await renewing(DECLINED_CARD);
      const token = await issueSandboxToken(
        t.app.db,
        { creditCardNumber: APPROVED_CARD, creditCardExpiration: '1230', creditCardCode: '123' },
        NOW,
      );
      const replaced = await t.app.payments.replacePaymentProfile({
        customerProfileId: customer.customerProfileId,
        paymentToken: token.paymentToken,
      });
      await t.app.db
        .update(subscriptions)
        .set({ gatewayPaymentProfileId: replaced.paymentProfileId })
        .where(eq(subscriptions.userId, user.id));
      const charges = async () =>
        (
          await t.app.db
            .select()
            .from(sandboxGatewayTransactions)
            .where(eq(sandboxGatewayTransactions.paymentProfileId, replaced.paymentProfileId))
        ).filter((row) => row.kind === 'charge' && row.status === 'approved');
      return { user, charges };
    }

    it('retries a failed renewal now through the run, charging once per attempt', async () => {
      const { user, charges } = await fixedCardDealer();
      expect((await userRow(user.id)).accountStatus).toBe('validating payment');
      const owed = await getBalanceCents(t.app.db, user.id);
      expect(owed).toBeGreaterThan(0);
      const body = { requestKey: key(), reason: 'Bank confirmed the card' };
      const response = await post(staff.billing.cookie, url(user.id, 'retry-renewal'), body);
      expect(response.statusCode).toBe(200);
      expect(response.json().data.account).toMatchObject({
        accountStatus: 'active',
        balanceCents: 0,
      });
      expect(await charges()).toHaveLength(1);
      const again = await post(staff.billing.cookie, url(user.id, 'retry-renewal'), body);
      expect(again.json().data.repeated).toBe(true);
      const other = await post(staff.billing.cookie, url(user.id, 'retry-renewal'), {
        requestKey: key(),
      });
      expect(other.statusCode).toBe(409);
      expect(other.json().code).toBe('ACTION_NOT_ALLOWED');
      expect(await charges()).toHaveLength(1);
      const [audit] = await auditOf(t, user.id);
      expect(audit).toMatchObject({
        action: 'retryRenewal',
        before: { accountStatus: 'validating payment', balanceCents: owed, failedAttempts: 1 },
      });
    });

    it('two retries at once with different keys charge the renewal once', async () => {
      const { user, charges } = await fixedCardDealer();
      const answers = await Promise.all(
        [key(), key()].map((requestKey) =>
          post(staff.billing.cookie, url(user.id, 'retry-renewal'), { requestKey }),
        ),
      );
      const statuses = answers.map((answer) => answer.statusCode).sort();
      expect(statuses[0]).toBe(200);
      expect([200, 409]).toContain(statuses[1]);
      expect(await charges()).toHaveLength(1);
      expect((await userRow(user.id)).accountStatus).toBe('active');
      expect(await getBalanceCents(t.app.db, user.id)).toBe(0);
    });

    it('refuses a retry while the attempt’s charge is in flight', async () => {
      const { user } = await renewing(DECLINED_CARD);
      const [subscription] = await t.app.db
        .select()
        .from(subscriptions)
        .where(eq(subscriptions.userId, user.id));
      // A run claimed the attempt: its card on the period and a lease on the account.
      await t.app.db
        .update(billingPeriods)
        .set({ gatewayPaymentProfileId: subscription!.gatewayPaymentProfileId })
        .where(and(eq(billingPeriods.userId, user.id), eq(billingPeriods.status, 'due')));
      await t.app.db
        .update(subscriptions)
        .set({ nextRetryAt: new Date(NOW.getTime() + 30_000) })
        .where(eq(subscriptions.userId, user.id));
      const response = await post(staff.billing.cookie, url(user.id, 'retry-renewal'), {
        requestKey: key(),
      });
      expect(response.statusCode).toBe(409);
      expect(response.json().code).toBe('ACTION_IN_PROGRESS');
      expect(await auditOf(t, user.id)).toEqual([]);
    });

    it('a declined staff retry says declined and is one attempt more: the schedule stays as it was (R16)', async () => {
      const { user } = await renewing(DECLINED_CARD);
      // The schedule's last retry is still to come: two scheduled attempts have failed after the
      // renewal's own, and the third retry is due in two days.
      const lastRetryAt = new Date(NOW.getTime() + 2 * 86_400_000);
      await t.app.db
        .update(subscriptions)
        .set({ failedAttempts: 3, nextRetryAt: lastRetryAt })
        .where(eq(subscriptions.userId, user.id));
      const owed = await getBalanceCents(t.app.db, user.id);
      const body = { requestKey: key(), reason: 'Dealer asked us to try again' };
      const retried = await post(staff.billing.cookie, url(user.id, 'retry-renewal'), body);
      expect(retried.statusCode).toBe(200);
      expect(retried.json().data).toMatchObject({
        outcome: 'declined',
        declineReason: 'declined',
        account: { accountStatus: 'validating payment', balanceCents: owed },
      });
      const [subscription] = await t.app.db
        .select()
        .from(subscriptions)
        .where(eq(subscriptions.userId, user.id));
      expect(subscription).toMatchObject({ failedAttempts: 3, nextRetryAt: lastRetryAt });
      expect((await userRow(user.id)).accountStatus).toBe('validating payment');
      // The repeat of the same request answers the same outcome and charges nothing again.
      const again = await post(staff.billing.cookie, url(user.id, 'retry-renewal'), body);
      expect(again.json().data).toMatchObject({ repeated: true, outcome: 'declined' });
      const declines = await t.app.db
        .select()
        .from(paymentDeclines)
        .where(eq(paymentDeclines.userId, user.id));
      expect(declines.map((row) => row.kind).sort()).toEqual(['renewal', 'staff retry']);
      // The schedule's own last attempt, at its date, is the one that makes the account inactive.
      now = lastRetryAt;
      try {
        await runBilling(t.app.deps.billing, { userId: user.id });
      } finally {
        now = NOW;
      }
      expect((await userRow(user.id)).accountStatus).toBe('inactive');
    });

    it('the console’s dunning figures come from the domain and agree with the dealer’s change page (issue 25 item 11)', async () => {
      const { user } = await renewing(DECLINED_CARD);
      // The renewal of TODAY failed once; a staff retry declined too (not a scheduled attempt).
      await post(staff.billing.cookie, url(user.id, 'retry-renewal'), { requestKey: key() });
      const page = await t.app.inject({
        method: 'GET',
        url: `/api/admin/accounts/${user.id}`,
        headers: { cookie: staff.support.cookie },
      });
      const detail = page.json().data;
      const [subscription] = await t.app.db
        .select()
        .from(subscriptions)
        .where(eq(subscriptions.userId, user.id));
      expect(detail.subscription).toMatchObject({
        scheduledAttempts: { made: 1, left: 3 },
        nextScheduledRetryAt: subscription!.nextRetryAt!.toISOString(),
      });
      // Its unpaid bill date is today: the next bill is the one after it, as the change page says.
      expect(detail.status.nextBillDate).toBe('2026-04-10');
      // A validating-payment account may remove items (R10): its preview names the next bill.
      const preview = await t.app.inject({
        method: 'GET',
        url: '/api/users/subscriptions/change?codes=NADA',
        headers: { cookie: `${SESSION_COOKIE}=${await sessionFor(t, user.id, NOW)}` },
      });
      expect(preview.statusCode, preview.body).toBe(200);
      expect(preview.json().data.nextBillDate).toBe(detail.status.nextBillDate);
      // The period's charges tried: the renewal's and the staff retry's.
      expect(detail.retries[0]).toMatchObject({ status: 'due', attempts: 2 });
    });

    it('an approved staff retry answers paid', async () => {
      const { user } = await fixedCardDealer();
      const retried = await post(staff.billing.cookie, url(user.id, 'retry-renewal'), {
        requestKey: key(),
      });
      expect(retried.json().data).toMatchObject({
        outcome: 'paid',
        declineReason: null,
        account: { accountStatus: 'active', balanceCents: 0 },
      });
    });

    it('records every declined attempt with its reason, so the account page shows why each failed', async () => {
      const { user } = await renewing(DECLINED_CARD);
      const retried = await post(staff.billing.cookie, url(user.id, 'retry-renewal'), {
        requestKey: key(),
      });
      expect(retried.statusCode).toBe(200);
      expect(retried.json().data.account.accountStatus).toBe('validating payment');
      const rows = await t.app.db
        .select()
        .from(paymentDeclines)
        .where(eq(paymentDeclines.userId, user.id))
        .orderBy(paymentDeclines.attempt);
      expect(rows.map((row) => [row.kind, row.attempt, row.reason])).toEqual([
        ['renewal', 1, 'declined'],
        ['staff retry', 2, 'declined'],
      ]);
      const page = await t.app.inject({
        method: 'GET',
        url: `/api/admin/accounts/${user.id}`,
        headers: { cookie: staff.support.cookie },
      });
      expect(page.json().data.declines.map((row: { attempt: number }) => row.attempt)).toEqual([
        2, 1,
      ]);
    });

    it('adds a credit or a charge to the balance once per key, and the dealer’s balance follows', async () => {
      const user = await plainDealer(t);
      const credit = { requestKey: key(), kind: 'credit', amountCents: 1250, reason: REASON };
      const first = await post(staff.billing.cookie, url(user.id, 'balance-adjustments'), credit);
      expect(first.json().data.account.balanceCents).toBe(-1250);
      const repeat = await post(staff.billing.cookie, url(user.id, 'balance-adjustments'), credit);
      expect(repeat.json().data).toMatchObject({
        repeated: true,
        account: { balanceCents: -1250 },
      });
      const chargeKey = key();
      const charge = await post(staff.billing.cookie, url(user.id, 'balance-adjustments'), {
        requestKey: chargeKey,
        kind: 'charge',
        amountCents: 2000,
        reason: 'Returned check fee agreed with the dealer',
      });
      expect(charge.json().data.account.balanceCents).toBe(750);
      const entries = await t.app.db
        .select()
        .from(balanceEntries)
        .where(eq(balanceEntries.userId, user.id));
      expect(entries.map((entry) => [entry.kind, entry.amountCents, entry.source]).sort()).toEqual(
        [
          ['credit', -1250, `staff:${credit.requestKey}`],
          ['fee', 2000, `staff:${chargeKey}`],
        ].sort(),
      );
      const dealer = await t.app.inject({
        method: 'GET',
        url: '/api/users/current',
        headers: { cookie: `${SESSION_COOKIE}=${await sessionFor(t, user.id, NOW)}` },
      });
      expect(dealer.json().data.currentBalance).toBe(7.5);
      const audit = await auditOf(t, user.id);
      expect(audit.map((row) => [row.before, row.after])).toEqual([
        [
          expect.objectContaining({ balanceCents: 0 }),
          expect.objectContaining({ balanceCents: -1250, adjustmentKind: 'credit' }),
        ],
        [
          expect.objectContaining({ balanceCents: -1250 }),
          expect.objectContaining({ balanceCents: 750, adjustmentKind: 'charge' }),
        ],
      ]);
      const events = await t.app.db
        .select()
        .from(accountEvents)
        .where(eq(accountEvents.userId, user.id));
      expect(events.map((event) => [event.event, event.actor]).sort()).toEqual([
        ['balance charge', 'staff'],
        ['balance credit', 'staff'],
      ]);
    });
  });
});

import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHARGEBACK_FEE_CENTS } from '@dealerpass/domain/billing/renewal-calendar';
import {
  roleAllows,
  STAFF_ACTIONS,
  type TStaffAction,
  type TStaffRole,
} from '@dealerpass/domain/staff/roles';
import {
  accountEvents,
  balanceEntries,
  billingPeriods,
  identities,
  mailOutbox,
  sandboxGatewayTransactions,
  sessions,
  staffAudit,
  subscriptions,
  users,
} from '../src/db/schema.ts';
import { SESSION_COOKIE } from '../src/plugins/session.ts';
import { getBalanceCents } from '../src/services/billing/account-balance.ts';
import { runBilling } from '../src/services/billing/run-billing.ts';
import { createIdentity } from '../src/services/identity/create-identity.ts';
import { issueSandboxToken } from '../src/sandboxes/payments/sandbox-tokens.ts';
import {
  APPROVED_CARD,
  auditOf,
  consolePost,
  DECLINED_CARD,
  plainDealer,
  renewingDealer,
  staffCookies,
} from './admin-fixtures.ts';
import { buildTestApp, type TestApp, type TestBrowser } from './helper.ts';
import { sessionFor } from './sign-in.ts';

const NOW = new Date('2026-03-10T15:00:00Z');
const TODAY = '2026-03-10';
const PREVIOUS = '2026-02-10';
const REASON = 'Customer called the support line';
const key = () => crypto.randomUUID();
const ROLES: TStaffRole[] = ['support', 'billing', 'admin'];

/** The operator console's account actions (DECISIONS R12, docs/decisions/026). */
describe('operator console: account actions', () => {
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

  /** A dealer whose DealerPass ID has no password yet (as after sign-up). */
  async function unverifiedDealer() {
    const user = await plainDealer(t);
    const identity = await createIdentity(t.app.db, { email: user.email });
    await t.app.db.update(users).set({ karId: identity.id }).where(eq(users.id, user.id));
    return { user, identity };
  }

  /** Per action: a fresh account the action applies to, and the request that takes it. */
  const PREPARE: Partial<
    Record<TStaffAction, () => Promise<{ userId: string; path: string; body: object }>>
  > = {
    resendVerification: async () => {
      const { user } = await unverifiedDealer();
      return { userId: user.id, path: 'resend-verification', body: { requestKey: key() } };
    },
    endSessions: async () => {
      const user = await plainDealer(t);
      await sessionFor(t, user.id, NOW);
      return { userId: user.id, path: 'end-sessions', body: { requestKey: key() } };
    },
    block: async () => {
      const user = await plainDealer(t);
      return { userId: user.id, path: 'block', body: { requestKey: key(), reason: REASON } };
    },
    unblock: async () => {
      const user = await plainDealer(t, { accountStatus: 'blocked' });
      return { userId: user.id, path: 'unblock', body: { requestKey: key(), reason: REASON } };
    },
    complimentaryOn: async () => {
      const user = await plainDealer(t);
      return { userId: user.id, path: 'complimentary', body: { requestKey: key(), on: true } };
    },
    complimentaryOff: async () => {
      const user = await plainDealer(t, { accountStatusDetails: 'complimentary' });
      return { userId: user.id, path: 'complimentary', body: { requestKey: key(), on: false } };
    },
    refund: async () => {
      const { user, payment } = await renewing();
      return {
        userId: user.id,
        path: `payments/${payment!.id}/refund`,
        body: { requestKey: key(), amountCents: 100, reason: REASON },
      };
    },
    chargeback: async () => {
      const { user, payment } = await renewing();
      return {
        userId: user.id,
        path: `payments/${payment!.id}/chargeback`,
        body: { requestKey: key(), reason: 'Dispute 4411 from the card network' },
      };
    },
    retryRenewal: async () => {
      const { user } = await renewing(DECLINED_CARD);
      return { userId: user.id, path: 'retry-renewal', body: { requestKey: key() } };
    },
    balanceAdjustment: async () => {
      const user = await plainDealer(t);
      return {
        userId: user.id,
        path: 'balance-adjustments',
        body: { requestKey: key(), kind: 'credit', amountCents: 500, reason: REASON },
      };
    },
  };

  describe('every action × every role (R12): refused below its role, taken and audited from it', () => {
    for (const [action, prepare] of Object.entries(PREPARE)) {
      for (const role of ROLES) {
        const allowed = roleAllows(role, STAFF_ACTIONS[action as TStaffAction]);
        it(`${action} by ${role}: ${allowed ? 'allowed' : '403 STAFF_ROLE_REQUIRED'}`, async () => {
          const { userId, path, body } = await prepare();
          const before = await userRow(userId);
          const response = await post(staff[role].cookie, url(userId, path), body);
          const audit = await auditOf(t, userId);
          if (!allowed) {
            expect(response.statusCode).toBe(403);
            expect(response.json().code).toBe('STAFF_ROLE_REQUIRED');
            expect(audit).toEqual([]);
            expect(await userRow(userId)).toEqual(before);
            return;
          }
          expect(response.statusCode, response.body).toBe(200);
          const data = response.json().data;
          expect(data).toMatchObject({ auditId: expect.any(Number), repeated: false });
          expect(data.account.userId).toBe(userId);
          expect(audit).toHaveLength(1);
          expect(audit[0]).toMatchObject({
            id: data.auditId,
            action,
            staffEmail: staff[role].email,
            staffId: staff[role].staffId,
            requestKey: (body as { requestKey: string }).requestKey,
            at: NOW,
          });
          expect(audit[0]!.before).toMatchObject({ accountStatus: before.accountStatus });
          expect(audit[0]!.after).toMatchObject({ accountStatus: data.account.accountStatus });
        }, 30_000);
      }
    }
  });

  describe('who may call at all', () => {
    const paths = [
      'resend-verification',
      'end-sessions',
      'block',
      'unblock',
      'complimentary',
      'retry-renewal',
      'balance-adjustments',
      `payments/${crypto.randomUUID()}/refund`,
      `payments/${crypto.randomUUID()}/chargeback`,
    ];

    it('no session, or a dealer’s session: 401; a staff session without its second factor: 403', async () => {
      const user = await plainDealer(t);
      const dealer = `${SESSION_COOKIE}=${await sessionFor(t, user.id, NOW)}`;
      for (const path of paths) {
        const body = {
          requestKey: key(),
          reason: REASON,
          on: true,
          amountCents: 100,
          kind: 'credit',
        };
        const anonymous = await post(null, url(user.id, path), body);
        expect(anonymous.statusCode, path).toBe(401);
        const asDealer = await post(dealer, url(user.id, path), body);
        expect(asDealer.statusCode, path).toBe(401);
        const pending = await post(staff.pending, url(user.id, path), body);
        expect(pending.statusCode, path).toBe(403);
        expect(pending.json().code).toBe('STAFF_SECOND_FACTOR_REQUIRED');
      }
      expect(await auditOf(t, user.id)).toEqual([]);
      expect((await userRow(user.id)).accountStatus).toBe('active');
    });

    it('an unknown account is 404; a malformed key or reason is 400', async () => {
      const missing = await post(staff.admin.cookie, url(crypto.randomUUID(), 'block'), {
        requestKey: key(),
        reason: REASON,
      });
      expect(missing.statusCode).toBe(404);
      const user = await plainDealer(t);
      for (const body of [
        { requestKey: 'not-a-uuid', reason: REASON },
        { requestKey: key(), reason: '  a ' },
        { requestKey: key(), reason: 'x'.repeat(501) },
        { requestKey: key() },
        { requestKey: key(), reason: REASON, extra: 1 },
      ]) {
        const response = await post(staff.admin.cookie, url(user.id, 'block'), body);
        expect(response.statusCode, JSON.stringify(body)).toBe(400);
      }
      expect((await userRow(user.id)).accountStatus).toBe('active');
    });
  });

  describe('support', () => {
    it('resends the verification e-mail once per key; nothing to verify is 409', async () => {
      const { user, identity } = await unverifiedDealer();
      const body = { requestKey: key() };
      const first = await post(staff.support.cookie, url(user.id, 'resend-verification'), body);
      expect(first.statusCode).toBe(200);
      const again = await post(staff.support.cookie, url(user.id, 'resend-verification'), body);
      expect(again.json().data).toMatchObject({
        auditId: first.json().data.auditId,
        repeated: true,
      });
      const mails = await t.app.db
        .select()
        .from(mailOutbox)
        .where(eq(mailOutbox.toAddress, identity.email));
      expect(mails).toHaveLength(1);
      expect(mails[0]!.textBody).toContain('/identity/set-password?token=');
      const [audit] = await auditOf(t, user.id);
      expect(audit!.after).toMatchObject({
        passwordSet: false,
        verificationSentTo: identity.email,
      });

      // Verified with a password, or no DealerPass ID at all: nothing to verify.
      await t.app.db
        .update(identities)
        .set({ passwordHash: 'set', emailVerified: true })
        .where(eq(identities.id, identity.id));
      const legacy = await plainDealer(t);
      for (const userId of [user.id, legacy.id]) {
        const refused = await post(staff.support.cookie, url(userId, 'resend-verification'), {
          requestKey: key(),
        });
        expect(refused.statusCode).toBe(409);
        expect(refused.json().code).toBe('ACTION_NOT_ALLOWED');
      }
      expect(await auditOf(t, legacy.id)).toEqual([]);
    });

    it('ends every session: the dealer’s next call gets 403 invalidToken', async () => {
      const user = await plainDealer(t);
      const rawId = await sessionFor(t, user.id, NOW);
      const current = () =>
        t.app.inject({
          method: 'GET',
          url: '/api/users/current',
          headers: { cookie: `${SESSION_COOKIE}=${rawId}` },
        });
      expect((await current()).statusCode).toBe(200);
      const response = await post(staff.support.cookie, url(user.id, 'end-sessions'), {
        requestKey: key(),
        reason: 'Lost laptop',
      });
      expect(response.statusCode).toBe(200);
      const after = await current();
      expect(after.statusCode).toBe(403);
      expect(after.json()).toBe('invalidToken');
      const rows = await t.app.db.select().from(sessions).where(eq(sessions.userId, user.id));
      expect(rows.every((row) => row.endReason === 'staff' && row.tokensEnc === null)).toBe(true);
      const [audit] = await auditOf(t, user.id);
      expect(audit).toMatchObject({ reason: 'Lost laptop', before: { liveSessions: 1 } });
    });

    it('blocks and unblocks through the state machine, naming the member on the account events', async () => {
      const user = await plainDealer(t);
      const block = await post(staff.support.cookie, url(user.id, 'block'), {
        requestKey: key(),
        reason: REASON,
      });
      expect(block.json().data.account.accountStatus).toBe('blocked');
      const again = await post(staff.support.cookie, url(user.id, 'block'), {
        requestKey: key(),
        reason: REASON,
      });
      expect(again.statusCode).toBe(409);
      expect(again.json().code).toBe('ACTION_NOT_ALLOWED');
      const unblock = await post(staff.support.cookie, url(user.id, 'unblock'), {
        requestKey: key(),
        reason: 'Identity confirmed',
      });
      expect(unblock.json().data.account.accountStatus).toBe('active');
      // The machine has no unblock for an active account.
      const refused = await post(staff.support.cookie, url(user.id, 'unblock'), {
        requestKey: key(),
        reason: REASON,
      });
      expect(refused.statusCode).toBe(409);
      expect(refused.json().code).toBe('ACTION_NOT_ALLOWED');

      const events = await t.app.db
        .select()
        .from(accountEvents)
        .where(eq(accountEvents.userId, user.id))
        .orderBy(accountEvents.at, accountEvents.fromStatus);
      expect(events.map((event) => [event.fromStatus, event.toStatus, event.actor])).toEqual(
        expect.arrayContaining([
          ['active', 'blocked', 'staff'],
          ['blocked', 'active', 'staff'],
        ]),
      );
      expect(events).toHaveLength(2);
      for (const event of events)
        expect(event.details).toMatchObject({ staffEmail: staff.support.email });
      const audit = await auditOf(t, user.id);
      expect(audit.map((row) => [row.action, row.reason])).toEqual([
        ['block', REASON],
        ['unblock', 'Identity confirmed'],
      ]);
      expect(audit[0]).toMatchObject({
        before: { accountStatus: 'active' },
        after: { accountStatus: 'blocked' },
      });
    });

    it('a repeated key answers the first result; a key reused for another action is refused', async () => {
      const user = await plainDealer(t);
      const body = { requestKey: key(), reason: REASON };
      const first = await post(staff.support.cookie, url(user.id, 'block'), body);
      const second = await post(staff.support.cookie, url(user.id, 'block'), body);
      expect(second.statusCode).toBe(200);
      expect(second.json().data).toMatchObject({
        auditId: first.json().data.auditId,
        repeated: true,
        account: { accountStatus: 'blocked' },
      });
      const reused = await post(staff.billing.cookie, url(user.id, 'balance-adjustments'), {
        ...body,
        kind: 'credit',
        amountCents: 100,
      });
      expect(reused.statusCode).toBe(409);
      expect(await auditOf(t, user.id)).toHaveLength(1);
      expect(await getBalanceCents(t.app.db, user.id)).toBe(0);
    });

    it('the audit is append-only: UPDATE and DELETE fail', async () => {
      const user = await plainDealer(t);
      await post(staff.support.cookie, url(user.id, 'block'), {
        requestKey: key(),
        reason: REASON,
      });
      const [row] = await auditOf(t, user.id);
      await expect(
        t.app.db.execute(sql`update staff_audit set reason = 'changed' where id = ${row!.id}`),
      ).rejects.toThrow();
      await expect(
        t.app.db.execute(sql`delete from staff_audit where id = ${row!.id}`),
      ).rejects.toThrow();
      const [kept] = await t.app.db.select().from(staffAudit).where(eq(staffAudit.id, row!.id));
      expect(kept!.reason).toBe(REASON);
    });
  });

  describe('billing', () => {
    it('complimentary: the run waives an active complimentary account’s period; off charges again', async () => {
      const { user } = await renewing();
      const on = await post(staff.billing.cookie, url(user.id, 'complimentary'), {
        requestKey: key(),
        on: true,
      });
      expect(on.json().data.account).toMatchObject({ complimentary: true });
      expect((await userRow(user.id)).accountStatusDetails).toBe('complimentary');
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

    it('retries a failed renewal now through the run, charging once per attempt', async () => {
      const { user, customer } = await renewing(DECLINED_CARD);
      expect((await userRow(user.id)).accountStatus).toBe('validating payment');
      const owed = await getBalanceCents(t.app.db, user.id);
      expect(owed).toBeGreaterThan(0);
      // The dealer's bank fixed the card; no new card was saved, so nothing retried it yet.
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

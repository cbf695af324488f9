import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  roleAllows,
  STAFF_ACTIONS,
  type TStaffAction,
  type TStaffRole,
} from '@dealerpass/domain/admin/roles';
import {
  accountEvents,
  identities,
  mailOutbox,
  sessions,
  staffAudit,
  users,
} from '../../src/db/schema.ts';
import { SESSION_COOKIE } from '../../src/plugins/session.ts';
import { getBalanceCents } from '../../src/services/billing/account-balance.ts';
import { createIdentity } from '../../src/services/identity/create-identity.ts';
import {
  auditOf,
  consolePost,
  DECLINED_CARD,
  plainDealer,
  renewingDealer,
  staffCookies,
} from '../factories/admin-fixtures.ts';
import { buildTestApp, type TestApp, type TestBrowser } from '../support/helper.ts';
import { sessionFor } from '../factories/sign-in.ts';

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

  beforeAll(async () => {
    t = await buildTestApp({ now: () => NOW });
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
      const user = await plainDealer(t, { complimentary: true });
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
      // The account page says so, and the console offers the action from it.
      const profileOf = async (userId: string) =>
        (
          await t.app.inject({
            method: 'GET',
            url: `/api/admin/accounts/${userId}`,
            headers: { cookie: staff.support.cookie },
          })
        ).json().data.profile;
      expect((await profileOf(user.id)).identity).toEqual({
        passwordSet: false,
        emailVerified: false,
      });
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
      expect((await profileOf(user.id)).identity).toEqual({
        passwordSet: true,
        emailVerified: true,
      });
      expect((await profileOf(legacy.id)).identity).toBeNull();
      for (const userId of [user.id, legacy.id]) {
        const refused = await post(staff.support.cookie, url(userId, 'resend-verification'), {
          requestKey: key(),
        });
        expect(refused.statusCode).toBe(409);
        expect(refused.json().code).toBe('ACTION_NOT_ALLOWED');
      }
      expect(await auditOf(t, legacy.id)).toEqual([]);
    });

    it('ends every session: the dealer’s next call gets 403 invalidToken, its tokens revoked', async () => {
      const user = await plainDealer(t);
      const tokens = { accessToken: 'access-1', refreshToken: 'refresh-1' };
      const rawId = await sessionFor(t, user.id, NOW, { tokens });
      const revoke = vi.spyOn(t.app.identity.rp, 'revoke').mockResolvedValue(undefined);
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
      expect(revoke).toHaveBeenCalledTimes(1);
      expect(revoke.mock.calls[0]![0]).toMatchObject(tokens);
      revoke.mockRestore();
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

    it.each([
      ['inactive', 'inactive'],
      ['validating payment', 'validating payment'],
      ['pending cancel', 'pending cancel'],
    ])(
      'unblocks an account blocked while %s back to %s, never to active',
      async (before, after) => {
        const user = await plainDealer(t);
        await t.app.db.update(users).set({ accountStatus: before }).where(eq(users.id, user.id));
        const block = await post(staff.support.cookie, url(user.id, 'block'), {
          requestKey: key(),
          reason: REASON,
        });
        expect(block.json().data.account.accountStatus).toBe('blocked');
        const unblock = await post(staff.support.cookie, url(user.id, 'unblock'), {
          requestKey: key(),
          reason: 'Identity confirmed',
        });
        expect(unblock.statusCode).toBe(200);
        expect(unblock.json().data.account.accountStatus).toBe(after);
      },
    );

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
});

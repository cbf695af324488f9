import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHARGEBACK_FEE_CENTS } from '@dealerpass/domain/billing/renewal-calendar';
import { errorMessage } from '@dealerpass/domain/messages';
import { STAFF_MEMBER_MESSAGES } from '@dealerpass/domain/admin/staff-members';
import {
  balanceEntries,
  payments,
  refunds,
  sandboxGatewayTransactions,
  staffUsers,
  subscriptions,
  users,
} from '../../src/db/schema.ts';
import { SESSION_COOKIE } from '../../src/plugins/session.ts';
import { issueSandboxToken } from '../../src/sandboxes/payments/sandbox-tokens.ts';
import { getBalanceCents } from '../../src/services/billing/account-balance.ts';
import {
  auditOf,
  consolePost,
  DECLINED_CARD,
  gatewayRefundsOf,
  renewingDealer,
  staffCookies,
} from '../factories/admin-fixtures.ts';
import { buildTestApp, type TestApp, type TestBrowser } from '../support/helper.ts';
import { sessionFor } from '../factories/sign-in.ts';

const NOW = new Date('2026-03-10T15:00:00Z');
const TODAY = '2026-03-10';
const PREVIOUS = '2026-02-10';
const REASON = 'Card network reported a dispute';
const NEW_CARD = '5555555555554444';
const key = () => crypto.randomUUID();
const ROUNDS = 4;

/**
 * Issue 24's overlapping requests, one regression each (docs/decisions/028, R15): on PostgreSQL
 * these deadlocked (500s) or raced a unique key (500s); a chargeback of a payment refunded in
 * full was recorded. Each round is a fresh account; the two requests are sent at once.
 */
describe('money under concurrency (issue 24)', () => {
  let t: TestApp;
  let browser: TestBrowser;
  let staff: Awaited<ReturnType<typeof staffCookies>>;

  beforeAll(async () => {
    t = await buildTestApp({
      now: () => NOW,
      // An insert that skips its service's check, as the second of two racing requests does.
      routes: (app) =>
        app.post<{ Params: { table: string }; Body: { value: string } }>(
          '/api/test/insert-twice/:table',
          { config: { access: 'public' } },
          async (request) => {
            const { value } = request.body;
            for (let i = 0; i < 2; i += 1) {
              if (request.params.table === 'staff') {
                await app.db
                  .insert(staffUsers)
                  .values({ email: value, name: 'Twice', role: 'support' });
              } else {
                const [user] = await app.db.select({ id: users.id }).from(users).limit(1);
                await app.db
                  .insert(balanceEntries)
                  .values({ userId: user!.id, kind: 'credit', amountCents: -1, source: value });
              }
            }
            return { data: null };
          },
        ),
    });
    browser = await t.browser();
    staff = await staffCookies(t);
  }, 60_000);
  afterAll(() => t.close());

  const post = (cookie: string, url: string, body: object) =>
    consolePost(t, browser, cookie, url, body);
  const account = (userId: string, path: string) => `/api/admin/accounts/${userId}/${path}`;
  const userRow = async (userId: string) =>
    (await t.app.db.select().from(users).where(eq(users.id, userId)))[0]!;
  const renewing = (card?: string) =>
    renewingDealer(t, { now: NOW, today: TODAY, previous: PREVIOUS, ...(card ? { card } : {}) });
  const fee = async (userId: string) =>
    t.app.db
      .select()
      .from(balanceEntries)
      .where(and(eq(balanceEntries.userId, userId), eq(balanceEntries.kind, 'fee')));

  async function saveCard(userId: string, card: string) {
    const token = await issueSandboxToken(
      t.app.db,
      { creditCardNumber: card, creditCardExpiration: '1230', creditCardCode: '123' },
      NOW,
    );
    return t.app.inject({
      method: 'PUT',
      url: '/api/users/paymentProfile',
      headers: {
        cookie: `${browser.cookie}; ${SESSION_COOKIE}=${await sessionFor(t, userId, NOW)}`,
        'x-csrf-token': browser.token,
        'content-type': 'application/json',
      },
      payload: JSON.stringify({
        requestKey: crypto.randomUUID(),
        paymentToken: token.paymentToken,
        cardBrand: 'mastercard',
        cardLast4: card.slice(-4),
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
  }

  it('a dealer saving a new card while staff retry the renewal: both answered, the card kept, the account paid', async () => {
    for (let round = 0; round < ROUNDS; round += 1) {
      const { user } = await renewing(DECLINED_CARD);
      expect((await userRow(user.id)).accountStatus).toBe('validating payment');
      const [card, retry] = await Promise.all([
        saveCard(user.id, NEW_CARD),
        post(staff.billing.cookie, account(user.id, 'retry-renewal'), {
          requestKey: key(),
          reason: 'Dealer on the phone',
        }),
      ]);
      expect(card.statusCode, card.body).toBe(200);
      expect(retry.statusCode, retry.body).toBeLessThan(500);
      const row = await userRow(user.id);
      // The card saved is on file, and it paid the renewal: never inactive over a good card.
      expect(row.cardLast4).toBe('4444');
      expect(row.accountStatus).toBe('active');
      expect(await getBalanceCents(t.app.db, user.id)).toBe(0);
      const [subscription] = await t.app.db
        .select()
        .from(subscriptions)
        .where(eq(subscriptions.userId, user.id));
      const approved = (
        await t.app.db
          .select()
          .from(sandboxGatewayTransactions)
          .where(
            eq(sandboxGatewayTransactions.paymentProfileId, subscription!.gatewayPaymentProfileId!),
          )
      ).filter((charge) => charge.kind === 'charge' && charge.status === 'approved');
      // Money moved once: one approved charge of the new card, one payment recorded for it.
      expect(approved).toHaveLength(1);
      const recorded = await t.app.db.select().from(payments).where(eq(payments.userId, user.id));
      expect(recorded.map((payment) => payment.gatewayTransactionId)).toEqual([approved[0]!.id]);
    }
  }, 120_000);

  it('a refund and a chargeback of one payment at once: one of them, never both, never a 500', async () => {
    for (let round = 0; round < ROUNDS; round += 1) {
      const { user, payment } = await renewing();
      const [refund, chargeback] = await Promise.all([
        post(staff.billing.cookie, account(user.id, `payments/${payment!.id}/refund`), {
          requestKey: key(),
          amountCents: payment!.amountCents,
          reason: 'Goodwill',
        }),
        post(staff.billing.cookie, account(user.id, `payments/${payment!.id}/chargeback`), {
          requestKey: key(),
          reason: REASON,
        }),
      ]);
      expect(refund.statusCode, refund.body).toBeLessThan(500);
      expect(chargeback.statusCode, chargeback.body).toBeLessThan(500);
      const given = await gatewayRefundsOf(t, payment!.gatewayTransactionId);
      const fees = await fee(user.id);
      if (refund.statusCode === 200) {
        // Refunded in full first: the chargeback is refused (R15), no fee, the account active.
        expect(chargeback.statusCode).toBe(409);
        expect(['CHARGEBACK_REFUNDED_IN_FULL', 'ACTION_IN_PROGRESS']).toContain(
          chargeback.json().code,
        );
        expect(given).toHaveLength(1);
        expect(fees).toHaveLength(0);
        expect((await userRow(user.id)).accountStatus).toBe('active');
      } else {
        // Charged back first: the refund is refused and no money went back through the gateway.
        expect(refund.statusCode).toBe(409);
        expect(refund.json().code).toBe('REFUND_NOT_ALLOWED');
        expect(chargeback.statusCode).toBe(200);
        expect(given).toHaveLength(0);
        expect(fees.map((entry) => entry.amountCents)).toEqual([CHARGEBACK_FEE_CENTS]);
        expect((await userRow(user.id)).accountStatus).toBe('inactive');
      }
    }
  }, 120_000);

  it('R15: a chargeback of a payment refunded in full is 409 and changes nothing; after a partial refund it covers the rest', async () => {
    const { user, payment } = await renewing();
    const refunded = await post(
      staff.billing.cookie,
      account(user.id, `payments/${payment!.id}/refund`),
      { requestKey: key(), amountCents: payment!.amountCents, reason: 'Goodwill' },
    );
    expect(refunded.statusCode, refunded.body).toBe(200);
    const before = await userRow(user.id);
    const balanceBefore = await getBalanceCents(t.app.db, user.id);
    const refused = await post(
      staff.billing.cookie,
      account(user.id, `payments/${payment!.id}/chargeback`),
      { requestKey: key(), reason: REASON },
    );
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      code: 'CHARGEBACK_REFUNDED_IN_FULL',
      message: errorMessage('CHARGEBACK_REFUNDED_IN_FULL'),
    });
    expect(refused.json().message).toContain('refund as evidence');
    expect((await userRow(user.id)).accountStatus).toBe(before.accountStatus);
    expect(await getBalanceCents(t.app.db, user.id)).toBe(balanceBefore);
    expect(await fee(user.id)).toHaveLength(0);
    const [stored] = await t.app.db.select().from(payments).where(eq(payments.id, payment!.id));
    expect(stored!.chargedBackAt).toBeNull();
    expect((await auditOf(t, user.id)).map((row) => row.action)).toEqual(['refund']);

    // A partial refund: the chargeback covers what is left, with R4's fee.
    const { user: other, payment: paid } = await renewing();
    const part = 1000;
    const partial = await post(
      staff.billing.cookie,
      account(other.id, `payments/${paid!.id}/refund`),
      { requestKey: key(), amountCents: part, reason: 'Goodwill' },
    );
    expect(partial.statusCode, partial.body).toBe(200);
    const charged = await post(
      staff.billing.cookie,
      account(other.id, `payments/${paid!.id}/chargeback`),
      { requestKey: key(), reason: REASON },
    );
    expect(charged.statusCode, charged.body).toBe(200);
    const audit = (await auditOf(t, other.id)).find((row) => row.action === 'chargeback');
    expect(audit!.after).toMatchObject({ chargedBackCents: paid!.amountCents - part });
    expect((await fee(other.id)).map((entry) => entry.amountCents)).toEqual([CHARGEBACK_FEE_CENTS]);
    // Nothing more goes back after it (the refund after a chargeback stays refused).
    const after = await post(
      staff.billing.cookie,
      account(other.id, `payments/${paid!.id}/refund`),
      { requestKey: key(), amountCents: 100, reason: 'Goodwill' },
    );
    expect(after.statusCode).toBe(409);
    const succeeded = await t.app.db
      .select()
      .from(refunds)
      .where(and(eq(refunds.paymentId, paid!.id), eq(refunds.status, 'succeeded')));
    expect(succeeded).toHaveLength(1);
  }, 60_000);

  it('a unique key refused by the database reaches the client as 409 naming the field, never 500', async () => {
    await renewing();
    const insertTwice = (table: string, value: string) =>
      t.app.inject({
        method: 'POST',
        url: `/api/test/insert-twice/${table}`,
        headers: {
          cookie: browser.cookie,
          'x-csrf-token': browser.token,
          'content-type': 'application/json',
        },
        payload: JSON.stringify({ value }),
      });
    const staffEmail = await insertTwice('staff', `twice-${Date.now()}@staff.test`);
    expect(staffEmail.statusCode, staffEmail.body).toBe(409);
    expect(staffEmail.json()).toMatchObject({
      code: 'EMAIL_IN_USE',
      errors: [{ source: 'email', message: STAFF_MEMBER_MESSAGES.emailInUse }],
    });
    // A key no form shows still names its column, and tells nothing of the value.
    const source = await insertTwice('entries', `secret-source-${Date.now()}`);
    expect(source.statusCode, source.body).toBe(409);
    expect(source.json()).toMatchObject({
      code: 'ALREADY_EXISTS',
      errors: [{ source: 'source', message: errorMessage('ALREADY_EXISTS') }],
    });
    expect(source.body).not.toContain('secret-source');
  });

  it('ten creations of one staff e-mail at once: one 201, the others 409 naming the field', async () => {
    const email = `race-${Date.now()}@staff.test`;
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        post(staff.admin.cookie, '/api/admin/staff', {
          email,
          name: 'Racing Member',
          role: 'support',
          password: 'Correct-Horse-9-Battery',
          requestKey: key(),
        }),
      ),
    );
    const statuses = answers.map((answer) => answer.statusCode).sort();
    expect(statuses, answers.map((answer) => answer.body).join('\n')).toEqual([
      201,
      ...Array.from({ length: 9 }, () => 409),
    ]);
    for (const answer of answers.filter((one) => one.statusCode === 409)) {
      expect(answer.json()).toMatchObject({
        code: 'EMAIL_IN_USE',
        errors: [{ source: 'email', message: STAFF_MEMBER_MESSAGES.emailInUse }],
      });
    }
    expect(
      await t.app.db.select().from(staffUsers).where(eq(staffUsers.email, email)),
    ).toHaveLength(1);
  }, 120_000);
});

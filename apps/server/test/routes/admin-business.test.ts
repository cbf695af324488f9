/**
 * The operator console's dunning queue and Contact Us inbox over HTTP (DECISIONS R4, R12;
 * docs/decisions/026): validating-payment accounts with what they owe and the billing run's
 * recorded runs; replies stored, e-mailed once and audited, by every role.
 */
import { randomUUID } from 'node:crypto';
import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STAFF_ROLES, type TStaffRole } from '@dealerpass/domain/admin/roles';
import {
  billingRuns,
  contactReplies,
  contactRequests,
  mailOutbox,
  staffAudit,
  subscriptions,
} from '../../src/db/schema.ts';
import { runBilling } from '../../src/services/billing/run-billing.ts';
import { recordBillingRun } from '../../src/services/billing/run/record-billing-run.ts';
import { seedDemoPromotions } from '../../src/services/demo/seed-demo-promotions.ts';
import { staffBrowsers, type StaffBrowsers } from '../factories/admin-fixtures.ts';
import { buildTestApp, type TestApp } from '../support/helper.ts';
import { addOpeningBalance, createAccount } from '../factories/sign-in.ts';

let t: TestApp;
let staff: StaffBrowsers;
let address = 0;

beforeAll(async () => {
  t = await buildTestApp();
  staff = await staffBrowsers(t);
  await seedDemoPromotions(t.app.db, new Date());
});
afterAll(() => t.close());

const send = (role: TStaffRole, method: 'GET' | 'POST', url: string, payload?: object) =>
  staff[role].request({
    method,
    url,
    remoteAddress: `10.19.${Math.floor(++address / 250)}.${(address % 250) + 1}`,
    ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
  });

const auditOf = async (requestKey: string) =>
  t.app.db.select().from(staffAudit).where(eq(staffAudit.requestKey, requestKey));

describe('the dunning queue and the billing runs (R4, R12)', () => {
  it('lists validating-payment accounts with what they owe and the next retry, and the recorded runs', async () => {
    const { user } = await createAccount(t, {
      email: 'dunning@example.com',
      accountStatus: 'validating payment',
    });
    await t.app.db.insert(subscriptions).values({
      userId: user.id,
      codes: ['NADA'],
      cycleAnchor: '2026-01-10',
      currentPeriodStart: '2026-01-10',
      currentPeriodEnd: '2026-02-10',
      failedAttempts: 1,
      nextRetryAt: new Date('2099-02-11T12:00:00Z'),
    });
    await addOpeningBalance(t, user.id, 7000);
    await createAccount(t, { email: 'not.dunning@example.com' });

    // A full run records itself (nothing is due here: counts of zero); a takeover check that
    // finds nothing and one account's immediate retry leave no row.
    const before = await t.app.db.select().from(billingRuns);
    await runBilling(t.app.deps.billing);
    await runBilling(t.app.deps.billing, { abandonedOnly: true });
    await runBilling(t.app.deps.billing, { userId: user.id });
    const runs = await t.app.db.select().from(billingRuns);
    expect(runs.length - before.length).toBe(1);
    expect(runs.at(-1)).toMatchObject({ kind: 'full', status: 'finished', charged: 0 });
    expect(runs.at(-1)!.finishedAt).not.toBeNull();

    for (const role of STAFF_ROLES) {
      const response = await send(role, 'GET', '/api/admin/dunning');
      expect(response.statusCode, role).toBe(200);
      const data = response.json().data;
      expect(data.accounts).toEqual([
        {
          userId: user.id,
          email: 'dunning@example.com',
          firstName: 'Casey',
          lastName: 'Dealer',
          dealership: 'Casey Motors',
          owedCents: 7000,
          failedAttempts: 1,
          nextRetryAt: '2099-02-11T12:00:00.000Z',
          nextBillDate: null,
        },
      ]);
      expect(data.runs[0]).toMatchObject({ kind: 'full', status: 'finished', errors: 0 });
    }
  });
});

describe('the billing run’s record (R12)', () => {
  const zero = () => ({ charged: 0, declined: 0, deactivated: 0, retryLater: 0 });
  const deps = () => ({ db: t.app.db, now: () => new Date(), log: { warn: () => {} } });

  it('a run that fails is recorded as failed, with what it had counted', async () => {
    const result = zero();
    await expect(
      recordBillingRun(deps(), 'full', result, async () => {
        result.charged = 2;
        throw new Error('database down');
      }),
    ).rejects.toThrow('database down');
    const [run] = await t.app.db.select().from(billingRuns).orderBy(desc(billingRuns.id)).limit(1);
    expect(run).toMatchObject({ kind: 'full', status: 'failed', charged: 2 });
    expect(run!.finishedAt).not.toBeNull();
  });

  it('a takeover check is recorded only when it did something, errors counted', async () => {
    const before = (await t.app.db.select().from(billingRuns)).length;
    await recordBillingRun(deps(), 'takeover', zero(), async () => zero());
    expect(await t.app.db.select().from(billingRuns)).toHaveLength(before);
    const result = zero();
    await recordBillingRun(deps(), 'takeover', result, async () => {
      result.declined = 1;
      result.retryLater = 3;
      return result;
    });
    const [run] = await t.app.db.select().from(billingRuns).orderBy(desc(billingRuns.id)).limit(1);
    expect(run).toMatchObject({ kind: 'takeover', status: 'finished', declined: 1, errors: 3 });
    const shown = await send('support', 'GET', '/api/admin/dunning');
    expect(shown.json().data.runs[0]).toMatchObject({ id: run!.id, kind: 'takeover', errors: 3 });
  });
});

describe('the Contact Us inbox (R12)', () => {
  async function message(email: string) {
    const [row] = await t.app.db
      .insert(contactRequests)
      .values({
        fullName: 'Robin Sender',
        email,
        phoneCountry: 'United States',
        phoneNumber: '3135550142',
        queryType: 'Account Update',
        comments: 'How do I change my card?\nThanks',
        source: 'Web',
      })
      .returning();
    return row!;
  }

  it('lists new and answered messages and shows one with its replies, to every role', async () => {
    const open = await message('open.sender@example.com');
    for (const role of STAFF_ROLES) {
      const list = await send(role, 'GET', '/api/admin/contact-messages?status=new');
      expect(list.statusCode, role).toBe(200);
      expect(list.json().data.map((row: { id: string }) => row.id)).toContain(open.id);
      const one = await send(role, 'GET', `/api/admin/contact-messages/${open.id}`);
      expect(one.json().data).toMatchObject({
        id: open.id,
        comments: 'How do I change my card?\nThanks',
        status: 'new',
        replies: [],
      });
    }
    expect(
      (await send('support', 'GET', '/api/admin/contact-messages?status=spam')).statusCode,
    ).toBe(400);
    expect(
      (await send('support', 'GET', `/api/admin/contact-messages/${randomUUID()}`)).statusCode,
    ).toBe(404);
  });

  it.each(STAFF_ROLES)(
    '%s replies: stored, e-mailed to the sender, answered, audited; a repeat sends nothing twice',
    async (role) => {
      const email = `sender.${role}@example.com`;
      const msg = await message(email);
      const body = { body: `  Use Billing Details, ${role} here.  `, requestKey: randomUUID() };
      const url = `/api/admin/contact-messages/${msg.id}/reply`;
      const reply = await send(role, 'POST', url, body);
      expect(reply.statusCode).toBe(200);
      const repeat = await send(role, 'POST', url, body);
      expect(repeat.json()).toEqual(reply.json());

      const replies = await t.app.db
        .select()
        .from(contactReplies)
        .where(eq(contactReplies.contactRequestId, msg.id));
      expect(replies).toEqual([
        expect.objectContaining({
          id: reply.json().data.replyId,
          body: `Use Billing Details, ${role} here.`,
          staffEmail: staff[role].email,
        }),
      ]);
      const mails = await t.app.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, email));
      expect(mails).toHaveLength(1);
      expect(mails[0]!.textBody).toContain(`Use Billing Details, ${role} here.`);
      expect(mails[0]!.textBody).toContain('> How do I change my card?');
      const [audit] = await auditOf(body.requestKey);
      expect(audit).toMatchObject({
        id: reply.json().data.auditId,
        action: 'replyToContact',
        staffEmail: staff[role].email,
        before: { status: 'new' },
        after: { status: 'answered', replyId: reply.json().data.replyId },
      });
      const shown = await send(role, 'GET', `/api/admin/contact-messages/${msg.id}`);
      expect(shown.json().data).toMatchObject({
        status: 'answered',
        replies: [{ staffEmail: staff[role].email }],
      });
      expect(shown.json().data.answeredAt).not.toBeNull();
      const answered = await send(role, 'GET', '/api/admin/contact-messages?status=answered');
      expect(answered.json().data.map((row: { id: string }) => row.id)).toContain(msg.id);
    },
  );

  it('refuses a request key that another action used: it is no repeat of this one', async () => {
    const msg = await message('reused.key@example.com');
    const requestKey = randomUUID();
    await send('billing', 'POST', '/api/admin/promotions', {
      code: 'KEYOWNER',
      kind: 'percent_off',
      value: 5,
      description: '',
      requiresCard: true,
      requestKey,
    });
    const reply = await send('billing', 'POST', `/api/admin/contact-messages/${msg.id}/reply`, {
      body: 'hello',
      requestKey,
    });
    expect(reply.statusCode).toBe(409);
    expect(reply.json().code).toBe('REQUEST_KEY_REUSED');
    expect(
      await t.app.db
        .select()
        .from(mailOutbox)
        .where(eq(mailOutbox.toAddress, 'reused.key@example.com')),
    ).toEqual([]);
  });

  it('refuses an empty or too long reply, and a reply to no message', async () => {
    const msg = await message('bounds@example.com');
    for (const text of ['', '   ', 'x'.repeat(5001)]) {
      const response = await send(
        'support',
        'POST',
        `/api/admin/contact-messages/${msg.id}/reply`,
        {
          body: text,
          requestKey: randomUUID(),
        },
      );
      expect(response.statusCode).toBe(400);
    }
    const none = await send(
      'support',
      'POST',
      `/api/admin/contact-messages/${randomUUID()}/reply`,
      {
        body: 'hello',
        requestKey: randomUUID(),
      },
    );
    expect(none.statusCode).toBe(404);
    expect(
      await t.app.db
        .select()
        .from(contactReplies)
        .where(eq(contactReplies.contactRequestId, msg.id)),
    ).toEqual([]);
  });
});

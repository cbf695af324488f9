/**
 * The operator console's account page and timeline over HTTP (DECISIONS R12,
 * docs/decisions/026): everything about one account without a secret, the receipt of the
 * account's own payment only, and the timeline's merge and order.
 */
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STAFF_ROLES } from '@dealerpass/domain/admin/roles';
import {
  accountEvents,
  billingPeriods,
  carfaxConnections,
  mailOutbox,
  paymentDeclines,
  sessions,
  subscriptions,
  users,
} from '../../src/db/schema.ts';
import { seal } from '../../src/lib/secret-box.ts';
import { enqueueMail } from '../../src/services/mail/enqueue-mail.ts';
import { paragraph } from '@dealerpass/domain/mail/mail-content';
import {
  insertAudit,
  insertPayment,
  insertRefund,
  staffBrowsers,
  type StaffBrowsers,
} from '../factories/admin-fixtures.ts';
import { buildTestApp, type TestApp } from '../support/helper.ts';
import { addOpeningBalance, createAccount, sessionFor } from '../factories/sign-in.ts';

let t: TestApp;
let staff: StaffBrowsers;

beforeAll(async () => {
  t = await buildTestApp();
  staff = await staffBrowsers(t);
});
afterAll(() => t.close());

const get = (url: string, role: keyof StaffBrowsers = 'support') =>
  staff[role].request({ method: 'GET', url });

describe('the account page (R12)', () => {
  let userId: string;
  let receipts: { id: string; pdf: Buffer }[] = [];
  let setToken: string;

  beforeAll(async () => {
    const { user } = await createAccount(t, {
      email: 'page.owner@example.com',
      altEmail: 'Page.Alt@example.com',
      cardBrand: 'mastercard',
      cardLast4: '4444',
      cardExpiration: '1230',
      autoCheckId: 'ac-user-1',
      autoCheckPasswordEnc: seal(t.app.keys.encryption, 'AutoCheck!Secret9', 'x'),
      accountStatus: 'validating payment',
    });
    userId = user.id;
    await t.app.db.insert(subscriptions).values({
      userId,
      codes: ['NADA', 'MMR', 'CF'],
      autoExtras: ['CF'],
      pendingRemovals: ['MMR'],
      pendingRemovalsAt: '2026-03-01',
      cycleAnchor: '2026-01-01',
      currentPeriodStart: '2026-02-01',
      currentPeriodEnd: '2026-03-01',
      failedAttempts: 2,
      nextRetryAt: new Date('2026-02-06T12:00:00Z'),
    });
    const full = await insertPayment(t, userId, {
      amountCents: 10000,
      activationDate: '2025-11-01',
    });
    const partly = await insertPayment(t, userId, {
      amountCents: 6000,
      activationDate: '2026-01-01',
    });
    const trial = await insertPayment(t, userId, {
      amountCents: 5000,
      activationDate: '2025-12-01',
      status: 'refunded',
    });
    receipts = [full, partly, trial].map(({ payment, pdf }) => ({ id: payment.id, pdf }));
    await insertRefund(t, partly.payment, { amountCents: 1000, status: 'succeeded' });
    await insertRefund(t, partly.payment, { amountCents: 500, status: 'succeeded' });
    await insertRefund(t, partly.payment, { amountCents: 700, status: 'failed' });
    await insertRefund(t, partly.payment, { amountCents: 300, status: 'pending' });
    await t.app.db.insert(accountEvents).values([
      {
        userId,
        event: 'renewal declined: insufficient_funds',
        fromStatus: 'active',
        toStatus: 'validating payment',
        actor: 'billing-run',
        at: new Date('2026-02-01T12:00:00Z'),
      },
    ]);
    const [declined] = await t.app.db
      .insert(billingPeriods)
      .values({
        userId,
        kind: 'renewal',
        periodStart: '2026-02-01',
        periodEnd: '2026-03-01',
        amountCents: 13800,
        quote: {},
        status: 'due',
        attempt: 3,
        idempotencyKey: `renewal:${userId}:2026-02-01:3`,
      })
      .returning();
    // What the ledger's recordDecline writes for each declined attempt (R4's retries).
    await t.app.db.insert(paymentDeclines).values([
      {
        userId,
        billingPeriodId: declined!.id,
        kind: 'renewal',
        attempt: 1,
        reason: 'insufficient_funds',
        at: new Date('2026-02-01T12:00:00Z'),
      },
      {
        userId,
        billingPeriodId: declined!.id,
        kind: 'renewal',
        attempt: 2,
        reason: 'processor_error',
        at: new Date('2026-02-02T12:00:00Z'),
      },
    ]);
    await addOpeningBalance(t, userId, 13800);
    await t.app.db.insert(carfaxConnections).values({
      userId,
      accessTokenEnc: 'sealed-access',
      accessExpiresAt: new Date('2026-03-01T00:00:00Z'),
      connectedAt: new Date('2026-01-05T00:00:00Z'),
      updatedAt: new Date('2026-01-05T00:00:00Z'),
    });
    await sessionFor(t, userId);
    setToken = `tok${randomUUID().replace(/-/g, '')}`;
    await enqueueMail(
      t.app.db,
      {
        to: 'page.alt@example.com',
        content: {
          company: 'DealerPass',
          subject: 'Verify your e-mail',
          heading: 'Verify your e-mail',
          blocks: [paragraph(`Set your password: http://localhost/set-password?token=${setToken}`)],
        },
      },
      'mailbox',
    );
    await enqueueMail(
      t.app.db,
      {
        to: 'someone.else@example.com',
        content: { company: 'DealerPass', subject: 'Not theirs', heading: 'x', blocks: [] },
      },
      'mailbox',
    );
  });

  it('shows profile, status, subscription, payments with refunds, declines, retries, balance, sessions, integrations and e-mails', async () => {
    const response = await get(`/api/admin/accounts/${userId}`);
    expect(response.statusCode).toBe(200);
    const data = response.json().data;
    expect(data.profile).toMatchObject({
      userId,
      email: 'page.owner@example.com',
      card: { brand: 'mastercard', last4: '4444', expiration: '1230' },
      autoCheckPasswordSet: true,
      carfaxConnected: true,
    });
    expect(data.status).toMatchObject({ accountStatus: 'validating payment' });
    expect(data.subscription).toMatchObject({
      codes: ['NADA', 'MMR', 'CF'],
      pendingRemovals: ['MMR'],
      pendingRemovalsAt: '2026-03-01',
      failedAttempts: 2,
      nextRetryAt: '2026-02-06T12:00:00.000Z',
      scheduledAttempts: { made: 2, left: 2 },
      nextScheduledRetryAt: '2026-02-06T12:00:00.000Z',
    });
    const byId = Object.fromEntries(
      (data.payments as { paymentId: string; refundedCents: number; receiptUrl: string }[]).map(
        (payment) => [payment.paymentId, payment],
      ),
    );
    // Succeeded refunds only; a payment refunded in the trial is refunded whole.
    expect(byId[receipts[0]!.id]!.refundedCents).toBe(0);
    expect(byId[receipts[1]!.id]!.refundedCents).toBe(1500);
    expect(byId[receipts[2]!.id]!.refundedCents).toBe(5000);
    expect(byId[receipts[1]!.id]!.receiptUrl).toBe(
      `/api/admin/accounts/${userId}/payments/${receipts[1]!.id}/receipt`,
    );
    expect(data.refunds).toHaveLength(4);
    // Every declined attempt with its reason, newest first: why each retry failed.
    expect(data.declines).toEqual([
      { at: '2026-02-02T12:00:00.000Z', kind: 'renewal', attempt: 2, reason: 'processor_error' },
      { at: '2026-02-01T12:00:00.000Z', kind: 'renewal', attempt: 1, reason: 'insufficient_funds' },
    ]);
    // Two charges tried (the period waits for its third): issue 25's "Attempts 4" beside
    // "Failed renewal attempts 3" counted the attempt not yet made.
    expect(data.retries).toEqual([
      expect.objectContaining({ periodStart: '2026-02-01', attempts: 2, status: 'due' }),
    ]);
    expect(data.balance.cents).toBe(13800);
    expect(data.balance.entries).toEqual([expect.objectContaining({ kind: 'opening' })]);
    expect(data.sessions).toHaveLength(1);
    expect(Object.keys(data.sessions[0]).sort()).toEqual(
      ['context', 'createdAt', 'endReason', 'endedAt', 'lastSeenAt', 'viaKarId'].sort(),
    );
    expect(data.integrations).toMatchObject({
      carfax: { connected: true, connectedAt: '2026-01-05T00:00:00.000Z' },
      autoCheck: { autoCheckId: 'ac-user-1', passwordSet: true },
    });
    // Mail to the alternate address (any case) is the account's; another address's is not.
    expect(data.emails).toEqual([
      expect.objectContaining({ to: 'page.alt@example.com', subject: 'Verify your e-mail' }),
    ]);
  });

  it('carries no secret: no session id, no sealed value, no link token, no password', async () => {
    const [session] = await t.app.db.select().from(sessions).where(eq(sessions.userId, userId));
    const [user] = await t.app.db.select().from(users).where(eq(users.id, userId));
    for (const url of [`/api/admin/accounts/${userId}`, `/api/admin/accounts/${userId}/timeline`]) {
      const body = (await get(url)).body;
      expect(body).not.toContain(session!.idHash);
      expect(body).not.toContain(user!.autoCheckPasswordEnc!);
      expect(body).not.toContain('AutoCheck!Secret9');
      expect(body).not.toContain(setToken);
      expect(body).not.toContain('sealed-access');
      expect(body).not.toMatch(/token=/);
    }
  });

  it('answers 404 for an unknown account and 400 for a malformed id', async () => {
    expect((await get(`/api/admin/accounts/${randomUUID()}`)).statusCode).toBe(404);
    expect((await get(`/api/admin/accounts/${randomUUID()}/timeline`)).statusCode).toBe(404);
    expect((await get('/api/admin/accounts/not-a-uuid')).statusCode).toBe(400);
  });

  it('serves the stored receipt of the account’s own payment, to every role', async () => {
    for (const role of STAFF_ROLES) {
      const response = await get(
        `/api/admin/accounts/${userId}/payments/${receipts[1]!.id}/receipt`,
        role,
      );
      expect(response.statusCode, role).toBe(200);
      expect(response.headers['content-type']).toBe('application/pdf');
      expect(response.headers['content-disposition']).toBe(
        'attachment; filename="2026-01-01-payment.pdf"',
      );
      expect(response.rawPayload.equals(receipts[1]!.pdf)).toBe(true);
    }
  });

  it('does not serve another account’s payment under this account, nor an unknown one', async () => {
    const { user: other } = await createAccount(t, { email: 'receipt.other@example.com' });
    const { payment } = await insertPayment(t, other.id, { amountCents: 4200 });
    expect(
      (await get(`/api/admin/accounts/${userId}/payments/${payment.id}/receipt`)).statusCode,
    ).toBe(404);
    expect(
      (await get(`/api/admin/accounts/${other.id}/payments/${payment.id}/receipt`)).statusCode,
    ).toBe(200);
    expect(
      (await get(`/api/admin/accounts/${userId}/payments/${randomUUID()}/receipt`)).statusCode,
    ).toBe(404);
  });

  it('is open to every role', async () => {
    for (const role of STAFF_ROLES) {
      expect((await get(`/api/admin/accounts/${userId}`, role)).statusCode, role).toBe(200);
      expect((await get(`/api/admin/accounts/${userId}/timeline`, role)).statusCode, role).toBe(
        200,
      );
    }
  });
});

describe('the timeline (R12)', () => {
  it('merges status changes, payments, refunds, e-mails, sign-ins and staff actions, newest first', async () => {
    const { user } = await createAccount(t, { email: 'timeline@example.com' });
    const at = (minute: number) => new Date(Date.UTC(2026, 1, 1, 10, minute));
    await sessionFor(t, user.id, at(1));
    // The sign-in's instant is the session row's creation.
    await t.app.db
      .update(sessions)
      .set({ createdAt: at(1) })
      .where(eq(sessions.userId, user.id));
    await t.app.db.insert(accountEvents).values({
      userId: user.id,
      event: 'renewal declined: declined',
      fromStatus: 'active',
      toStatus: 'validating payment',
      actor: 'billing-run',
      at: at(2),
    });
    const { payment } = await insertPayment(t, user.id, { amountCents: 6800, createdAt: at(4) });
    await t.app.db.insert(mailOutbox).values({
      toAddress: 'TIMELINE@example.com',
      subject: 'Your receipt',
      textBody: 'secret body text',
      status: 'stored',
      createdAt: at(4),
    });
    await insertRefund(t, payment, { amountCents: 800, status: 'succeeded', createdAt: at(6) });
    await insertAudit(t, {
      userId: user.id,
      action: 'refund',
      reason: 'goodwill',
      at: at(6),
      staffEmail: 'billing@staff.test',
    });
    await insertAudit(t, { userId: randomUUID(), action: 'block', at: at(7) }); // someone else's
    // The refund's own account event changes no status: its staff entry above says it once
    // (issue 25: it was listed again as "new → unchanged: refund").
    await t.app.db.insert(accountEvents).values({
      userId: user.id,
      event: 'refund',
      actor: 'staff',
      at: at(6),
      details: { staffEmail: 'billing@staff.test' },
    });
    // One that is no staff's and changes no status is itself, without an arrow.
    await t.app.db.insert(accountEvents).values({
      userId: user.id,
      event: 'cancellation reason',
      actor: 'user',
      at: at(3),
    });

    const response = await get(`/api/admin/accounts/${user.id}/timeline`);
    expect(response.statusCode).toBe(200);
    const entries = response.json<{
      data: { at: string; kind: string; summary: string; details: Record<string, unknown> }[];
    }>().data;
    expect(entries.map((entry) => [entry.at.slice(11, 16), entry.kind])).toEqual([
      ['10:06', 'staff'],
      ['10:06', 'refund'],
      ['10:04', 'email'],
      ['10:04', 'payment'],
      ['10:03', 'status'],
      ['10:02', 'status'],
      ['10:01', 'signIn'],
    ]);
    expect(entries[0]!.summary).toBe('refund by billing@staff.test: goodwill');
    expect(entries[1]!.summary).toBe('Refund of $8.00: succeeded');
    expect(entries[2]!.summary).toBe('E-mail: Your receipt');
    expect(entries[3]!.summary).toBe('Payment of $68.00 (visa ending in 1111)');
    expect(entries[3]!.details.receiptUrl).toBe(
      `/api/admin/accounts/${user.id}/payments/${payment.id}/receipt`,
    );
    expect(entries[4]!.summary).toBe('cancellation reason');
    expect(entries[5]!.summary).toBe('active → validating payment: renewal declined: declined');
    expect(entries.map((entry) => entry.summary).join('\n')).not.toContain('unchanged');
    expect(JSON.stringify(entries)).not.toContain('secret body text');
  });
});

import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { crc32 } from 'node:zlib';
import { count, eq } from 'drizzle-orm';
import { calendarDateIn, toIsoDate } from '@dealerpass/domain/time/calendar-date';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PaymentGatewayError,
  type PaymentGateway,
} from '../../src/adapters/payments/payment-gateway.ts';
import { issueSandboxToken } from '../../src/sandboxes/payments/sandbox-tokens.ts';
import { openDatabase } from '../../src/db/client.ts';
import {
  accountEvents,
  billingPeriods,
  mailOutbox,
  payments,
  sandboxGatewayTransactions,
  subscriptions,
  users,
} from '../../src/db/schema.ts';
import {
  CHARGE_LEASE_MS,
  RETRYABLE_FAILURE_DELAY_MS,
  runBilling,
  type BillingDeps,
} from '../../src/services/billing/run-billing.ts';
import { reactivate } from '../../src/services/billing/reactivate.ts';
import { getUserRow } from '../../src/services/users/get-user-row.ts';
import { buildTestApp, type TestApp } from '../support/helper.ts';
import { subscribeWithCard } from '../factories/subscriber-factory.ts';
import { addOpeningBalance, createAccount } from '../factories/sign-in.ts';
import { storedReceiptPdf } from '../support/stored-receipt.ts';

const DAY = 86_400_000;
const BILLING_RUN_SCRIPT = fileURLToPath(new URL('../../scripts/billing-run.ts', import.meta.url));
/** The command without a developer's .env, which must not change the run under test. */
const BILLING_RUN = [BILLING_RUN_SCRIPT, '--no-env-file'];

describe('the billing run (DECISIONS R4, issue 5)', () => {
  let t: TestApp;
  let now = new Date('2026-03-15T15:00:00Z'); // 11:00 in New York: business date 2026-03-15
  let counter = 0;

  beforeAll(async () => {
    t = await buildTestApp({ now: () => now });
  });
  afterAll(() => t.close());

  const deps = (gateway: PaymentGateway = t.app.payments): BillingDeps => ({
    db: t.app.db,
    payments: gateway,
    now: () => now,
    timeZone: 'America/New_York',
    company: { name: 'DealerPass', supportPhone: '1-800-555-0199' },
    mailKind: 'mailbox',
    prices: t.app.prices,
    log: t.app.log,
  });

  /** A subscriber whose period ends on `due`, with a card on file at the sandbox gateway. */
  async function subscriber(
    options: { card?: string; due?: string; status?: string; codes?: string[] } = {},
  ) {
    counter += 1;
    const email = `billing${counter}@example.com`;
    const { user } = await createAccount(t, {
      email,
      accountStatus: options.status ?? 'active',
      withIdentity: false,
    });
    await subscribeWithCard(t, {
      userId: user.id,
      email,
      codes: options.codes ?? ['NADA', 'MMR'],
      cycleAnchor: '2026-01-15',
      currentPeriodStart: '2026-02-15',
      currentPeriodEnd: options.due ?? '2026-03-15',
      now,
      card: options.card,
    });
    return user.id;
  }

  const paymentsOf = (userId: string) =>
    t.app.db.select().from(payments).where(eq(payments.userId, userId));
  const userRow = (userId: string) => getUserRow(t.app.db, userId);

  it('charges a due account once, stores the receipt, and moves the next bill date a month on', async () => {
    const userId = await subscriber();
    const notDue = await subscriber({ due: '2026-03-16' });

    const first = await runBilling(deps());
    expect(first.charged).toBeGreaterThanOrEqual(1);
    const [payment] = await paymentsOf(userId);
    // NADA 70 + MMR 65 + the 3-dollar platform fee (DECISIONS R3), in cents.
    expect(payment).toMatchObject({
      amountCents: 13800,
      activationDate: '2026-03-15',
      status: 'succeeded',
      createdAt: now,
    });
    // Stored without what it shares with other receipts (decision 066): small enough to stay
    // in the payment's row, and read back as a PDF whose CRC-32 is stored with it, so the year
    // zip computes nothing (R9).
    expect(payment!.receiptPdf.subarray(0, 4).toString()).toBe('DPR1');
    expect(payment!.receiptPdf.length).toBeLessThan(4096);
    const pdf = await storedReceiptPdf(t, payment!.receiptPdf);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(payment!.receiptCrc32).toBe(crc32(pdf));
    expect(await userRow(userId)).toMatchObject({
      nextBillDate: '2026-04-15',
      accountStatus: 'active',
    });
    expect(await paymentsOf(notDue)).toEqual([]);

    const second = await runBilling(deps());
    expect(second.charged).toBe(0);
    expect(await paymentsOf(userId)).toHaveLength(1);
    const mails = await t.app.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.toAddress, (await userRow(userId)).email));
    expect(mails.map((mail) => mail.subject)).toEqual(['DealerPass receipt for 2026-03-15']);
  });

  it('moves a complimentary account’s period on without charging it, even with no card (R4)', async () => {
    const userId = await subscriber();
    await t.app.db.update(users).set({ complimentary: true }).where(eq(users.id, userId));
    await t.app.db
      .update(subscriptions)
      .set({ gatewayCustomerId: null, gatewayPaymentProfileId: null })
      .where(eq(subscriptions.userId, userId));
    await runBilling(deps());
    expect(await paymentsOf(userId)).toEqual([]);
    expect(await userRow(userId)).toMatchObject({
      accountStatus: 'active',
      nextBillDate: '2026-04-15',
    });
    const [period] = await t.app.db
      .select()
      .from(billingPeriods)
      .where(eq(billingPeriods.userId, userId));
    expect(period).toMatchObject({ status: 'waived', amountCents: 0 });
  });

  it('ends a pending cancellation at the period end without charging (R4)', async () => {
    const userId = await subscriber({ status: 'pending cancel' });
    await runBilling(deps());
    expect(await paymentsOf(userId)).toEqual([]);
    expect((await userRow(userId)).accountStatus).toBe('inactive');
    const events = await t.app.db
      .select()
      .from(accountEvents)
      .where(eq(accountEvents.userId, userId));
    expect(events).toMatchObject([
      { fromStatus: 'pending cancel', toStatus: 'inactive', actor: 'billing-run' },
    ]);
  });

  it('retries a declined renewal 1, 3 and 5 days after it failed, e-mailing each time, then makes the account inactive with the balance owed', async () => {
    const start = now;
    const userId = await subscriber({ card: '4000000000000002' });
    const email = (await userRow(userId)).email;
    const statuses: string[] = [];
    // The bill date, then R4's retries: days 1, 3 and 5 after the failure (not 1, 4 and 9).
    for (const waitDays of [0, 1, 2, 2]) {
      now = new Date(now.getTime() + waitDays * DAY);
      await runBilling(deps());
      statuses.push((await userRow(userId)).accountStatus);
      // Not due again before its retry date.
      now = new Date(now.getTime() + DAY / 2);
      await runBilling(deps());
      now = new Date(now.getTime() - DAY / 2);
    }
    expect(statuses).toEqual([
      'validating payment',
      'validating payment',
      'validating payment',
      'inactive',
    ]);
    expect((await userRow(userId)).balanceCents).toBe(13800);
    expect(await paymentsOf(userId)).toEqual([]);
    const [period] = await t.app.db
      .select()
      .from(billingPeriods)
      .where(eq(billingPeriods.userId, userId));
    expect(period).toMatchObject({ status: 'failed', attempt: 4 });
    const [{ n: mails } = { n: 0 }] = await t.app.db
      .select({ n: count() })
      .from(mailOutbox)
      .where(eq(mailOutbox.toAddress, email));
    expect(mails).toBe(4);
    const charges = await t.app.db
      .select({ n: count() })
      .from(sandboxGatewayTransactions)
      .where(
        eq(
          sandboxGatewayTransactions.paymentProfileId,
          (await t.app.db.select().from(subscriptions).where(eq(subscriptions.userId, userId)))[0]!
            .gatewayPaymentProfileId!,
        ),
      );
    expect(charges[0]?.n).toBe(4); // four distinct attempts, four distinct idempotency keys
    now = start;
  });

  it('survives a crash between the gateway charge and its record: the rerun charges nobody twice', async () => {
    const userId = await subscriber();
    const real = t.app.payments;
    // The process "dies" right after the gateway took the money, before anything is written.
    const dying: PaymentGateway = {
      ...real,
      charge: async (input) => {
        await real.charge(input);
        throw new Error('process killed after the charge');
      },
    };
    await expect(runBilling(deps(dying))).rejects.toThrow('process killed');
    expect(await paymentsOf(userId)).toEqual([]);

    // Before the lease runs out no other run touches it; afterwards the rerun finishes the job.
    expect((await runBilling(deps())).charged).toBe(0);
    now = new Date(now.getTime() + CHARGE_LEASE_MS + 1000);
    expect((await runBilling(deps())).charged).toBe(1);
    expect(await paymentsOf(userId)).toHaveLength(1);
    const [subscription] = await t.app.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.userId, userId));
    const charges = await t.app.db
      .select()
      .from(sandboxGatewayTransactions)
      .where(
        eq(sandboxGatewayTransactions.paymentProfileId, subscription!.gatewayPaymentProfileId!),
      );
    expect(charges.filter((charge) => charge.kind === 'charge')).toHaveLength(1); // the gateway charged once
  });

  it('a run killed after its charges reached the gateway is taken over within about a minute, each charge recorded once (issue 13)', async () => {
    const ids = await Promise.all(Array.from({ length: 3 }, () => subscriber()));
    const notClaimed = await subscriber({ due: '2026-03-16' });
    const real = t.app.payments;
    let charged = 0;
    // The process is killed once every charge of its batch has reached the gateway.
    const dying: PaymentGateway = {
      ...real,
      charge: async (input) => {
        const result = await real.charge(input);
        if (++charged === ids.length) throw new Error('process killed after the charges');
        return result;
      },
    };
    const start = now;
    try {
      await expect(runBilling(deps(dying), { batchSize: 10, workers: 1 })).rejects.toThrow(
        'process killed',
      );
      for (const id of ids) expect(await paymentsOf(id)).toEqual([]);
      const takeOver = () => runBilling(deps(), { abandonedOnly: true });

      // Half a minute on, the lease still holds.
      now = new Date(start.getTime() + 30_000);
      expect((await takeOver()).charged).toBe(0);
      // A minute and a second on, the check between scheduled runs finishes the dead run's work.
      now = new Date(start.getTime() + 61_000);
      expect(await takeOver()).toMatchObject({ charged: ids.length, declined: 0 });
      expect((await takeOver()).charged).toBe(0);
      for (const id of ids) {
        expect(await paymentsOf(id)).toHaveLength(1);
        const [subscription] = await t.app.db
          .select()
          .from(subscriptions)
          .where(eq(subscriptions.userId, id));
        const charges = (await chargesOn(subscription!.gatewayPaymentProfileId!)).filter(
          (row) => row.kind === 'charge',
        );
        expect(charges).toHaveLength(1); // the gateway charged once
        const mails = await t.app.db
          .select()
          .from(mailOutbox)
          .where(eq(mailOutbox.toAddress, (await userRow(id)).email));
        expect(mails.map((mail) => mail.subject)).toEqual(['DealerPass receipt for 2026-03-15']);
      }
      // The takeover check charges only what a stopped run left, not what is merely due.
      now = new Date('2026-03-16T15:00:00Z');
      expect((await takeOver()).charged).toBe(0);
      expect(await paymentsOf(notClaimed)).toEqual([]);
    } finally {
      now = start;
    }
  });

  it('a live run that takes long keeps renewing its lease and is not taken over (issue 13)', async () => {
    const userId = await subscriber();
    const real = t.app.payments;
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let reached!: () => void;
    const atGateway = new Promise<void>((resolve) => (reached = resolve));
    const slow: PaymentGateway = {
      ...real,
      charge: async (input) => {
        reached();
        await released;
        return real.charge(input);
      },
    };
    const start = now;
    try {
      const live = runBilling({ ...deps(slow), leaseRenewalMs: 10 }, { userId });
      await atGateway;
      // Far past the first lease (and past the old ten minutes): only renewals keep it.
      now = new Date(start.getTime() + 15 * 60_000);
      const leaseOf = async () =>
        (await t.app.db.select().from(subscriptions).where(eq(subscriptions.userId, userId)))[0]!
          .nextRetryAt;
      for (let i = 0; i < 100 && !((await leaseOf())! > now); i++) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      expect((await runBilling(deps(), { userId })).charged).toBe(0);
      expect((await runBilling(deps(), { abandonedOnly: true })).charged).toBe(0);

      release();
      expect(await live).toMatchObject({ charged: 1, declined: 0, retryLater: 0 });
      expect(await paymentsOf(userId)).toHaveLength(1);
      const [subscription] = await t.app.db
        .select()
        .from(subscriptions)
        .where(eq(subscriptions.userId, userId));
      // Recorded: the lease is gone, not renewed after the record.
      expect(subscription).toMatchObject({ nextRetryAt: null, currentPeriodEnd: '2026-04-15' });
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(await leaseOf()).toBeNull();
      const charges = (await chargesOn(subscription!.gatewayPaymentProfileId!)).filter(
        (row) => row.kind === 'charge',
      );
      expect(charges).toHaveLength(1);
    } finally {
      now = start;
    }
  });

  it('a gateway that does not answer: the same charge goes again after ten minutes, not every minute', async () => {
    const userId = await subscriber();
    const unanswered: PaymentGateway = {
      ...t.app.payments,
      charge: async () => {
        throw new PaymentGatewayError('network_error', 'no answer');
      },
    };
    const start = now;
    try {
      expect(await runBilling(deps(unanswered), { userId })).toMatchObject({ retryLater: 1 });
      now = new Date(start.getTime() + 61_000);
      expect((await runBilling(deps(), { abandonedOnly: true })).charged).toBe(0);
      now = new Date(start.getTime() + RETRYABLE_FAILURE_DELAY_MS + 1000);
      expect((await runBilling(deps(), { abandonedOnly: true })).charged).toBe(1);
      expect(await paymentsOf(userId)).toHaveLength(1);
    } finally {
      now = start;
    }
  });

  it('lets concurrent runs share the work without charging anyone twice', async () => {
    const ids = await Promise.all(Array.from({ length: 12 }, () => subscriber()));
    // With PostgreSQL, a second connection pool runs truly in parallel; PGlite serializes them.
    const other = t.databaseUrl ? await openDatabase({ databaseUrl: t.databaseUrl }) : null;
    try {
      const results = await Promise.all([
        runBilling(deps(), { batchSize: 3 }),
        runBilling({ ...deps(), ...(other ? { db: other.db } : {}) }, { batchSize: 3 }),
        runBilling(deps(), { batchSize: 5 }),
      ]);
      expect(results.reduce((sum, r) => sum + r.charged, 0)).toBe(ids.length);
      for (const id of ids) expect(await paymentsOf(id)).toHaveLength(1);
    } finally {
      await other?.close();
    }
  });

  /** The user puts a new card on file, as PUT /api/users/paymentProfile does (the old one is removed). */
  async function replaceCard(userId: string, cardNumber: string) {
    const [subscription] = await t.app.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.userId, userId));
    const token = await issueSandboxToken(
      t.app.db,
      { creditCardNumber: cardNumber, creditCardExpiration: '1230', creditCardCode: '123' },
      now,
    );
    const profile = await t.app.payments.replacePaymentProfile({
      customerProfileId: subscription!.gatewayCustomerId!,
      paymentToken: token.paymentToken,
    });
    await t.app.db
      .update(subscriptions)
      .set({ gatewayPaymentProfileId: profile.paymentProfileId })
      .where(eq(subscriptions.userId, userId));
    await t.app.db
      .update(users)
      .set({ cardBrand: profile.card.brand, cardLast4: profile.card.last4 })
      .where(eq(users.id, userId));
    return profile.paymentProfileId;
  }

  const chargesOn = (paymentProfileId: string) =>
    t.app.db
      .select()
      .from(sandboxGatewayTransactions)
      .where(eq(sandboxGatewayTransactions.paymentProfileId, paymentProfileId));

  const periodOf = async (userId: string) =>
    (await t.app.db.select().from(billingPeriods).where(eq(billingPeriods.userId, userId)))[0]!;

  it('a crash after the charge, then a new card before the rerun: the rerun replays the first charge, and nothing is charged to the new card', async () => {
    const userId = await subscriber();
    const [before] = await t.app.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.userId, userId));
    const oldProfile = before!.gatewayPaymentProfileId!;
    const real = t.app.payments;
    const dying: PaymentGateway = {
      ...real,
      charge: async (input) => {
        await real.charge(input);
        throw new Error('process killed after the charge');
      },
    };
    await expect(runBilling(deps(dying), { userId })).rejects.toThrow('process killed');
    // The attempt remembers the card it charges.
    expect(await periodOf(userId)).toMatchObject({ gatewayPaymentProfileId: oldProfile });

    const newProfile = await replaceCard(userId, '5555555555554444');
    now = new Date(now.getTime() + CHARGE_LEASE_MS + 1000);
    try {
      const rerun = await runBilling(deps(), { userId });
      expect(rerun).toMatchObject({ charged: 1, declined: 0, retryLater: 0 });
      const [payment] = await paymentsOf(userId);
      expect(await paymentsOf(userId)).toHaveLength(1);
      // The receipt names the card that was charged, not the one on file now.
      expect(payment).toMatchObject({ cardLast4: '1111', amountCents: 13800 });
      expect(await chargesOn(oldProfile)).toHaveLength(1);
      expect(await chargesOn(newProfile)).toHaveLength(0);
      expect(await userRow(userId)).toMatchObject({
        accountStatus: 'active',
        nextBillDate: '2026-04-15',
      });
    } finally {
      now = new Date(now.getTime() - CHARGE_LEASE_MS - 1000);
    }
  });

  it('a crash before the charge reached the gateway, then a new card: the rerun charges the new card once, at once', async () => {
    const userId = await subscriber();
    const [before] = await t.app.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.userId, userId));
    const oldProfile = before!.gatewayPaymentProfileId!;
    const dying: PaymentGateway = {
      ...t.app.payments,
      charge: async () => {
        throw new Error('process killed before the charge');
      },
    };
    await expect(runBilling(deps(dying), { userId })).rejects.toThrow('process killed');

    const newProfile = await replaceCard(userId, '5555555555554444');
    now = new Date(now.getTime() + CHARGE_LEASE_MS + 1000);
    try {
      // The old card is gone at the gateway: that attempt ends, and the new card is tried at once.
      const rerun = await runBilling(deps(), { userId });
      expect(rerun.charged).toBe(1);
      expect(await chargesOn(oldProfile)).toHaveLength(0);
      expect(await chargesOn(newProfile)).toHaveLength(1);
      const [payment] = await paymentsOf(userId);
      expect(payment).toMatchObject({ cardLast4: '4444' });
      expect(await periodOf(userId)).toMatchObject({ status: 'paid', attempt: 2 });
      // Not a failed renewal: no dunning state, no failure e-mail.
      expect(await userRow(userId)).toMatchObject({ accountStatus: 'active' });
    } finally {
      now = new Date(now.getTime() - CHARGE_LEASE_MS - 1000);
    }
  });

  it('a crash during a reactivation’s charge: the account waits in pending reactivation, then the run finishes it once', async () => {
    const userId = await subscriber({ status: 'inactive' });
    await addOpeningBalance(t, userId, 2500);
    const real = t.app.payments;
    const dying: PaymentGateway = {
      ...real,
      charge: async (input) => {
        await real.charge(input);
        throw new Error('process killed after the charge');
      },
    };
    const token = await issueSandboxToken(
      t.app.db,
      { creditCardNumber: '4111111111111111', creditCardExpiration: '1230', creditCardCode: '123' },
      now,
    );
    const input = {
      paymentToken: token.paymentToken,
      billingFirstName: 'Casey',
      billingLastName: 'Dealer',
      billingAddress1: '1 Main St',
      billingAddress2: '',
      billingCity: 'Detroit',
      billingCountry: 'US' as const,
      billingState: 'MI',
      billingZip: '48201',
      requestKey: crypto.randomUUID(),
    };
    await expect(reactivate(deps(dying), userId, input)).rejects.toThrow('process killed');
    expect((await userRow(userId)).accountStatus).toBe('pending reactivation');

    // A run within the lease leaves it alone (the request could still be finishing it).
    expect((await runBilling(deps(), { userId })).charged).toBe(0);
    expect((await userRow(userId)).accountStatus).toBe('pending reactivation');

    now = new Date(now.getTime() + CHARGE_LEASE_MS + 1000);
    try {
      expect((await runBilling(deps(), { userId })).charged).toBe(1);
      expect((await runBilling(deps(), { userId })).charged).toBe(0);
      const paid = await paymentsOf(userId);
      // The month's NADA + MMR (138.00) plus the 25.00 balance, charged once.
      expect(paid).toMatchObject([{ amountCents: 16300 }]);
      const [subscription] = await t.app.db
        .select()
        .from(subscriptions)
        .where(eq(subscriptions.userId, userId));
      const charges = (await chargesOn(subscription!.gatewayPaymentProfileId!)).filter(
        (row) => row.kind === 'charge',
      );
      expect(charges).toHaveLength(1);
      expect(await userRow(userId)).toMatchObject({
        accountStatus: 'active',
        balanceCents: 0,
        nextBillDate: '2026-04-15',
      });
      expect(subscription).toMatchObject({ cycleAnchor: '2026-03-15', nextRetryAt: null });
      const events = await t.app.db
        .select()
        .from(accountEvents)
        .where(eq(accountEvents.userId, userId));
      expect(events.map((event) => [event.toStatus, event.actor])).toEqual([
        ['pending reactivation', 'user'],
        ['active', 'billing-run'],
      ]);
    } finally {
      now = new Date(now.getTime() - CHARGE_LEASE_MS - 1000);
    }
  });

  // Two instances as separate operating-system processes need a shared PostgreSQL (PGlite is one
  // process per data folder), so this test exists in the PostgreSQL run of the API tests (CI).
  if (process.env.TEST_DATABASE_URL) {
    it('two billing-run processes at once against PostgreSQL: every due account charged exactly once', async () => {
      // The processes read the real clock: these accounts are due on today's business date.
      const today = toIsoDate(calendarDateIn(new Date(), 'America/New_York'));
      // The earlier tests' accounts live on this file's fake clock: out of this real-clock run.
      await t.app.db.update(subscriptions).set({ currentPeriodEnd: '2099-01-01' });
      const ids: string[] = [];
      for (let i = 0; i < 12; i++) {
        ids.push(
          ...(await Promise.all(Array.from({ length: 10 }, () => subscriber({ due: today })))),
        );
      }
      const runProcess = () =>
        new Promise<{ code: number | null; output: string }>((resolve) => {
          const child = spawn(process.execPath, [...BILLING_RUN, '--batch-size=5'], {
            env: {
              PATH: process.env.PATH ?? '',
              APP_ENV: 'test',
              DATABASE_URL: t.databaseUrl!,
              // Slow charges keep both processes busy at the same time.
              SANDBOX_GATEWAY_DELAY_MS: '150',
              LOG_LEVEL: 'warn',
            },
            stdio: ['ignore', 'pipe', 'pipe'],
          });
          let output = '';
          child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
          child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
          child.on('exit', (code) => resolve({ code, output }));
        });
      const results = await Promise.all([runProcess(), runProcess()]);
      const charged = results.map(({ code, output }) => {
        expect(code, output).toBe(0);
        const match = /billing run: (\d+) charged/.exec(output);
        expect(match, output).not.toBeNull();
        return Number(match![1]);
      });
      // Both took part, and between them charged each account once.
      expect(
        charged.every((n) => n > 0),
        JSON.stringify(charged),
      ).toBe(true);
      expect(charged[0]! + charged[1]!).toBe(ids.length);
      for (const id of ids) {
        const paid = await paymentsOf(id);
        expect(paid).toHaveLength(1);
        // …and the gateway took one charge from its card.
        expect(await chargesOn((await periodOf(id)).gatewayPaymentProfileId!)).toHaveLength(1);
      }
    }, 120_000);
  }
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count, eq, like, min } from 'drizzle-orm';
import { karIdBanner } from '@dealerpass/domain/account/karid-banner';
import { accountFlags, accountStatusDetailsOf } from '@dealerpass/domain/account/status';
import { isRegionOf, isValidPostalCode } from '@dealerpass/domain/geo/countries';
import {
  isAuctionAccessId,
  isDealershipAuctionAccessId,
} from '@dealerpass/domain/validation/auction-access';
import { isCompanyEmail, isValidEmail } from '@dealerpass/domain/validation/email';
import { isExpiryInFuture } from '@dealerpass/domain/validation/expiry';
import { isValidPassword } from '@dealerpass/domain/validation/password';
import { crc32 } from 'node:zlib';
import { R3_PRICE_TABLE, quote } from '@dealerpass/domain/prices';
import {
  billingPeriods,
  checks,
  identities,
  invoices,
  paymentDeclines,
  payments,
  sandboxGatewayPaymentProfiles,
  sandboxGatewayTransactions,
  subscriptions,
  users,
} from '../../src/db/schema.ts';
import { runBilling } from '../../src/services/billing/run-billing.ts';
import { createSandboxGateway } from '../../src/sandboxes/payments/sandbox-gateway.ts';
import { open } from '../../src/lib/secret-box.ts';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from '../../src/services/demo/demo-accounts.ts';
import { DEMO_ANNUAL_ACCOUNTS } from '../../src/services/demo/seed-demo-annual.ts';
import { DEMO_AUTOCHECK, seedDemoData } from '../../src/services/demo/seed-demo-data.ts';
import {
  authenticateLegacy,
  authenticateWithEmail,
} from '../../src/services/identity/authenticate.ts';
import { USER_ROW_FIELDS } from '../../src/services/users/get-user-row.ts';
import { businessToday, serializeUser } from '../../src/services/users/serialize-user.ts';
import { getAccountDetail } from '../../src/services/admin/accounts/get-account-detail.ts';
import { nextBillDateOf, scheduledRetryAt } from '@dealerpass/domain/billing/dunning';
import { parseIsoDate, toIsoDate } from '@dealerpass/domain/time/calendar-date';
import { CHURN_CAUSES } from '@dealerpass/domain/overview/figures';
import { getOverview } from '../../src/services/overview/get-overview.ts';
import { buildTestApp, type TestApp } from '../support/helper.ts';
import { storedReceiptPdf } from '../support/stored-receipt.ts';

const NOW = new Date('2026-03-02T15:00:00Z');
const TODAY = '2026-03-02';

describe('seedDemoData', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ now: () => NOW });
  });
  afterAll(() => t.close());

  const seed = () => seedDemoData(t.app.db, { now: NOW, encryptionKey: t.app.keys.encryption });
  const allUsers = () => t.app.db.select(USER_ROW_FIELDS).from(users);

  it('seeds an empty database once, and leaves it alone afterwards', async () => {
    const seededAccounts = DEMO_ACCOUNTS.length + DEMO_ANNUAL_ACCOUNTS.length;
    expect(await seed()).toEqual({ seeded: true, accounts: seededAccounts });
    const first = await allUsers();
    expect(first).toHaveLength(seededAccounts);

    expect(await seed()).toEqual({ seeded: false, accounts: 0 });
    expect(await allUsers()).toEqual(first);
    const [identityCount] = await t.app.db.select({ n: count() }).from(identities);
    expect(identityCount?.n).toBe(
      DEMO_ACCOUNTS.filter((a) => a.method === 'email').length + DEMO_ANNUAL_ACCOUNTS.length,
    );
  });

  it('has one account per state', async () => {
    const rows = await allUsers();
    // The flags read the API's fields, where complimentary is a detail (accountStatusDetailsOf).
    const flags = rows.map((row) => ({
      row,
      flags: accountFlags({ ...row, accountStatusDetails: accountStatusDetailsOf(row) }),
    }));
    const one = (predicate: (f: ReturnType<typeof accountFlags>) => boolean) =>
      flags.filter(({ flags: f }) => predicate(f));
    expect(one((f) => f.pendingCancel)).toHaveLength(1);
    expect(one((f) => f.inactive)).toHaveLength(1);
    expect(one((f) => f.validatingPayment)).toHaveLength(1);
    expect(one((f) => f.blocked)).toHaveLength(1);
    expect(one((f) => f.complimentary)).toHaveLength(1);
    expect(rows.filter((row) => row.karId === null)).toHaveLength(1);
    expect(new Set(rows.map((row) => row.accountStatus))).toEqual(
      new Set(['active', 'pending cancel', 'inactive', 'validating payment', 'blocked']),
    );
    expect(DEMO_ACCOUNTS.map((a) => a.key)).toEqual([
      'active',
      'pendingCancel',
      'inactive',
      'validatingPayment',
      'blocked',
      'complimentary',
      'migrated',
    ]);
  });

  it('lets every demo sign-in in, each to its own account', async () => {
    expect(isValidPassword(DEMO_PASSWORD)).toBe(true);
    const rows = await allUsers();
    for (const account of DEMO_ACCOUNTS) {
      if (account.method === 'email') {
        const result = await authenticateWithEmail(t.app.db, {
          email: account.signIn,
          password: account.password,
          now: NOW,
        });
        if (!result.ok) throw new Error(`${account.signIn} did not sign in: ${result.reason}`);
        const user = rows.find((row) => row.karId === result.identityId);
        expect(user?.accountStatus).toBe(account.state);
        expect(user?.complimentary).toBe(account.details === 'complimentary');
        const [identity] = await t.app.db
          .select({ emailVerified: identities.emailVerified })
          .from(identities)
          .where(eq(identities.id, result.identityId));
        expect(identity?.emailVerified).toBe(true);
      } else {
        const result = await authenticateLegacy(t.app.db, {
          username: account.signIn,
          password: account.password,
          now: NOW,
        });
        if (!result.ok) throw new Error(`${account.signIn} did not sign in: ${result.reason}`);
        expect(rows.find((row) => row.id === result.userId)?.accountStatus).toBe(account.state);
      }
    }
  });

  it('gives the migrated account no DealerPass ID and a deadline ten days away', async () => {
    const [migrated] = await t.app.db
      .select()
      .from(users)
      .where(eq(users.legacyUsername, 'migrated.dealer'));
    expect(migrated?.karId).toBeNull();
    expect(migrated?.programDate).toEqual(new Date('2026-03-12T15:00:00Z'));
    expect(migrated?.legacyPasswordHash).toMatch(/^\$argon2id\$/);
    const banner = karIdBanner({
      now: NOW,
      deadline: migrated?.programDate,
      lastDismissedAt: null,
      loggedInViaKarId: false,
    });
    expect(banner).toMatchObject({ visible: true, level: 'alert', daysRemaining: 10 });
    // Only the migrated account has legacy credentials.
    const rows = await allUsers();
    expect(rows.filter((row) => row.legacyUsername !== null)).toHaveLength(1);
  });

  it('has one account on a year paid by check and one with an open invoice (R14)', async () => {
    const rows = await t.app.db.select().from(invoices);
    const byAccount = new Map<string, string[]>();
    for (const row of rows)
      byAccount.set(row.userId, [...(byAccount.get(row.userId) ?? []), row.status]);
    expect([...byAccount.values()].map((statuses) => statuses.join()).sort()).toEqual([
      'open',
      'paid',
    ]);
    const [paid] = await t.app.db.select().from(checks);
    expect(paid).toMatchObject({ number: '4417', returnedOn: null });
    const [annual] = await t.app.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.userId, paid!.userId));
    expect(annual!.annualPeriodStart! <= '2026-03-02').toBe(true);
    expect(annual!.annualPeriodEnd! > '2026-03-02').toBe(true);
  });

  it('holds realistic, valid account data', async () => {
    for (const row of await allUsers()) {
      const user = serializeUser(row, businessToday(t.app));
      expect(isValidEmail(user.email)).toBe(true);
      expect(user.email.endsWith('@example.com')).toBe(true);
      expect(isCompanyEmail(user.email, 'dealerpass.example')).toBe(false);
      expect(user.phone).toMatch(/^\d{10}$/);
      expect(isAuctionAccessId(user.auctionAccessId)).toBe(true);
      expect(isDealershipAuctionAccessId(user.dealershipAuctionAccessId)).toBe(true);
      expect(user.country).toBe('US');
      expect(isRegionOf('US', user.state)).toBe(true);
      expect(isValidPostalCode('US', user.zip)).toBe(true);
      expect(user.dealership.length).toBeGreaterThan(3);
      expect(user.subscriptions.length).toBeGreaterThan(0);
      if (user.creditCardNumber) {
        expect(user.creditCardNumber).toMatch(/^\*{12}\d{4}$/);
        expect(['visa', 'mastercard', 'amex', 'discover']).toContain(user.creditCardType);
        expect(isExpiryInFuture(user.creditCardExpiration, NOW)).toBe(true);
        expect(isValidPostalCode('US', user.billingZip)).toBe(true);
      }
      if (user.accountStatus === 'inactive') {
        expect(user.nextBillDate).toBeNull();
        expect(user.creditCardNumber).not.toBe('');
      } else {
        expect(user.nextBillDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
        expect((user.nextBillDate ?? '') > TODAY).toBe(true);
      }
      if (user.accountStatus === 'validating payment') {
        // NADA 70 + RETAIL 35 + the 3-dollar platform fee (R3).
        expect(user.currentBalance).toBe(108);
      } else {
        expect(user.currentBalance).toBe(0);
      }
    }
  });

  it('shows the validating-payment account one next bill date on every screen (issue 25 item 11)', async () => {
    const [row] = await t.app.db
      .select(USER_ROW_FIELDS)
      .from(users)
      .where(eq(users.email, 'validating-payment@example.com'));
    if (!row) throw new Error('no validating-payment demo account');
    const billingPage = serializeUser(row, businessToday(t.app)).nextBillDate;
    const console = await getAccountDetail(t.app.db, row.id, {
      now: NOW,
      timeZone: t.app.config.billing.timeZone,
    });
    // The change page's next bill is the domain's nextBillDateOf of the subscription.
    const [sub] = await t.app.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.userId, row.id));
    if (!sub) throw new Error('no subscription');
    const changePage = toIsoDate(
      nextBillDateOf(
        {
          cycleAnchor: parseIsoDate(sub.cycleAnchor)!,
          currentPeriodEnd: parseIsoDate(sub.currentPeriodEnd)!,
        },
        parseIsoDate(TODAY)!,
      ),
    );
    // The unpaid renewal was due two days ago: the next bill is the one a month after it.
    expect(sub.currentPeriodEnd < TODAY).toBe(true);
    expect(billingPage).toBe(changePage);
    expect(console.status.nextBillDate).toBe(changePage);
    // The attempts: R4's scheduled ones made, and the charges tried on the unpaid period.
    expect(console.subscription?.scheduledAttempts).toEqual({ made: 2, left: 2 });
    expect(console.retries.find((period) => period.status === 'due')?.attempts).toBe(2);
  });

  it('has Carfax and AutoCheck on the active account, its AutoCheck password sealed to it', async () => {
    const [row] = await t.app.db
      .select(USER_ROW_FIELDS)
      .from(users)
      .where(eq(users.email, 'active@example.com'));
    if (!row) throw new Error('no active demo account');
    expect(row.subscriptions).toEqual(expect.arrayContaining(['CF', 'AC', 'NADA', 'MMR']));
    expect(row.autoCheckId).toBe(DEMO_AUTOCHECK.id);
    expect(row.autoCheckPasswordEnc).not.toContain(DEMO_AUTOCHECK.password);
    expect(open(t.app.keys.encryption, row.autoCheckPasswordEnc ?? '', row.id)).toBe(
      DEMO_AUTOCHECK.password,
    );
    expect(serializeUser(row, businessToday(t.app)).autoCheckPasswdSet).toBe(true);
  });

  it('the complimentary account is active, with no card', async () => {
    const [row] = await t.app.db
      .select(USER_ROW_FIELDS)
      .from(users)
      .where(eq(users.email, 'complimentary@example.com'));
    if (!row) throw new Error('no complimentary demo account');
    expect(serializeUser(row, businessToday(t.app))).toMatchObject({
      accountStatus: 'active',
      accountStatusDetails: 'complimentary',
      creditCardNumber: '',
    });
  });
});

describe('the demo subscriptions (DECISIONS R4)', () => {
  let t: TestApp;
  let now = NOW;
  beforeAll(async () => {
    t = await buildTestApp({ now: () => now });
    await seedDemoData(t.app.db, { now: NOW, encryptionKey: t.app.keys.encryption });
  });
  afterAll(() => t.close());

  const rows = () =>
    t.app.db
      .select({ user: users, subscription: subscriptions })
      .from(users)
      .leftJoin(subscriptions, eq(subscriptions.userId, users.id));

  it('gives every account a subscription of its codes, its period ending on its next bill date', async () => {
    for (const { user, subscription } of await rows()) {
      if (!subscription) throw new Error(`${user.email} has no subscription`);
      expect(subscription.codes).toEqual(user.subscriptions);
      expect(subscription.cycleAnchor < subscription.currentPeriodStart).toBe(true);
      expect(subscription.currentPeriodStart < subscription.currentPeriodEnd).toBe(true);
      expect(subscription.cycleAnchor.slice(8)).toBe(subscription.currentPeriodEnd.slice(8));
      if (user.accountStatus === 'validating payment') {
        // R4 (decision 052): the renewal failed two days ago and on its retry a day later; the
        // next retry (the date shown) is tomorrow, 3 days after the first failure, as the run's
        // own schedule has it from the first failure's instant.
        expect(subscription.currentPeriodEnd).toBe('2026-02-28');
        expect(subscription.failedAttempts).toBe(2);
        expect(subscription.dunningSince).toEqual(new Date('2026-02-28T15:00:00Z'));
        expect(subscription.nextRetryAt).toEqual(new Date('2026-03-03T15:00:00Z'));
        expect(scheduledRetryAt(subscription.dunningSince!, 2)).toEqual(subscription.nextRetryAt);
        const [period] = await t.app.db
          .select()
          .from(billingPeriods)
          .where(eq(billingPeriods.userId, user.id));
        expect(period).toMatchObject({ periodStart: '2026-02-28', status: 'due', attempt: 3 });
      } else if (user.accountStatus === 'inactive') {
        expect(subscription.currentPeriodEnd < TODAY).toBe(true);
        expect(subscription.cancelRequestedAt).not.toBeNull();
      } else {
        expect(subscription.currentPeriodEnd).toBe(user.nextBillDate);
        expect(subscription.failedAttempts).toBe(0);
      }
      if (user.accountStatus === 'pending cancel') {
        expect(subscription.cancelRequestedAt).not.toBeNull();
      }
    }
  });

  it('keeps every card as a real sandbox payment profile, its brand and last four on the account', async () => {
    for (const { user, subscription } of await rows()) {
      if (user.complimentary) {
        expect(subscription?.gatewayCustomerId).toBeNull();
        expect(subscription?.gatewayPaymentProfileId).toBeNull();
        continue;
      }
      const [profile] = await t.app.db
        .select()
        .from(sandboxGatewayPaymentProfiles)
        .where(eq(sandboxGatewayPaymentProfiles.id, subscription?.gatewayPaymentProfileId ?? ''));
      expect(profile).toMatchObject({
        customerId: subscription?.gatewayCustomerId,
        cardBrand: user.cardBrand,
        cardLast4: user.cardLast4,
        cardExpiration: user.cardExpiration,
        behaviour: user.accountStatus === 'validating payment' ? 'declined' : 'approved',
        deletedAt: null,
      });
    }
    const [declines] = await t.app.db
      .select({ n: count() })
      .from(sandboxGatewayTransactions)
      .where(eq(sandboxGatewayTransactions.status, 'declined'));
    expect(declines?.n).toBe(2);
  });

  it('lets the billing run work from them: nothing due today, the retry tomorrow declines again', async () => {
    const deps = {
      db: t.app.db,
      payments: createSandboxGateway({ db: t.app.db, now: () => now, delayMs: 0 }),
      now: () => now,
      timeZone: 'America/New_York',
      company: { name: 'DealerPass', supportPhone: '1-800-555-0199' },
      mailKind: 'mailbox' as const,
      prices: t.app.prices,
      log: t.app.log,
    };
    expect(await runBilling(deps)).toEqual({
      charged: 0,
      declined: 0,
      deactivated: 0,
      retryLater: 0,
    });
    now = new Date(NOW.getTime() + 86_400_000 + 1000);
    expect(await runBilling(deps)).toMatchObject({ charged: 0, declined: 1 });
    const [row] = await t.app.db
      .select({ failedAttempts: subscriptions.failedAttempts })
      .from(subscriptions)
      .innerJoin(users, eq(users.id, subscriptions.userId))
      .where(eq(users.accountStatus, 'validating payment'));
    expect(row?.failedAttempts).toBe(3);
  });

  it('records the validating-payment account’s declined attempts as the billing run would', async () => {
    const byEmail = new Map((await rows()).map(({ user }) => [user.email, user]));
    const failing = byEmail.get('validating-payment@example.com')!;
    const declines = await t.app.db
      .select()
      .from(paymentDeclines)
      .where(eq(paymentDeclines.userId, failing.id))
      .orderBy(paymentDeclines.attempt);
    // The seed's two (a test above runs the third, due a day later, through the billing run).
    expect(declines.slice(0, 2).map((row) => [row.kind, row.attempt, row.reason])).toEqual([
      ['renewal', 1, 'declined'],
      ['renewal', 2, 'declined'],
    ]);
    // The first on the bill date, the retry a day after it (R4: 1, 3 and 5 days after the first).
    expect(declines.slice(0, 2).map((row) => row.at)).toEqual([
      new Date('2026-02-28T15:00:00Z'),
      new Date('2026-03-01T15:00:00Z'),
    ]);
  });

  it('gives the paying accounts their paid months: one sandbox charge and one payment with its receipt per period', async () => {
    const byEmail = new Map((await rows()).map(({ user }) => [user.email, user]));
    const active = byEmail.get('active@example.com')!;
    const [subscription] = await t.app.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.userId, active.id));
    const paid = await t.app.db
      .select()
      .from(payments)
      .where(eq(payments.userId, active.id))
      .orderBy(payments.activationDate);
    // Fourteen months subscribed: every period from the sign-up to the next bill date is paid.
    expect(paid).toHaveLength(14);
    expect(paid[0]!.activationDate).toBe(subscription!.cycleAnchor);
    expect(paid.at(-1)!.activationDate).toBe(subscription!.currentPeriodStart);
    for (const payment of paid) {
      // Each at the prices of its day (DECISIONS R3): the domain quote then.
      const [y, m, d] = payment.activationDate.split('-').map(Number) as [number, number, number];
      const codes = subscription!.codes as Parameters<typeof quote>[0];
      expect(payment.amountCents).toBe(
        quote(codes, new Date(Date.UTC(y, m - 1, d, 17)), R3_PRICE_TABLE).totalCents,
      );
      const pdf = await storedReceiptPdf(t, payment.receiptPdf);
      expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
      expect(payment.receiptCrc32).toBe(crc32(pdf));
      expect(payment).toMatchObject({ cardBrand: active.cardBrand, cardLast4: active.cardLast4 });
      const [charge] = await t.app.db
        .select()
        .from(sandboxGatewayTransactions)
        .where(eq(sandboxGatewayTransactions.id, payment.gatewayTransactionId));
      expect(charge).toMatchObject({ status: 'approved', amountCents: payment.amountCents });
    }
    // The declining card of the validating-payment account has no paid months; the
    // complimentary account pays nothing.
    for (const email of ['validating-payment@example.com', 'complimentary@example.com']) {
      const none = await t.app.db
        .select()
        .from(payments)
        .where(eq(payments.userId, byEmail.get(email)!.id));
      expect(none, email).toEqual([]);
    }
  });
});

describe('seedDemoData on a database that already has users', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('adds nothing', async () => {
    await t.app.db.insert(users).values({
      dealerpassUserId: 'real.user@example.com',
      email: 'real.user@example.com',
      firstName: 'Real',
      lastName: 'User',
      dealership: 'Real Motors',
      phone: '3135550100',
      address1: '1 Main St',
      city: 'Detroit',
      state: 'MI',
      zip: '48201',
    });
    expect(
      await seedDemoData(t.app.db, { now: NOW, encryptionKey: t.app.keys.encryption }),
    ).toEqual({ seeded: false, accounts: 0 });
    const [userCount] = await t.app.db.select({ n: count() }).from(users);
    const [identityCount] = await t.app.db.select({ n: count() }).from(identities);
    expect(userCount?.n).toBe(1);
    expect(identityCount?.n).toBe(0);
  });
});

describe('seedDemoData with a real gateway configured (Authorize.Net)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ now: () => NOW });
  });
  afterAll(() => t.close());

  it('seeds every account with no card on file and nothing at the sandbox gateway', async () => {
    const seeded = await seedDemoData(t.app.db, {
      now: NOW,
      encryptionKey: t.app.keys.encryption,
      cards: false,
    });
    const all = DEMO_ACCOUNTS.length + DEMO_ANNUAL_ACCOUNTS.length;
    expect(seeded).toEqual({ seeded: true, accounts: all });
    const accounts = await t.app.db.select().from(users);
    expect(accounts).toHaveLength(all);
    for (const user of accounts) {
      expect(user).toMatchObject({ cardBrand: null, cardLast4: null, cardExpiration: null });
    }
    for (const subscription of await t.app.db.select().from(subscriptions)) {
      expect(subscription).toMatchObject({
        gatewayCustomerId: null,
        gatewayPaymentProfileId: null,
      });
    }
    const [profiles] = await t.app.db.select({ n: count() }).from(sandboxGatewayPaymentProfiles);
    const [charges] = await t.app.db.select({ n: count() }).from(sandboxGatewayTransactions);
    expect([profiles?.n, charges?.n]).toEqual([0, 0]);
  });
});

/**
 * `npm start`'s business (issue 29): 14 months of history around the demo accounts, so that the
 * overview's charts over the last 12 months show every part, as a real business would.
 */
describe('seedDemoData with history', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ now: () => NOW });
  });
  afterAll(() => t.close());

  it('gives the overview of the last 12 months every part of every chart', async () => {
    const seeded = await seedDemoData(t.app.db, {
      now: NOW,
      encryptionKey: t.app.keys.encryption,
      timeZone: 'America/New_York',
      history: true,
    });
    expect(seeded.seeded).toBe(true);
    const [oldest] = await t.app.db
      .select({ date: min(payments.activationDate) })
      .from(payments)
      .innerJoin(users, eq(users.id, payments.userId))
      .where(like(users.email, 'history-%'));
    // The business around the demo accounts: fourteen months, from February 2025 to March 2026.
    expect(oldest?.date?.slice(0, 7)).toBe('2025-02');

    const data = await getOverview(t.app.db, {
      from: '2025-04',
      to: '2026-03',
      timeZone: 'America/New_York',
      now: NOW,
    });
    const months = data.months;
    expect(months).toHaveLength(12);
    const total = (pick: (month: (typeof months)[number]) => number) =>
      months.reduce((sum, month) => sum + pick(month), 0);
    const monthsWith = (pick: (month: (typeof months)[number]) => number) =>
      months.filter((month) => pick(month) > 0).length;
    // Money: payments every month, refunds and chargebacks in the year too.
    expect(monthsWith((month) => month.revenue.paymentsCents)).toBe(12);
    expect(monthsWith((month) => month.revenue.refundsCents)).toBeGreaterThanOrEqual(4);
    expect(monthsWith((month) => month.revenue.chargebacksCents)).toBeGreaterThanOrEqual(2);
    // A business that grows: more MRR at the year's end than at its start.
    expect(months.at(-1)!.mrrCents).toBeGreaterThan(months[0]!.mrrCents);
    expect(data.now.mrrCents).toBeGreaterThan(0);
    // Accounts: new most months, some reactivated, churn of every cause and some reasons.
    expect(monthsWith((month) => month.newAccounts)).toBeGreaterThanOrEqual(9);
    expect(total((month) => month.reactivated)).toBeGreaterThanOrEqual(2);
    for (const cause of CHURN_CAUSES) {
      expect(
        total((month) => month.churnByCause[cause] ?? 0),
        cause,
      ).toBeGreaterThan(0);
    }
    const reasons = new Set(months.flatMap((month) => Object.keys(month.churnByReason)));
    expect(reasons.size).toBeGreaterThanOrEqual(2);
    // Dunning: entered and recovered, so the recovery rate has points.
    expect(total((month) => month.dunningEntered)).toBeGreaterThanOrEqual(4);
    expect(total((month) => month.dunningRecovered)).toBeGreaterThanOrEqual(2);
    expect(months.some((month) => month.recoveryRatePercent !== null)).toBe(true);
    // What sold: items of several groups, and the platform fee.
    expect(new Set(data.revenueByGroup.map((group) => group.group)).size).toBeGreaterThanOrEqual(4);
    expect(data.revenueByItem.length).toBeGreaterThanOrEqual(8);
  });
});

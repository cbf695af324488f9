import { ACCOUNT_STATUS, COMPLIMENTARY_DETAIL } from '@dealerpass/domain/account/status';
import { randomUUID } from 'node:crypto';
import { count, eq, sql } from 'drizzle-orm';
import type { TSubscriptionCode } from '@dealerpass/domain/catalogue';
import { quote, type TPriceTable } from '@dealerpass/domain/prices';
import { loadPriceTable } from '../prices/price-book.ts';
import { nextBillDate, PAYMENT_RETRY_DAYS } from '@dealerpass/domain/billing/renewal-calendar';
import {
  DAY_MS,
  DEFAULT_BUSINESS_TIME_ZONE,
  addDays,
  addMonthsClamped,
  calendarDateIn,
  toIsoDate,
  type ICalendarDate,
} from '@dealerpass/domain/time/calendar-date';
import type { CustomerProfile, PaymentGateway } from '../../adapters/payments/payment-gateway.ts';
import { createSandboxGateway } from '../../sandboxes/payments/sandbox-gateway.ts';
import { issueSandboxToken } from '../../sandboxes/payments/sandbox-tokens.ts';
import { sandboxBehaviourOf } from '../../sandboxes/payments/test-cards.ts';
import type { Database, Transaction } from '../../db/client.ts';
import {
  billingPeriods,
  identities,
  paymentDeclines,
  payments,
  subscriptions,
  users,
} from '../../db/schema.ts';
import { seal } from '../../lib/secret-box.ts';
import { createIdentity } from '../identity/create-identity.ts';
import { hashPassword } from '../identity/passwords.ts';
import {
  addBalanceEntries,
  paidPeriodEntries,
  periodChargeEntry,
} from '../billing/account-balance.ts';
import { paymentRecord } from '../billing/ledger/payment-record.ts';
import { DEMO_ACCOUNTS, type IDemoAccount } from './demo-accounts.ts';
import { DEMO_PROFILES, type DemoProfile } from './demo-profiles.ts';
import type { TTestAccountsFile } from './read-test-accounts.ts';
import { seedDemoHistory } from './seed-demo-history.ts';
import { seedAnnualDemoAccounts } from './seed-demo-annual.ts';

/** The AutoCheck credentials stored (encrypted) on the active demo account. */
export const DEMO_AUTOCHECK = { id: 'DPDEMO1001', password: 'AutoCheck!Demo1' } as const;

type UserValues = typeof users.$inferInsert;

/** The migrated account's DealerPass ID deadline (issue 4: ten days away). */
const MIGRATION_DEADLINE_DAYS = 10;

/** What the seed's steps share: its transaction, the sandbox gateway in it, the day and prices. */
interface Seed {
  tx: Transaction;
  gateway: PaymentGateway;
  now: Date;
  today: ICalendarDate;
  table: TPriceTable;
  options: SeedOptions;
}

interface SeedOptions {
  now: Date;
  encryptionKey: Buffer;
  timeZone?: string;
  /**
   * Whether the demo cards can be put on file: only at the embedded sandbox gateway. A real
   * gateway (Authorize.Net) takes cards only from its own browser tokenizer (R5), so there the
   * demo accounts start with no card on file, and adding one goes through the card form.
   */
  cards?: boolean;
  /** Named on the seeded receipts (default DealerPass and the default support phone). */
  company?: { name: string; supportPhone: string };
  /**
   * Also these test-only accounts, each a copy of the demo account of its key under its own
   * sign-in (TEST_ACCOUNTS_FILE, APP_ENV=test only; docs/decisions/065).
   */
  testAccounts?: TTestAccountsFile;
  /** Also 14 months of a business around them (seed-demo-history.ts), for the console's overview. */
  history?: boolean;
}

/** One account being seeded: who it is, its profile, and what the earlier steps made of it. */
interface SeededAccount {
  id: string;
  account: IDemoAccount;
  profile: DemoProfile;
  /** The card on file at the sandbox gateway (none without cards, or for a profile without one). */
  card: CustomerProfile | null;
}

/**
 * Demo data (issue 4): on an empty database, one account per state, each with a DealerPass ID
 * (verified e-mail, the demo password) except the migrated one, which signs in with its legacy
 * username and has ten days left to connect one. All in one transaction; a database that already
 * holds users is left alone, so calling this at every start is safe.
 */
export async function seedDemoData(
  db: Database,
  options: SeedOptions,
): Promise<{ seeded: boolean; accounts: number }> {
  const accounts = [...DEMO_ACCOUNTS, ...(options.testAccounts?.accounts ?? [])];
  return db.transaction(async (tx) => {
    const seed = await openEmptySeed(tx, options);
    if (!seed) return { seeded: false, accounts: 0 };
    for (const account of accounts) await seedAccount(seed, account);
    // Two accounts on annual payment by check (R14): a paid year, and an open invoice.
    const annual = await seedAnnualDemoAccounts(tx, {
      now: seed.now,
      timeZone: options.timeZone ?? DEFAULT_BUSINESS_TIME_ZONE,
      cards: options.cards !== false,
      company: options.company ?? DEMO_COMPANY,
    });
    // The business around the demo accounts: 14 months for the console's overview (issue 29).
    if (options.history)
      await seedDemoHistory(tx, {
        now: seed.now,
        timeZone: options.timeZone ?? DEFAULT_BUSINESS_TIME_ZONE,
        table: seed.table,
        company: options.company ?? DEMO_COMPANY,
      });
    return { seeded: true, accounts: accounts.length + annual };
  });
}

/**
 * One demo account, step by step: its card at the gateway, its DealerPass ID, its row, its
 * subscription where its state has it in the billing cycle, the months it paid, the renewal it
 * owes.
 */
async function seedAccount(seed: Seed, account: IDemoAccount): Promise<void> {
  const profile = DEMO_PROFILES[account.key];
  const id = randomUUID();
  const card = await putCardOnFile(seed, id, account, profile);
  const seeded: SeededAccount = { id, account, profile, card };
  const karId = await createDemoIdentity(seed, account);
  await insertDemoUser(seed, seeded, karId);
  const cycle = await insertDemoSubscription(seed, seeded);
  await seedPaidMonths(seed, seeded, cycle);
  await seedUnpaidRenewal(seed, seeded, cycle);
}

/**
 * The seed's shared parts, or null when the database already holds users. Two instances
 * starting on one empty PostgreSQL seed once: the second waits for the lock, then sees users.
 */
async function openEmptySeed(tx: Transaction, options: SeedOptions): Promise<Seed | null> {
  const { now } = options;
  // The sandbox gateway writes its customers and payment profiles through the same transaction
  // (its own transactions become savepoints), so the seed stays all-or-nothing.
  const gateway = createSandboxGateway({ db: tx as Database, now: () => now, delayMs: 0 });
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('dealerpass:seed-demo-data'))`);
  const [existing] = await tx.select({ n: count() }).from(users);
  if ((existing?.n ?? 0) > 0) return null;
  return {
    tx,
    gateway,
    now,
    today: calendarDateIn(now, options.timeZone ?? DEFAULT_BUSINESS_TIME_ZONE),
    // The months paid are priced from the database's table, as the run would have (R11).
    table: await loadPriceTable(tx),
    options,
  };
}

/** The profile's test card, tokenized and put on file at the sandbox gateway, as the form would. */
async function putCardOnFile(
  { tx, gateway, now, options }: Seed,
  id: string,
  account: IDemoAccount,
  profile: DemoProfile,
): Promise<CustomerProfile | null> {
  if (!profile.card || options.cards === false) return null;
  const token = await issueSandboxToken(
    tx as Database,
    {
      creditCardNumber: profile.card.number,
      creditCardExpiration: expiryMmYy(now, profile.card.month, profile.card.yearsAhead),
      creditCardCode: '123',
    },
    now,
  );
  return gateway.createCustomerProfile({
    accountId: id,
    email: demoAccountEmail(account),
    paymentToken: token.paymentToken,
  });
}

/** A verified DealerPass ID with the demo password; none for the migrated (legacy) account. */
async function createDemoIdentity(
  { tx, now }: Seed,
  account: IDemoAccount,
): Promise<string | null> {
  if (account.method !== 'email') return null;
  const identity = await createIdentity(tx, {
    email: account.signIn,
    password: account.password,
    now,
  });
  await tx.update(identities).set({ emailVerified: true }).where(eq(identities.id, identity.id));
  return identity.id;
}

async function insertDemoUser(
  { tx, now, today, options }: Seed,
  { id, account, profile, card }: SeededAccount,
  karId: string | null,
): Promise<void> {
  const values: UserValues = {
    id,
    dealerpassUserId: account.signIn,
    karId,
    email: demoAccountEmail(account),
    altEmail: profile.altEmail ?? null,
    firstName: profile.firstName,
    lastName: profile.lastName,
    dealership: profile.dealership,
    phone: profile.phone,
    phoneCountryCode: 'US',
    altPhone: profile.altPhone ?? null,
    altPhoneCountryCode: profile.altPhone ? 'US' : null,
    auctionAccessId: profile.auctionAccessId,
    dealershipAuctionAccessId: profile.dealershipAuctionAccessId,
    address1: profile.address1,
    address2: profile.address2 ?? null,
    city: profile.city,
    state: profile.state,
    zip: profile.zip,
    country: 'US',
    ...(profile.card && card
      ? {
          billingFirstName: profile.firstName,
          billingLastName: profile.lastName,
          billingCountry: 'US',
          billingAddress1: profile.address1,
          billingAddress2: profile.address2 ?? null,
          billingCity: profile.city,
          billingState: profile.state,
          billingZip: profile.zip,
          cardBrand: card.card.brand,
          cardLast4: card.card.last4,
          cardExpiration: expiryMmYy(now, profile.card.month, profile.card.yearsAhead),
        }
      : {}),
    subscriptions: profile.subscriptions,
    accountStatus: account.state,
    complimentary: account.details === COMPLIMENTARY_DETAIL,
    nextBillDate:
      profile.nextBillInDays === null ? null : toIsoDate(addDays(today, profile.nextBillInDays)),
    programDate:
      account.method === 'legacy'
        ? new Date(now.getTime() + MIGRATION_DEADLINE_DAYS * 86_400_000)
        : null,
    preferences: profile.preferences ?? {},
    ...(account.key === 'active'
      ? {
          autoCheckId: DEMO_AUTOCHECK.id,
          // Bound to its owner: the ciphertext opens only for this user's row.
          autoCheckPasswordEnc: seal(options.encryptionKey, DEMO_AUTOCHECK.password, id),
          autoCheckEnabled: true,
        }
      : {}),
    ...(account.method === 'legacy'
      ? {
          legacyUsername: account.signIn.toLowerCase(),
          legacyPasswordHash: await hashPassword(account.password),
        }
      : {}),
    createdAt: now,
    updatedAt: now,
  };
  await tx.insert(users).values(values);
}

/** Where a seeded account stands in its cycle: its current period and its anchor. */
type DemoCycle = ReturnType<typeof currentPeriodOf> & { anchor: ICalendarDate };

/** The subscription the billing run works from (R4), consistent with the account's state. */
async function insertDemoSubscription(
  { tx, now, today }: Seed,
  { id, account, profile, card }: SeededAccount,
): Promise<DemoCycle> {
  const period = currentPeriodOf(account.state, profile, today, now);
  const anchor = addMonthsClamped(period.end, -profile.monthsSubscribed);
  const periodStart = addMonthsClamped(period.end, -1, anchor.day);
  await tx.insert(subscriptions).values({
    userId: id,
    codes: profile.subscriptions,
    cycleAnchor: toIsoDate(anchor),
    currentPeriodStart: toIsoDate(periodStart),
    currentPeriodEnd: toIsoDate(period.end),
    gatewayCustomerId: card?.customerProfileId ?? null,
    gatewayPaymentProfileId: card?.paymentProfileId ?? null,
    failedAttempts: period.failedAttempts,
    nextRetryAt: period.nextRetryAt,
    dunningSince: period.dunningSince,
    cancelRequestedAt: period.cancelRequestedAt,
    updatedAt: now,
  });
  return { ...period, anchor };
}

/**
 * The months paid up to the current period. A declining test card (the validating-payment
 * account's) has no paid months to show.
 */
async function seedPaidMonths(
  { tx, gateway, now, table, options }: Seed,
  { id, profile, card }: SeededAccount,
  cycle: DemoCycle,
): Promise<void> {
  if (!card || !profile.card || sandboxBehaviourOf(profile.card.number) !== 'approved') return;
  await seedPaymentHistory(tx, gateway, {
    userId: id,
    codes: profile.subscriptions,
    anchor: cycle.anchor,
    paidUntil: cycle.end,
    card,
    company: options.company ?? DEMO_COMPANY,
    now,
    table,
  });
}

/**
 * The validating-payment account's unpaid renewal: its declined attempts at the gateway (the
 * first on the bill date, the retries R4's days after it) with their reasons, the period with
 * its next attempt due, and the amount owed in the balance (R4).
 */
async function seedUnpaidRenewal(
  { tx, gateway, now, table }: Seed,
  { id, profile, card }: SeededAccount,
  cycle: DemoCycle,
): Promise<void> {
  if (cycle.failedAttempts === 0 || !card) return;
  const priced = quote(profile.subscriptions, now, table);
  const start = toIsoDate(cycle.end);
  const declines: { attempt: number; reason: string; at: Date }[] = [];
  for (let attempt = 1; attempt <= cycle.failedAttempts; attempt++) {
    const charged = await gateway.charge({
      customerProfileId: card.customerProfileId,
      paymentProfileId: card.paymentProfileId,
      amountCents: priced.totalCents,
      idempotencyKey: `renewal:${id}:${start}:${attempt}`,
      description: 'DealerPass monthly subscription',
    });
    // The first try on the bill date, the retries R4's days after it (1, 3 and 5 days).
    const afterFirst = attempt === 1 ? 0 : PAYMENT_RETRY_DAYS[attempt - 2]!;
    if (charged.status === 'declined' && cycle.dunningSince)
      declines.push({
        attempt,
        reason: charged.reason,
        at: new Date(cycle.dunningSince.getTime() + afterFirst * DAY_MS),
      });
  }
  const attempt = cycle.failedAttempts + 1;
  const [unpaid] = await tx
    .insert(billingPeriods)
    .values({
      userId: id,
      kind: 'renewal',
      periodStart: start,
      periodEnd: toIsoDate(nextBillDate(cycle.anchor, cycle.end)),
      amountCents: priced.totalCents,
      quote: priced,
      attempt,
      idempotencyKey: `renewal:${id}:${start}:${attempt}`,
      createdAt: now,
    })
    .returning();
  if (!unpaid) return;
  await addBalanceEntries(tx, [periodChargeEntry(unpaid)], now);
  // What the billing run would have recorded of each declined attempt.
  if (declines.length > 0) {
    await tx.insert(paymentDeclines).values(
      declines.map((decline) => ({
        userId: id,
        billingPeriodId: unpaid.id,
        kind: 'renewal' as const,
        ...decline,
      })),
    );
  }
}

const DEMO_COMPANY = { name: 'DealerPass', supportPhone: '1-800-555-0199' };

/**
 * The months an account has paid for: from its cycle anchor up to `paidUntil`, one charge at
 * the sandbox gateway and one payment with its stored receipt per period, at the prices of the
 * day each period began, as the sign-up and the billing run would have recorded them (the
 * first period is the sign-up's). No receipt e-mails: they would fill the mailbox.
 */
async function seedPaymentHistory(
  tx: Transaction,
  gateway: PaymentGateway,
  input: {
    userId: string;
    codes: TSubscriptionCode[];
    anchor: ICalendarDate;
    paidUntil: ICalendarDate;
    card: CustomerProfile;
    company: { name: string; supportPhone: string };
    now: Date;
    table: TPriceTable;
  },
): Promise<void> {
  const [user] = await tx.select().from(users).where(eq(users.id, input.userId));
  if (!user) throw new Error('seeded user vanished');
  const until = toIsoDate(input.paidUntil);
  for (let start = input.anchor, first = true; toIsoDate(start) < until; first = false) {
    const end = nextBillDate(input.anchor, start);
    const periodStart = toIsoDate(start);
    // Charged that day at noon Eastern, at the prices of the day (R3: prices carry dates).
    const chargedAt = new Date(Date.UTC(start.year, start.month - 1, start.day, 17));
    const priced = quote(input.codes, chargedAt, input.table);
    const kind = first ? ('signup' as const) : ('renewal' as const);
    const idempotencyKey = first ? `signup:${user.id}` : `renewal:${user.id}:${periodStart}:1`;
    const charged = await gateway.charge({
      customerProfileId: input.card.customerProfileId,
      paymentProfileId: input.card.paymentProfileId,
      amountCents: priced.totalCents,
      idempotencyKey,
      description: 'DealerPass monthly subscription',
    });
    if (charged.status !== 'approved') throw new Error('a demo history charge was declined');
    const [period] = await tx
      .insert(billingPeriods)
      .values({
        userId: user.id,
        kind,
        periodStart,
        periodEnd: toIsoDate(end),
        amountCents: priced.totalCents,
        quote: priced,
        status: 'paid',
        idempotencyKey,
        gatewayCustomerId: input.card.customerProfileId,
        gatewayPaymentProfileId: input.card.paymentProfileId,
        cardBrand: input.card.card.brand,
        cardLast4: input.card.card.last4,
        createdAt: chargedAt,
        settledAt: chargedAt,
      })
      .returning();
    if (!period) throw new Error('seeded period vanished');
    const { row } = paymentRecord({
      company: input.company,
      user,
      period,
      card: { brand: input.card.card.brand, last4: input.card.card.last4 },
      transactionId: charged.transactionId,
      activationDate: periodStart,
      now: chargedAt,
    });
    // Dated when it was charged (the record takes `now`): the trial (R4) counts from it.
    await tx.insert(payments).values(row);
    await addBalanceEntries(
      tx,
      paidPeriodEntries(period, { id: row.id!, amountCents: row.amountCents }),
      chargedAt,
    );
    start = end;
  }
}

/**
 * Where the account stands in its billing cycle: the period end is the next bill date, except
 * - validating payment: the renewal of two days ago is unpaid (declined then, and on its retry a
 *   day later), and the next retry is due tomorrow (R4: 1, 3 and 5 days after the first failure,
 *   decision 052);
 * - inactive: the last period ended twenty days ago, when its cancellation took effect.
 */
function currentPeriodOf(
  state: string,
  profile: DemoProfile,
  today: ICalendarDate,
  now: Date,
): {
  end: ICalendarDate;
  failedAttempts: number;
  nextRetryAt: Date | null;
  /** The first failure's instant, from which R4's retries are counted (decision 052). */
  dunningSince: Date | null;
  cancelRequestedAt: Date | null;
} {
  const plain = {
    failedAttempts: 0,
    nextRetryAt: null,
    dunningSince: null,
    cancelRequestedAt: null,
  };
  if (state === ACCOUNT_STATUS.validatingPayment) {
    const retryIn = profile.nextBillInDays ?? 1;
    return {
      // The first failure on the bill date, the second retry 3 days after it (R4).
      end: addDays(today, retryIn - PAYMENT_RETRY_DAYS[1]),
      failedAttempts: 2,
      nextRetryAt: new Date(now.getTime() + retryIn * DAY_MS),
      dunningSince: new Date(now.getTime() + (retryIn - PAYMENT_RETRY_DAYS[1]) * DAY_MS),
      cancelRequestedAt: null,
    };
  }
  if (state === ACCOUNT_STATUS.inactive || profile.nextBillInDays === null) {
    const end = addDays(today, -20);
    return {
      ...plain,
      end,
      cancelRequestedAt: new Date(now.getTime() - 32 * DAY_MS),
    };
  }
  if (state === ACCOUNT_STATUS.pendingCancel) {
    return {
      ...plain,
      end: addDays(today, profile.nextBillInDays),
      cancelRequestedAt: new Date(now.getTime() - 4 * DAY_MS),
    };
  }
  return { ...plain, end: addDays(today, profile.nextBillInDays) };
}

/** The contact e-mail: the DealerPass ID's, or a made-up one for the migrated username. */
export function demoAccountEmail(account: IDemoAccount): string {
  return account.method === 'email' ? account.signIn : `${account.key}@example.com`;
}

/** MMYY (000 §3), the given month this many years from now: always in the future. */
function expiryMmYy(now: Date, month: number, yearsAhead: number): string {
  const year = (now.getUTCFullYear() + yearsAhead) % 100;
  return `${String(month).padStart(2, '0')}${String(year).padStart(2, '0')}`;
}

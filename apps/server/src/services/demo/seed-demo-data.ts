import { randomUUID } from 'node:crypto';
import { count, eq, sql } from 'drizzle-orm';
import type { TSubscriptionCode } from '@dealerpass/domain/catalogue';
import { quote } from '@dealerpass/domain/prices';
import {
  DEFAULT_BUSINESS_TIME_ZONE,
  addDays,
  calendarDateIn,
  toIsoDate,
} from '@dealerpass/domain/time/calendar-date';
import type { Database } from '../../db/client.ts';
import { identities, users } from '../../db/schema.ts';
import { seal } from '../../lib/secret-box.ts';
import { createIdentity } from '../identity/create-identity.ts';
import { hashPassword } from '../identity/passwords.ts';
import { DEMO_ACCOUNTS, type IDemoAccount, type TDemoAccountKey } from './demo-accounts.ts';

/** The AutoCheck credentials stored (encrypted) on the active demo account. */
export const DEMO_AUTOCHECK = { id: 'DPDEMO1001', password: 'AutoCheck!Demo1' } as const;

type UserValues = typeof users.$inferInsert;

interface DemoProfile {
  firstName: string;
  lastName: string;
  dealership: string;
  phone: string;
  altPhone?: string;
  altEmail?: string;
  auctionAccessId: string;
  dealershipAuctionAccessId: string;
  address1: string;
  address2?: string;
  city: string;
  state: string;
  zip: string;
  subscriptions: TSubscriptionCode[];
  /** Display fields only (DECISIONS R5); the expiry is this many years ahead, in this month. */
  card?: { brand: string; last4: string; month: number; yearsAhead: number };
  /** Days from today (business time zone) to the next bill date; null for none. */
  nextBillInDays: number | null;
  /** Whether the account owes its monthly total (a failed renewal, R4). */
  owesMonthlyTotal?: boolean;
  preferences?: Record<string, unknown>;
}

const PROFILES: Record<TDemoAccountKey, DemoProfile> = {
  active: {
    firstName: 'Morgan',
    lastName: 'Reyes',
    dealership: 'Reyes Auto Group',
    phone: '3135550142',
    altPhone: '3135550143',
    altEmail: 'morgan.reyes@example.com',
    auctionAccessId: '100482913',
    dealershipAuctionAccessId: '5104827',
    address1: '400 Woodward Ave',
    address2: 'Suite 210',
    city: 'Detroit',
    state: 'MI',
    zip: '48226',
    subscriptions: ['NADA', 'MMR', 'CF', 'AC'],
    card: { brand: 'visa', last4: '1111', month: 9, yearsAhead: 2 },
    nextBillInDays: 12,
    preferences: { defaultSubscription: 'NADA', searchZip: '48226' },
  },
  pendingCancel: {
    firstName: 'Priya',
    lastName: 'Shah',
    dealership: 'Lakeshore Pre-Owned',
    phone: '3125550187',
    auctionAccessId: '103395027',
    dealershipAuctionAccessId: '5238810',
    address1: '2150 N Clybourn Ave',
    city: 'Chicago',
    state: 'IL',
    zip: '60614',
    subscriptions: ['KBB', 'ANET', 'CF', 'AC'],
    card: { brand: 'mastercard', last4: '4444', month: 3, yearsAhead: 1 },
    nextBillInDays: 9,
  },
  inactive: {
    firstName: 'Daniel',
    lastName: 'Okafor',
    dealership: 'Peachtree Motor Co.',
    phone: '4045550163',
    auctionAccessId: '107720481',
    dealershipAuctionAccessId: '6017342',
    address1: '1180 Peachtree St NE',
    city: 'Atlanta',
    state: 'GA',
    zip: '30309',
    subscriptions: ['BBK', 'MMR'],
    card: { brand: 'amex', last4: '0005', month: 11, yearsAhead: 1 },
    nextBillInDays: null,
  },
  validatingPayment: {
    firstName: 'Hannah',
    lastName: 'Kowalski',
    dealership: 'Front Range Autos',
    phone: '7205550119',
    auctionAccessId: '109914236',
    dealershipAuctionAccessId: '5561908',
    address1: '4800 E Colfax Ave',
    city: 'Denver',
    state: 'CO',
    zip: '80220',
    subscriptions: ['NADA', 'RETAIL'],
    card: { brand: 'discover', last4: '9424', month: 6, yearsAhead: 2 },
    // The renewal failed two days ago; the next retry is tomorrow (R4: 1, 3 and 5 days after).
    nextBillInDays: 1,
    owesMonthlyTotal: true,
  },
  blocked: {
    firstName: 'Marcus',
    lastName: 'Bell',
    dealership: 'Gulf Coast Auto Exchange',
    phone: '7135550134',
    auctionAccessId: '104458102',
    dealershipAuctionAccessId: '6120457',
    address1: '7700 Westheimer Rd',
    city: 'Houston',
    state: 'TX',
    zip: '77063',
    subscriptions: ['GALVES', 'MMR', 'CF', 'AC'],
    card: { brand: 'visa', last4: '4242', month: 1, yearsAhead: 2 },
    nextBillInDays: 20,
  },
  complimentary: {
    firstName: 'Elena',
    lastName: 'Vasquez',
    dealership: 'Sunbelt Motors',
    phone: '6025550178',
    auctionAccessId: '105561377',
    dealershipAuctionAccessId: '5897214',
    address1: '3300 E Camelback Rd',
    city: 'Phoenix',
    state: 'AZ',
    zip: '85018',
    subscriptions: ['APG', 'NADA', 'MMR', 'CF', 'AC'],
    nextBillInDays: 15,
  },
  migrated: {
    firstName: 'Tom',
    lastName: 'Whitaker',
    dealership: 'Whitaker Family Auto',
    phone: '6155550126',
    auctionAccessId: '102287654',
    dealershipAuctionAccessId: '5340021',
    address1: '215 Broadway',
    city: 'Nashville',
    state: 'TN',
    zip: '37201',
    subscriptions: ['KBB', 'MMR', 'CF', 'AC'],
    card: { brand: 'visa', last4: '1881', month: 7, yearsAhead: 1 },
    nextBillInDays: 5,
  },
};

/** The migrated account's DealerPass ID deadline (issue 4: ten days away). */
const MIGRATION_DEADLINE_DAYS = 10;

/**
 * Demo data (issue 4): on an empty database, one account per state, each with a DealerPass ID
 * (verified e-mail, the demo password) except the migrated one, which signs in with its legacy
 * username and has ten days left to connect one. All in one transaction; a database that already
 * holds users is left alone, so calling this at every start is safe.
 */
export async function seedDemoData(
  db: Database,
  options: { now: Date; encryptionKey: Buffer; timeZone?: string },
): Promise<{ seeded: boolean; accounts: number }> {
  const { now } = options;
  const today = calendarDateIn(now, options.timeZone ?? DEFAULT_BUSINESS_TIME_ZONE);
  return db.transaction(async (tx) => {
    // Two instances starting on one empty PostgreSQL seed once: the second waits, then sees users.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('dealerpass:seed-demo-data'))`);
    const [existing] = await tx.select({ n: count() }).from(users);
    if ((existing?.n ?? 0) > 0) return { seeded: false, accounts: 0 };

    for (const account of DEMO_ACCOUNTS) {
      const profile = PROFILES[account.key];
      const id = randomUUID();
      let karId: string | null = null;
      if (account.method === 'email') {
        const identity = await createIdentity(tx, {
          email: account.signIn,
          password: account.password,
          now,
        });
        await tx
          .update(identities)
          .set({ emailVerified: true })
          .where(eq(identities.id, identity.id));
        karId = identity.id;
      }
      const values: UserValues = {
        id,
        dealerpassUserId: account.signIn,
        karId,
        email: emailOf(account),
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
        ...(profile.card
          ? {
              billingFirstName: profile.firstName,
              billingLastName: profile.lastName,
              billingCountry: 'US',
              billingAddress1: profile.address1,
              billingAddress2: profile.address2 ?? null,
              billingCity: profile.city,
              billingState: profile.state,
              billingZip: profile.zip,
              cardBrand: profile.card.brand,
              cardLast4: profile.card.last4,
              cardExpiration: expiryMmYy(now, profile.card.month, profile.card.yearsAhead),
            }
          : {}),
        subscriptions: profile.subscriptions,
        accountStatus: account.state,
        accountStatusDetails: account.details ?? null,
        nextBillDate:
          profile.nextBillInDays === null
            ? null
            : toIsoDate(addDays(today, profile.nextBillInDays)),
        balanceCents: profile.owesMonthlyTotal ? quote(profile.subscriptions, now).totalCents : 0,
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
    return { seeded: true, accounts: DEMO_ACCOUNTS.length };
  });
}

/** The contact e-mail: the DealerPass ID's, or a made-up one for the migrated username. */
function emailOf(account: IDemoAccount): string {
  return account.method === 'email' ? account.signIn : `${account.key}@example.com`;
}

/** MMYY (000 §3), the given month this many years from now: always in the future. */
function expiryMmYy(now: Date, month: number, yearsAhead: number): string {
  const year = (now.getUTCFullYear() + yearsAhead) % 100;
  return `${String(month).padStart(2, '0')}${String(year).padStart(2, '0')}`;
}

import { ACCOUNT_STATUS } from '@dealerpass/domain/account/status';
/**
 * The demo accounts of annual billing by check (R14, issue 28; README "Demo accounts"): one on a
 * year paid by check (its invoice paid, the check's receipt in Payment History) and one billed
 * monthly by card with an open invoice. Seeded by the demo seed with one call, in its transaction.
 */
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { annualPeriodFor } from '@dealerpass/domain/billing/annual';
import { nextBillDate } from '@dealerpass/domain/billing/renewal-calendar';
import type { TSubscriptionCode } from '@dealerpass/domain/catalogue';
import {
  addMonthsClamped,
  calendarDateIn,
  parseIsoDate,
  toIsoDate,
} from '@dealerpass/domain/time/calendar-date';
import type { Database, Transaction } from '../../db/client.ts';
import { identities, subscriptions, users } from '../../db/schema.ts';
import { createSandboxGateway } from '../../sandboxes/payments/sandbox-gateway.ts';
import { issueSandboxToken } from '../../sandboxes/payments/sandbox-tokens.ts';
import { issueInvoice } from '../annual-billing/issue-invoice.ts';
import { payByCheck } from '../annual-billing/record-check.ts';
import type { BillingDeps } from '../billing/ledger/billing-deps.ts';
import { createIdentity } from '../identity/create-identity.ts';
import { loadPriceTable } from '../prices/price-book.ts';
import { DEMO_PASSWORD } from './demo-accounts.ts';

const DAY_MS = 86_400_000;

/** The two accounts, as the README lists them; each signs in with its DealerPass ID. */
export const DEMO_ANNUAL_ACCOUNTS = [
  {
    key: 'annualPaid',
    label: 'Active, billed annually by check (paid invoice, check receipt)',
    signIn: 'annual@example.com',
    password: DEMO_PASSWORD,
    firstName: 'Alex',
    lastName: 'Novak',
    dealership: 'Novak Fleet Sales',
    address1: '77 Commerce Dr',
    city: 'Toledo',
    state: 'OH',
    zip: '43604',
    phone: '4195550171',
    auctionAccessId: '100517734',
    dealershipAuctionAccessId: '5107731',
  },
  {
    key: 'annualOpen',
    label: 'Active, monthly by card, with an open annual invoice',
    signIn: 'annual-invoice@example.com',
    password: DEMO_PASSWORD,
    firstName: 'Jordan',
    lastName: 'Blake',
    dealership: 'Blake Motors',
    address1: '1200 Lake St',
    city: 'Madison',
    state: 'WI',
    zip: '53703',
    phone: '6085550112',
    auctionAccessId: '100622481',
    dealershipAuctionAccessId: '5106248',
  },
] as const;

const CODES: TSubscriptionCode[] = ['NADA', 'MMR'];

/**
 * Seeds the two accounts (R14) in the caller's transaction, after the other demo accounts: each
 * with its DealerPass ID, a sandbox card when `cards` allows, and NADA and MMR. The paid one asked
 * 100 days ago and its check arrived 20 days later: its year runs now and the billing run passes
 * it; the open one asked 5 days ago and its invoice is due at its next bill date 30 days on.
 */
export async function seedAnnualDemoAccounts(
  tx: Transaction,
  options: {
    now: Date;
    timeZone: string;
    cards: boolean;
    company: { name: string; supportPhone: string };
    invoicing?: BillingDeps['invoicing'];
  },
): Promise<number> {
  const { now, timeZone } = options;
  const table = await loadPriceTable(tx);
  const gateway = createSandboxGateway({ db: tx as Database, now: () => now, delayMs: 0 });
  const deps: BillingDeps = {
    db: tx as Database,
    payments: gateway,
    now: () => now,
    timeZone,
    company: options.company,
    // The invoice and receipt e-mails are kept in the development mailbox, as the demo shows them.
    mailKind: 'mailbox',
    prices: { table: () => table, refresh: async () => table },
    log: { warn: () => undefined },
    ...(options.invoicing ? { invoicing: options.invoicing } : {}),
  };
  const today = calendarDateIn(now, timeZone);
  for (const account of DEMO_ANNUAL_ACCOUNTS) {
    const paid = account.key === 'annualPaid';
    const id = randomUUID();
    const identity = await createIdentity(tx, {
      email: account.signIn,
      password: account.password,
      now,
    });
    await tx.update(identities).set({ emailVerified: true }).where(eq(identities.id, identity.id));
    let card: {
      customerProfileId: string;
      paymentProfileId: string;
      brand: string;
      last4: string;
    } | null = null;
    if (options.cards) {
      const token = await issueSandboxToken(
        tx as Database,
        {
          creditCardNumber: '4111111111111111',
          creditCardExpiration: '1130',
          creditCardCode: '123',
        },
        now,
      );
      const profile = await gateway.createCustomerProfile({
        accountId: id,
        email: account.signIn,
        paymentToken: token.paymentToken,
      });
      card = { ...profile, brand: profile.card.brand, last4: profile.card.last4 };
    }
    const anchor = addMonthsClamped(today, paid ? -4 : -2);
    const next = nextBillDate(anchor, today);
    const [user] = await tx
      .insert(users)
      .values({
        id,
        dealerpassUserId: account.signIn,
        karId: identity.id,
        email: account.signIn,
        firstName: account.firstName,
        lastName: account.lastName,
        dealership: account.dealership,
        phone: account.phone,
        auctionAccessId: account.auctionAccessId,
        dealershipAuctionAccessId: account.dealershipAuctionAccessId,
        address1: account.address1,
        city: account.city,
        state: account.state,
        zip: account.zip,
        billingFirstName: account.firstName,
        billingLastName: account.lastName,
        billingCountry: 'US',
        billingAddress1: account.address1,
        billingCity: account.city,
        billingState: account.state,
        billingZip: account.zip,
        ...(card ? { cardBrand: card.brand, cardLast4: card.last4, cardExpiration: '1130' } : {}),
        subscriptions: CODES,
        accountStatus: ACCOUNT_STATUS.active,
        nextBillDate: toIsoDate(next),
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    await tx.insert(subscriptions).values({
      userId: id,
      codes: CODES,
      cycleAnchor: toIsoDate(anchor),
      currentPeriodStart: toIsoDate(addMonthsClamped(next, -1, anchor.day)),
      currentPeriodEnd: toIsoDate(next),
      gatewayCustomerId: card?.customerProfileId ?? null,
      gatewayPaymentProfileId: card?.paymentProfileId ?? null,
      updatedAt: now,
    });
    const askedAt = new Date(now.getTime() - (paid ? 100 : 5) * DAY_MS);
    const period = annualPeriodFor(toIsoDate(anchor), toIsoDate(calendarDateIn(askedAt, timeZone)));
    const invoice = await issueInvoice(tx, deps, {
      user: user!,
      codes: CODES,
      period,
      kind: 'request',
      now: askedAt,
    });
    if (!paid) continue;
    const receivedAt = new Date(askedAt.getTime() + 20 * DAY_MS);
    await payByCheck(
      tx,
      deps,
      user!,
      invoice,
      {
        checkNumber: '4417',
        amountCents: invoice.totalCents,
        receivedOn: toIsoDate(calendarDateIn(receivedAt, timeZone)),
      },
      receivedAt,
    );
    // The run has passed the year's start: the account's period is the year.
    const nextStart = parseIsoDate(period.nextStart)!;
    await tx
      .update(subscriptions)
      .set({ currentPeriodStart: period.start, currentPeriodEnd: toIsoDate(nextStart) })
      .where(eq(subscriptions.userId, id));
    await tx.update(users).set({ nextBillDate: period.nextStart }).where(eq(users.id, id));
  }
  return DEMO_ANNUAL_ACCOUNTS.length;
}

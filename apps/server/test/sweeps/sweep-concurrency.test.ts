import { and, eq, inArray, like } from 'drizzle-orm';
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHARGEBACK_FEE_CENTS } from '@dealerpass/domain/billing/renewal-calendar';
import {
  accountEvents,
  balanceEntries,
  payments,
  refunds,
  sandboxGatewayCustomers,
  sandboxGatewayPaymentProfiles,
  sandboxGatewayTransactions,
  staffAudit,
  subscriptions,
  users,
} from '../../src/db/schema.ts';
import {
  isStaffAccess,
  isUnsafeMethod,
  type RouteTableEntry,
} from '../../src/plugins/route-access.ts';
import { SESSION_COOKIE } from '../../src/plugins/session.ts';
import { issueSandboxToken } from '../../src/sandboxes/payments/sandbox-tokens.ts';
import { runBilling } from '../../src/services/billing/run-billing.ts';
import { requestAnnualBilling } from '../../src/services/annual-billing/request-annual-billing.ts';
import {
  APPROVED_CARD,
  consolePost,
  DECLINED_CARD,
  renewingDealer,
  staffCookies,
} from '../factories/admin-fixtures.ts';
import { jsonSchemaOf, validValue } from './fuzz-arbitraries.ts';
import { buildTestApp, type TestApp, type TestBrowser } from '../support/helper.ts';
import { sweptRoutes } from './route-sweeps.ts';
import { sessionFor } from '../factories/sign-in.ts';

const NOW = new Date('2026-03-10T15:00:00Z');
const TODAY = '2026-03-10';
const PREVIOUS = '2026-02-10';
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
/** Rounds per pair; PGlite is one connection, where requests interleave only between statements. */
const ROUNDS = Number(process.env.CONCURRENCY_ROUNDS ?? (onPostgres ? 2 : 1));

/** The state a pair's fresh account starts in: what its writes need to do something. */
type AccountState = 'paid' | 'failing' | 'inactive';

/** One write on one account: a dealer's request, a staff action, or a billing-run step. */
interface Write {
  name: string;
  needs: AccountState | null;
  send(account: Fixture): Promise<Answer>;
}

/** What a write that answered 2xx must have left, whatever the other write of its pair did. */
type Effect = (account: Fixture, answer: Answer) => Promise<string | null>;

interface Fixture {
  userId: string;
  paymentId: string | null;
  paymentCents: number;
  /** A paid account's open annual invoice (R14), for the invoice routes. */
  invoiceId: string | null;
  invoiceCents: number;
}

interface Answer {
  status: number;
  body: string;
  /** A staff action's request key: its audit row exists exactly when it acted. */
  requestKey?: string;
}

/**
 * Issue 24's concurrency sweep (docs/decisions/028). The writes that touch one account's money or
 * status come from the route table: every dealer write of the Billing and Subscriptions pages
 * (each needs a recipe below: a new one fails the sweep until it has one) and every console
 * action on an account (bodies generated from their schemas); the billing run's step for one
 * account joins them. Every pair of a dealer write and a staff action, each of them with the
 * run, and a payment's refund or chargeback with every other console action, is sent at once,
 * in rounds, each time on a fresh account in the state the pair needs.
 * No answer may be a 5xx or undocumented; afterwards the account's ledger, the sandbox gateway's
 * own table, its status and its audit rows must agree.
 */
describe('concurrent writes on one account, over the route table', () => {
  let t: TestApp;
  let browser: TestBrowser;
  let billing: string;

  beforeAll(async () => {
    t = await buildTestApp({ now: () => NOW });
    browser = await t.browser();
    billing = (await staffCookies(t)).admin.cookie;
  }, 60_000);
  afterAll(() => t.close());

  const answerOf = (response: LightMyRequestResponse, requestKey?: string): Answer => ({
    status: response.statusCode,
    body: response.body,
    ...(requestKey ? { requestKey } : {}),
  });

  async function token(card: string) {
    const issued = await issueSandboxToken(
      t.app.db,
      { creditCardNumber: card, creditCardExpiration: '1230', creditCardCode: '123' },
      NOW,
    );
    return {
      paymentToken: issued.paymentToken,
      cardBrand: card.startsWith('5') ? 'mastercard' : 'visa',
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
    };
  }

  /** The dealer routes' bodies and the state each needs to act (R4, R10). */
  const DEALER_RECIPES: Record<
    string,
    {
      needs: AccountState | null;
      body: () => Promise<object | null>;
      /** The route's URL for the account, when it has parameters. */
      url?: (account: Fixture) => string;
    }
  > = {
    // R14: asking to pay annually (a paid account has an open invoice: refused, 409, or raced
    // with a staff void and issued), and "Keep paying monthly by card" on its open invoice.
    'POST /api/users/annualBilling': {
      needs: 'paid',
      body: async () => ({ requestKey: crypto.randomUUID() }),
    },
    'POST /api/users/annualBilling/invoices/:invoiceId/void': {
      needs: 'paid',
      body: async () => ({ requestKey: crypto.randomUUID() }),
      url: (account) => `/api/users/annualBilling/invoices/${account.invoiceId}/void`,
    },
    'PUT /api/users/paymentProfile': {
      needs: null,
      body: async () => ({ ...(await token('5555555555554444')), requestKey: crypto.randomUUID() }),
    },
    'DELETE /api/users/paymentProfile': { needs: null, body: async () => null },
    'PATCH /api/users/cancel': {
      needs: 'paid',
      body: async () => ({
        cancellationReasonOptions: ['too-expensive'],
        userProvidedCancelReason: '',
      }),
    },
    'PUT /api/users/reactivate': {
      needs: 'inactive',
      body: async () => ({ ...(await token(APPROVED_CARD)), requestKey: crypto.randomUUID() }),
    },
    'POST /api/users/subscriptions/change': {
      needs: 'paid',
      // Based on the selection the page shows a paid account (R10, decision 035).
      body: async () => ({
        codes: ['NADA', 'MMR', 'KBB'],
        idempotencyKey: crypto.randomUUID(),
        basedOn: { codes: ['NADA', 'MMR'], pendingRemovals: [] },
      }),
    },
    'POST /api/users/subscriptions/pendingRemovals/undo': {
      needs: 'paid',
      body: async () => ({ code: 'MMR' }),
    },
  };

  /**
   * Console actions whose bodies a generated one rarely satisfies, as the console sends them.
   * The change on the dealer's behalf (issue 28) is based on the selection a paid account shows,
   * as the dealer's own change above is: the two actors race for one selection (R10's basis check
   * and one change at a time).
   */
  const STAFF_RECIPES: Record<string, { needs: AccountState | null; body: object }> = {
    'POST /api/admin/accounts/:userId/subscription-change': {
      needs: 'paid',
      body: {
        codes: ['NADA', 'MMR', 'KBB'],
        basedOn: { codes: ['NADA', 'MMR'], pendingRemovals: [] },
      },
    },
  };

  function dealerRoutes(): RouteTableEntry[] {
    return sweptRoutes(t).filter((route) => {
      if (!isUnsafeMethod(route.method) || isStaffAccess(route.access)) return false;
      if (route.access === 'public' || !route.url.startsWith('/api/users/')) return false;
      const tags = (route.schema as { tags?: string[] } | undefined)?.tags ?? [];
      return (
        tags.includes('Billing') ||
        tags.includes('Subscriptions') ||
        tags.includes('Annual billing')
      );
    });
  }

  function staffRoutes(): RouteTableEntry[] {
    return sweptRoutes(t).filter(
      (route) =>
        route.method === 'POST' &&
        isStaffAccess(route.access) &&
        route.url.startsWith('/api/admin/accounts/:userId/'),
    );
  }

  function dealerWrite(route: RouteTableEntry): Write {
    const recipe = DEALER_RECIPES[`${route.method} ${route.url}`]!;
    return {
      name: `${route.method} ${route.url}`,
      needs: recipe.needs,
      async send(account) {
        const body = await recipe.body();
        const response = await t.app.inject({
          method: route.method as 'PUT',
          url: recipe.url ? recipe.url(account) : route.url,
          headers: {
            cookie: `${browser.cookie}; ${SESSION_COOKIE}=${await sessionFor(t, account.userId, NOW)}`,
            'x-csrf-token': browser.token,
            ...(body ? { 'content-type': 'application/json' } : {}),
          },
          ...(body ? { payload: JSON.stringify(body) } : {}),
        });
        return answerOf(response);
      },
    };
  }

  function staffWrite(route: RouteTableEntry): Write {
    const schema = jsonSchemaOf((route.schema as { body?: unknown } | undefined)?.body);
    const recipe = STAFF_RECIPES[`${route.method} ${route.url}`];
    const [generated] = recipe
      ? [recipe.body]
      : fc.sample(validValue(schema ?? undefined), { numRuns: 1, seed: 7 });
    const needs: AccountState | null = route.url.endsWith('/retry-renewal')
      ? 'failing'
      : (recipe?.needs ?? null);
    return {
      name: `${route.method} ${route.url}`,
      needs,
      async send(account) {
        const requestKey = crypto.randomUUID();
        const body: Record<string, unknown> = {
          ...(generated as object),
          requestKey,
          reason: 'Concurrency sweep',
        };
        // A refund of the whole payment, so the one it races with meets nothing left.
        if (route.url.endsWith('/refund')) body.amountCents = account.paymentCents || 1000;
        if (route.url.endsWith('/balance-adjustments')) body.amountCents = 500;
        // A check for what the invoice leaves open, so it pays it unless the other write won.
        if (route.url.endsWith('/check')) {
          Object.assign(body, { amountCents: account.invoiceCents || 1000, receivedOn: TODAY });
        }
        const url = route.url
          .replace(':userId', account.userId)
          .replace(':paymentId', account.paymentId ?? crypto.randomUUID())
          .replace(':invoiceId', account.invoiceId ?? crypto.randomUUID());
        return answerOf(await consolePost(t, browser, billing, url, body), requestKey);
      },
    };
  }

  const runStep: Write = {
    name: 'billing run (this account)',
    needs: 'failing',
    async send(account) {
      try {
        await runBilling(t.app.deps.billing, { userId: account.userId });
        return { status: 200, body: '' };
      } catch (error) {
        return { status: 500, body: String(error) };
      }
    },
  };

  const cardOf = async (userId: string) =>
    (await t.app.db.select().from(users).where(eq(users.id, userId)))[0]!.cardLast4;
  /** Each write's own effect, where no other write of a pair can undo it. */
  const EFFECTS: Record<string, Effect> = {
    'PUT /api/users/paymentProfile': async ({ userId }) =>
      (await cardOf(userId)) === '4444' ? null : 'the new card is not on file',
    'DELETE /api/users/paymentProfile': async ({ userId }) =>
      (await cardOf(userId)) === null ? null : 'a card is still on file',
    'POST /api/admin/accounts/:userId/payments/:paymentId/refund': async (_, { requestKey }) => {
      const [row] = await t.app.db
        .select()
        .from(refunds)
        .where(eq(refunds.requestKey, requestKey!));
      return row?.status === 'succeeded' ? null : 'no refund succeeded under its key';
    },
    'POST /api/admin/accounts/:userId/payments/:paymentId/chargeback': async ({ paymentId }) => {
      const [row] = await t.app.db.select().from(payments).where(eq(payments.id, paymentId!));
      return row?.chargedBackAt ? null : 'the payment is not charged back';
    },
  };

  /** A fresh account in the state: paid (active, a renewal payment), failing, or inactive. */
  async function fresh(state: AccountState): Promise<Fixture> {
    const { user, payment } = await renewingDealer(t, {
      now: NOW,
      today: TODAY,
      previous: PREVIOUS,
      card: state === 'failing' ? DECLINED_CARD : APPROVED_CARD,
    });
    if (state === 'inactive') {
      // As a chargeback leaves it: inactive, the card on file still there.
      await t.app.db.update(users).set({ accountStatus: 'inactive' }).where(eq(users.id, user.id));
    }
    if (state === 'failing') {
      // Its next retry is due now: the run charges it again (R4).
      await t.app.db
        .update(subscriptions)
        .set({ nextRetryAt: NOW })
        .where(eq(subscriptions.userId, user.id));
    }
    // R14: a paid account has asked to pay annually; its invoice is open.
    const invoice =
      state === 'paid'
        ? await requestAnnualBilling(t.app.db, t.app.deps.billing, {
            userId: user.id,
            now: NOW,
            body: { requestKey: crypto.randomUUID() },
            params: {},
          })
        : null;
    return {
      userId: user.id,
      paymentId: payment?.id ?? null,
      paymentCents: payment?.amountCents ?? 0,
      invoiceId: invoice?.id ?? null,
      invoiceCents: invoice?.totalCents ?? 0,
    };
  }

  /** What disagrees on one account after a pair: the ledger, the gateway, the status, the audit. */
  async function disagreements(
    account: Fixture,
    answers: Answer[],
    eventsBefore: Set<string>,
    statusBefore: string,
  ) {
    const problems: string[] = [];
    const { userId } = account;
    const profiles = await t.app.db
      .select({ id: sandboxGatewayPaymentProfiles.id })
      .from(sandboxGatewayPaymentProfiles)
      .innerJoin(
        sandboxGatewayCustomers,
        eq(sandboxGatewayCustomers.id, sandboxGatewayPaymentProfiles.customerId),
      )
      .where(eq(sandboxGatewayCustomers.merchantCustomerId, userId));
    const charges =
      profiles.length === 0
        ? []
        : await t.app.db
            .select()
            .from(sandboxGatewayTransactions)
            .where(
              and(
                inArray(
                  sandboxGatewayTransactions.paymentProfileId,
                  profiles.map((profile) => profile.id),
                ),
                eq(sandboxGatewayTransactions.kind, 'charge'),
              ),
            );
    const approved = charges.filter((charge) => charge.status !== 'declined');
    const paid = await t.app.db.select().from(payments).where(eq(payments.userId, userId));
    // Every approved charge is a payment of ours, once, and every payment an approved charge.
    const charged = approved.map((charge) => charge.id).sort();
    const recorded = paid
      .map((payment) => payment.gatewayTransactionId)
      .filter((id) => id !== 'no-charge' && !id.startsWith('check:'))
      .sort();
    if (JSON.stringify(charged) !== JSON.stringify(recorded)) {
      problems.push(`gateway charges ${charged.length} ≠ payments ${recorded.length}`);
    }
    // The money the gateway gave back is what our refunds say went back.
    const given =
      approved.length === 0
        ? []
        : await t.app.db
            .select()
            .from(sandboxGatewayTransactions)
            .where(
              and(
                eq(sandboxGatewayTransactions.kind, 'refund'),
                inArray(
                  sandboxGatewayTransactions.chargeId,
                  approved.map((charge) => charge.id),
                ),
              ),
            );
    const refundRows = await t.app.db.select().from(refunds).where(eq(refunds.userId, userId));
    const ours =
      refundRows
        .filter((row) => row.status === 'succeeded')
        .reduce((sum, row) => sum + row.amountCents, 0) +
      paid
        .filter((payment) => payment.status === 'refunded')
        .reduce((sum, payment) => sum + (payment.refundClaimedCents ?? 0), 0);
    const theirs = given.reduce((sum, row) => sum + row.amountCents, 0);
    if (ours !== theirs) problems.push(`refunded ${ours} ≠ gateway refunds ${theirs}`);
    // R15 and R4: a chargeback only of what was not refunded, with one fee each.
    const fees = await t.app.db
      .select()
      .from(balanceEntries)
      .where(and(eq(balanceEntries.userId, userId), like(balanceEntries.source, 'chargeback:%')));
    const chargedBack = paid.filter((payment) => payment.chargedBackAt !== null);
    if (fees.length !== chargedBack.length) {
      problems.push(`${fees.length} chargeback fees for ${chargedBack.length} chargebacks`);
    }
    if (fees.some((entry) => entry.amountCents !== CHARGEBACK_FEE_CENTS))
      problems.push('fee amount');
    for (const payment of chargedBack) {
      const refunded = refundRows
        .filter((row) => row.paymentId === payment.id && row.status === 'succeeded')
        .reduce((sum, row) => sum + row.amountCents, 0);
      if (refunded >= payment.amountCents) problems.push('a payment refunded in full charged back');
    }
    // The status moved only through recorded transitions: from where it was to where it is.
    const [user] = await t.app.db.select().from(users).where(eq(users.id, userId));
    const events = (
      await t.app.db.select().from(accountEvents).where(eq(accountEvents.userId, userId))
    ).filter((event) => !eventsBefore.has(event.id) && event.toStatus !== null);
    const net = new Map<string, number>();
    for (const event of events) {
      net.set(event.fromStatus!, (net.get(event.fromStatus!) ?? 0) - 1);
      net.set(event.toStatus!, (net.get(event.toStatus!) ?? 0) + 1);
    }
    net.set(statusBefore, (net.get(statusBefore) ?? 0) + 1);
    net.set(user!.accountStatus, (net.get(user!.accountStatus) ?? 0) - 1);
    if ([...net.values()].some((count) => count !== 0)) {
      problems.push(`status ${statusBefore} → ${user!.accountStatus} not by its events`);
    }
    // A staff action that acted has its one audit row; one refused has none.
    for (const answer of answers) {
      if (!answer.requestKey) continue;
      const audit = await t.app.db
        .select({ id: staffAudit.id })
        .from(staffAudit)
        .where(eq(staffAudit.requestKey, answer.requestKey));
      const acted = answer.status === 200;
      if (acted && audit.length !== 1) problems.push(`acted (200) with ${audit.length} audit rows`);
      if (answer.status === 409 && audit.length !== 0) problems.push('refused (409) but audited');
    }
    return problems;
  }

  it('finds the writes in the route table: every dealer money write has a recipe', () => {
    const dealer = dealerRoutes().map((route) => `${route.method} ${route.url}`);
    expect(dealer.sort()).toEqual(Object.keys(DEALER_RECIPES).sort());
    const staff = staffRoutes().map((route) => route.url);
    expect(staff.length).toBeGreaterThanOrEqual(8);
    expect(staff).toContain('/api/admin/accounts/:userId/payments/:paymentId/chargeback');
    for (const name of Object.keys(STAFF_RECIPES)) expect(staff).toContain(name.slice(5));
  });

  it('sends each pair at once on a fresh account: no 5xx, and the books agree afterwards', async () => {
    const dealer = dealerRoutes().map(dealerWrite);
    const staff = staffRoutes().map(staffWrite);
    const pairs: [Write, Write][] = [
      ...dealer.flatMap((one) => staff.map((other): [Write, Write] => [one, other])),
      ...dealer.map((one): [Write, Write] => [one, runStep]),
      ...staff.map((one): [Write, Write] => [one, runStep]),
      // Two members on one payment: its refund or chargeback with every other console action.
      ...staff.flatMap((one, i) =>
        one.name.includes(':paymentId')
          ? staff
              .filter((other, j) => j !== i && (!other.name.includes(':paymentId') || j > i))
              .map((other): [Write, Write] => [one, other])
          : [],
      ),
    ];
    const problems: string[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const [one, other] of pairs) {
        const state = one.needs ?? other.needs ?? 'paid';
        const account = await fresh(state);
        const [user] = await t.app.db.select().from(users).where(eq(users.id, account.userId));
        const eventsBefore = new Set(
          (
            await t.app.db
              .select({ id: accountEvents.id })
              .from(accountEvents)
              .where(eq(accountEvents.userId, account.userId))
          ).map((event) => event.id),
        );
        const answers = await Promise.all([one.send(account), other.send(account)]);
        const label = `${one.name} × ${other.name} (${state})`;
        for (const [i, answer] of answers.entries()) {
          const write = i === 0 ? one : other;
          if (answer.status >= 500) {
            problems.push(`${label}: ${write.name} → ${answer.status} ${answer.body}`);
          }
          const effect = EFFECTS[write.name];
          const missing = answer.status < 300 && effect ? await effect(account, answer) : null;
          if (missing)
            problems.push(`${label}: ${write.name} answered ${answer.status} but ${missing}`);
        }
        for (const problem of await disagreements(
          account,
          answers,
          eventsBefore,
          user!.accountStatus,
        )) {
          problems.push(`${label}: ${problem}`);
        }
      }
    }
    expect(problems).toEqual([]);
    // Every answer is its effect or a refusal the API description documents.
    expect(t.conformanceFailures).toEqual([]);
  }, 600_000);
});

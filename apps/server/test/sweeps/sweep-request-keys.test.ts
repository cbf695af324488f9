import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRICED_ITEMS } from '@dealerpass/domain/prices';
import type { CaptchaVerifier } from '../../src/adapters/captcha/captcha-verifier.ts';
import { contactRequests, identities, requestKeys, subscriptions } from '../../src/db/schema.ts';
import { isStaffAccess, type RouteTableEntry } from '../../src/plugins/route-access.ts';
import { SESSION_COOKIE } from '../../src/plugins/session.ts';
import { REQUEST_KEY_FIELDS, requestContent } from '@dealerpass/domain/request-key';
import {
  DECLINED_CARD,
  consolePost,
  insertPayment,
  plainDealer,
  renewingDealer,
  staffCookies,
} from '../factories/admin-fixtures.ts';
import { jsonSchemaOf, validValue, type JsonSchema } from './fuzz-arbitraries.ts';
import { buildTestApp, type TestApp, type TestBrowser } from '../support/helper.ts';
import { rowCounts, sweptRoutes } from './route-sweeps.ts';
import { createAccount, sessionFor } from '../factories/sign-in.ts';
import { signupBody } from '../factories/signup-body.ts';
import { createStaffUser } from '../factories/staff-sign-in.ts';
import { issueSandboxToken } from '../../src/sandboxes/payments/sandbox-tokens.ts';
import { recordCheck } from '../../src/services/annual-billing/record-check.ts';
import { annualDealer } from '../factories/annual-fixtures.ts';

/** Tries per route at a body its schema accepts (refinements can refuse a generated one). */
const BODY_TRIES = 60;
const NOW = new Date('2026-03-10T15:00:00Z');
const ACCOUNT = '/api/admin/accounts/:userId';
/** The keyed routes nobody is signed in to call: the sign-up's final request (decision 045). */
const SIGNUP_URLS = ['/api/v2/signup', '/api/signup'];

/** Every captcha passes: solving one is proof of work, and the sweep signs up several times. */
const PASSING_CAPTCHA: CaptchaVerifier = {
  kind: 'altcha',
  publicConfig: () => ({ kind: 'altcha', challengeUrl: '/api/captcha/challenge' }),
  verify: async () => ({
    ok: true,
    replayKey: randomUUID(),
    expiresAt: new Date(Date.now() + 600_000),
  }),
};

/** A first request of a keyed route, as its page sends it, and who sends it. */
interface FirstRequest {
  params: Record<string, string>;
  body: Record<string, unknown>;
  cookie: string;
  /** Another body the route accepts, for a schema whose refinements generated ones rarely pass. */
  other?: Record<string, unknown>;
}

/** A body each route accepts, for the same reason. */
const ACCEPTED: Record<string, Record<string, unknown>> = {
  '/api/users/subscriptions/change': {
    codes: ['NADA', 'MMR'],
    basedOn: { codes: ['NADA'], pendingRemovals: [] },
  },
  '/api/admin/accounts/:userId/subscription-change': {
    codes: ['NADA', 'MMR'],
    basedOn: { codes: ['NADA'], pendingRemovals: [] },
    reason: 'Sweep: an accepted body',
  },
};

/**
 * One intent, one key (docs/decisions/031). Every route whose body carries a `requestKey` or an
 * `idempotencyKey`, taken from the route table, goes through the one once-per-key mechanism:
 * its key sent again with another action, another target or another body is 409
 * REQUEST_KEY_REUSED, as its description says, and writes nothing; the same request again
 * writes nothing either. Fuzzing found one route whose 409 was undocumented by chance, and the
 * console's forms resent a key with new content ("created" when nothing was): this sweep asks
 * every keyed route, every run, and a keyed route added without a first request below fails it.
 */
describe('request keys over the route table', () => {
  let t: TestApp;
  let browser: TestBrowser;
  let cookies: Awaited<ReturnType<typeof staffCookies>>;

  beforeAll(async () => {
    t = await buildTestApp({ now: () => NOW, captcha: PASSING_CAPTCHA });
    browser = await t.browser();
    cookies = await staffCookies(t);
    // A card body: a generated one never carries a token the sandbox issued.
    ACCEPTED['/api/users/paymentProfile'] = await cardBody('4111111111111111');
    for (const url of SIGNUP_URLS) ACCEPTED[url] = await signup(fresh('signup-accepted'));
  }, 60_000);
  afterAll(() => t.close());

  const reason = 'Sweep: the first request';
  const dealerCookie = async (userId: string) =>
    `${SESSION_COOKIE}=${await sessionFor(t, userId, NOW)}`;
  /** A keyed route's request, with its own method (the reactivation is a PUT, decision 038). */
  const sendTo = (method: string, cookie: string, url: string, payload: object) =>
    method === 'POST'
      ? consolePost(t, browser, cookie, url, payload)
      : t.app.inject({
          method: method as 'PUT',
          url,
          headers: {
            cookie: [browser.cookie, cookie].join('; '),
            'x-csrf-token': browser.token,
            'content-type': 'application/json',
          },
          payload: JSON.stringify(payload),
        });
  /** What the billing form sends for a card: a sandbox token, never the number (R5). */
  const cardBody = async (number: string) => ({
    paymentToken: (
      await issueSandboxToken(
        t.app.db,
        { creditCardNumber: number, creditCardExpiration: '1230', creditCardCode: '123' },
        NOW,
      )
    ).paymentToken,
    cardBrand: number.startsWith('5') ? 'mastercard' : 'visa',
    cardLast4: number.slice(-4),
    creditCardExpiration: '1230',
    billingFirstName: 'Pat',
    billingLastName: 'Payer',
    billingCountry: 'US',
    billingAddress1: '2 Bill St',
    billingAddress2: '',
    billingCity: 'Lansing',
    billingState: 'MI',
    billingZip: '48901',
  });
  const annual = (invoice: boolean) =>
    annualDealer(t, { now: NOW, today: '2026-03-10', previous: '2026-02-10', invoice });
  const fresh = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}@example.com`;

  /** A sign-up with a card (R5: a sandbox token), its captcha solved. */
  const signup = async (email: string) => {
    const card = await cardBody('4111111111111111');
    return signupBody(email, {
      paymentToken: card.paymentToken,
      cardBrand: card.cardBrand,
      cardLast4: card.cardLast4,
      creditCardExpiration: card.creditCardExpiration,
      // The sweep's captcha passes (below): the key, not the captcha, decides.
      recaptcha: 'solved',
    });
  };

  /** Per keyed route, a first request that succeeds, on things made for it. */
  const FIRSTS: Record<string, () => Promise<FirstRequest>> = {
    // The sign-up's final request charges the card (docs/decisions/045); nobody is signed in.
    '/api/v2/signup': async () => ({
      params: {},
      body: await signup(fresh('signup')),
      other: await signup(fresh('signup-other')),
      cookie: '',
    }),
    '/api/signup': async () => ({
      params: {},
      body: await signup(fresh('signup-older')),
      other: await signup(fresh('signup-older-other')),
      cookie: '',
    }),
    [`${ACCOUNT}/resend-verification`]: async () => {
      const { user, identityId } = await createAccount(t, { email: fresh('verify') });
      await t.app.db
        .update(identities)
        .set({ emailVerified: false })
        .where(eq(identities.id, identityId!));
      return { params: { userId: user.id }, body: {}, cookie: cookies.admin.cookie };
    },
    [`${ACCOUNT}/end-sessions`]: async () => ({
      params: { userId: (await plainDealer(t)).id },
      body: {},
      cookie: cookies.admin.cookie,
    }),
    [`${ACCOUNT}/block`]: async () => ({
      params: { userId: (await plainDealer(t)).id },
      body: { reason },
      cookie: cookies.admin.cookie,
    }),
    [`${ACCOUNT}/unblock`]: async () => ({
      params: { userId: (await plainDealer(t, { accountStatus: 'blocked' })).id },
      body: { reason },
      cookie: cookies.admin.cookie,
    }),
    [`${ACCOUNT}/complimentary`]: async () => ({
      params: { userId: (await plainDealer(t)).id },
      body: { on: true, reason },
      cookie: cookies.admin.cookie,
    }),
    [`${ACCOUNT}/payments/:paymentId/refund`]: async () => {
      const { user, payment } = await renewingDealer(t, {
        now: NOW,
        today: '2026-03-10',
        previous: '2026-02-10',
      });
      return {
        params: { userId: user.id, paymentId: payment!.id },
        body: { amountCents: 100, reason },
        cookie: cookies.admin.cookie,
      };
    },
    [`${ACCOUNT}/payments/:paymentId/chargeback`]: async () => {
      const user = await plainDealer(t);
      const { payment } = await insertPayment(t, user.id, { amountCents: 6800 });
      return {
        params: { userId: user.id, paymentId: payment.id },
        body: { reason },
        cookie: cookies.admin.cookie,
      };
    },
    [`${ACCOUNT}/retry-renewal`]: async () => {
      const { user } = await renewingDealer(t, {
        now: NOW,
        today: '2026-03-10',
        previous: '2026-02-10',
        card: DECLINED_CARD,
      });
      // The run's next retry is not due yet: the staff retry makes it due now.
      await t.app.db
        .update(subscriptions)
        .set({ nextRetryAt: new Date(NOW.getTime() + 86_400_000) })
        .where(eq(subscriptions.userId, user.id));
      return { params: { userId: user.id }, body: {}, cookie: cookies.admin.cookie };
    },
    // A change on the dealer's behalf (issue 28): a removal, pending until the next bill date.
    [`${ACCOUNT}/subscription-change`]: async () => {
      const { user } = await renewingDealer(t, {
        now: NOW,
        today: '2026-03-10',
        previous: '2026-02-10',
        codes: ['NADA', 'MMR'],
      });
      return {
        params: { userId: user.id },
        body: { codes: ['NADA'], basedOn: { codes: ['NADA', 'MMR'], pendingRemovals: [] }, reason },
        other: {
          codes: ['MMR'],
          basedOn: { codes: ['NADA', 'MMR'], pendingRemovals: [] },
          reason,
        },
        cookie: cookies.admin.cookie,
      };
    },
    [`${ACCOUNT}/balance-adjustments`]: async () => ({
      params: { userId: (await plainDealer(t)).id },
      body: { kind: 'credit', amountCents: 500, reason },
      cookie: cookies.admin.cookie,
    }),
    '/api/admin/promotions': async () => ({
      params: {},
      body: promotion(`SWEEP${randomUUID().slice(0, 6)}`),
      cookie: cookies.admin.cookie,
    }),
    '/api/admin/promotions/:code/disable': async () => {
      const code = `SWEEPOFF${randomUUID().slice(0, 6)}`;
      const created = await consolePost(t, browser, cookies.admin.cookie, '/api/admin/promotions', {
        ...promotion(code),
        requestKey: randomUUID(),
      });
      expect(created.statusCode, created.body).toBe(201);
      return {
        params: { code: code.toUpperCase() },
        body: { reason },
        cookie: cookies.admin.cookie,
      };
    },
    '/api/admin/prices': async () => ({
      params: {},
      body: { effectiveDate: '2026-06-01', prices: [{ item: PRICED_ITEMS[0], cents: 4321 }] },
      cookie: cookies.admin.cookie,
    }),
    '/api/admin/prices/withdrawal': async () => {
      const scheduled = await consolePost(t, browser, cookies.admin.cookie, '/api/admin/prices', {
        effectiveDate: '2026-07-01',
        prices: [{ item: PRICED_ITEMS[0], cents: 4567 }],
        requestKey: randomUUID(),
      });
      expect(scheduled.statusCode, scheduled.body).toBeLessThan(300);
      return {
        params: {},
        body: { effectiveDate: '2026-07-01', reason },
        cookie: cookies.admin.cookie,
      };
    },
    '/api/admin/contact-messages/:id/reply': async () => {
      const [message] = await t.app.db
        .insert(contactRequests)
        .values({
          fullName: 'Robin Sender',
          email: fresh('sender'),
          phoneCountry: 'United States',
          phoneNumber: '3135550142',
          queryType: 'Account Update',
          comments: 'How do I change my card?',
          source: 'Web',
        })
        .returning();
      return {
        params: { id: message!.id },
        body: { body: 'Open Billing and choose Update card.' },
        cookie: cookies.admin.cookie,
      };
    },
    '/api/admin/staff': async () => ({
      params: {},
      body: {
        email: fresh('member'),
        name: 'Sweep Member',
        role: 'support',
        password: 'Sweep-Member-2026!',
      },
      cookie: cookies.admin.cookie,
    }),
    '/api/admin/staff/:staffId/reset-second-factor': async () => ({
      params: { staffId: cookies.support.staffId },
      body: { reason },
      cookie: cookies.admin.cookie,
    }),
    '/api/admin/staff/:staffId/disabled': async () => ({
      params: { staffId: (await createStaffUser(t, { role: 'support' })).id },
      body: { disabled: true, reason },
      cookie: cookies.admin.cookie,
    }),
    '/api/admin/staff/:staffId/role': async () => ({
      params: { staffId: (await createStaffUser(t, { role: 'support' })).id },
      body: { role: 'billing', reason },
      cookie: cookies.admin.cookie,
    }),
    '/api/users/subscriptions/change': async () => {
      const { user } = await renewingDealer(t, {
        now: NOW,
        today: '2026-03-10',
        previous: '2026-02-10',
        codes: ['NADA', 'MMR'],
      });
      return {
        params: {},
        body: { codes: ['NADA'], basedOn: { codes: ['NADA', 'MMR'], pendingRemovals: [] } },
        other: { codes: ['MMR'], basedOn: { codes: ['NADA', 'MMR'], pendingRemovals: [] } },
        cookie: await dealerCookie(user.id),
      };
    },
    '/api/users/paymentProfile': async () => ({
      params: {},
      body: await cardBody('4111111111111111'),
      other: await cardBody('5555555555554444'),
      cookie: await dealerCookie((await plainDealer(t)).id),
    }),
    // Annual billing by check (R14): an eligible dealer, or one with an open (or paid) invoice.
    '/api/users/annualBilling': async () => {
      const { user } = await annual(false);
      return {
        params: {},
        body: {},
        other: { basedOn: { periodStart: '2026-04-10', discountedTotalCents: 1 } },
        cookie: await dealerCookie(user.id),
      };
    },
    '/api/users/annualBilling/invoices/:invoiceId/void': async () => {
      const { user, invoice } = await annual(true);
      return {
        params: { invoiceId: invoice!.id },
        body: {},
        other: { reason: 'Paying by card after all' },
        cookie: await dealerCookie(user.id),
      };
    },
    [`${ACCOUNT}/annual-billing`]: async () => ({
      params: { userId: (await annual(false)).user.id },
      body: { reason },
      cookie: cookies.billing.cookie,
    }),
    [`${ACCOUNT}/invoices/:invoiceId/void`]: async () => {
      const { user, invoice } = await annual(true);
      return {
        params: { userId: user.id, invoiceId: invoice!.id },
        body: { reason },
        cookie: cookies.billing.cookie,
      };
    },
    [`${ACCOUNT}/invoices/:invoiceId/resend`]: async () => {
      const { user, invoice } = await annual(true);
      return {
        params: { userId: user.id, invoiceId: invoice!.id },
        body: {},
        cookie: cookies.billing.cookie,
      };
    },
    [`${ACCOUNT}/invoices/:invoiceId/check`]: async () => {
      const { user, invoice } = await annual(true);
      return {
        params: { userId: user.id, invoiceId: invoice!.id },
        body: { checkNumber: '1234', amountCents: invoice!.totalCents, receivedOn: '2026-03-10' },
        cookie: cookies.billing.cookie,
      };
    },
    [`${ACCOUNT}/invoices/:invoiceId/check/returned`]: async () => {
      const { user, invoice } = await annual(true);
      const params = { userId: user.id, invoiceId: invoice!.id };
      await recordCheck(t.app.db, t.app.deps.billing, {
        ...params,
        now: NOW,
        body: {
          requestKey: randomUUID(),
          checkNumber: '1234',
          amountCents: invoice!.totalCents,
          receivedOn: '2026-03-10',
        },
        params,
        actor: { staffId: cookies.billing.staffId, email: cookies.billing.email },
      });
      return { params, body: { reason }, cookie: cookies.billing.cookie };
    },
    // During pending cancel: restored, no card and no charge (R4); the key is recorded all the same.
    '/api/users/reactivate': async () => ({
      params: {},
      body: {},
      other: { billingFirstName: 'Robin' },
      cookie: await dealerCookie((await plainDealer(t, { accountStatus: 'pending cancel' })).id),
    }),
  };

  function promotion(code: string) {
    return {
      code,
      kind: 'percent_off',
      value: 10,
      description: 'Sweep offer',
      requiresCard: false,
    };
  }

  function keyedRoutes(): {
    route: RouteTableEntry;
    body: JsonSchema;
    params: JsonSchema | null;
    field: (typeof REQUEST_KEY_FIELDS)[number];
  }[] {
    return sweptRoutes(t).flatMap((route) => {
      const schema = route.schema as Record<string, unknown> | undefined;
      const body = jsonSchemaOf(schema?.body);
      const field = REQUEST_KEY_FIELDS.find((name) => name in (body?.properties ?? {}));
      if (!body || !field) return [];
      return [{ route, body, params: jsonSchemaOf(schema?.params), field }];
    });
  }

  const urlOf = (pattern: string, params: Record<string, unknown>) =>
    pattern.replace(/:(\w+)/g, (_, name: string) =>
      encodeURIComponent(String(params[name] ?? 'x')),
    );
  it('finds the keyed routes in the route table: each a POST (or PUT), of the console or an account, each with a first request here', () => {
    const routes = keyedRoutes();
    expect(routes.length).toBeGreaterThan(10);
    for (const { route } of routes) {
      expect(['POST', 'PUT'], route.url).toContain(route.method);
      const access = route.access;
      expect(
        isStaffAccess(access) ||
          (typeof access === 'object' && 'page' in access) ||
          (access === 'public' && SIGNUP_URLS.includes(route.url)),
        route.url,
      ).toBe(true);
    }
    expect(routes.map(({ route }) => route.url).sort()).toEqual(Object.keys(FIRSTS).sort());
  });

  it('refuses a key another action used, 409, on every keyed route, and writes nothing', async () => {
    // A real action takes the key first: sessions ended on an account no swept request names.
    const dealer = await plainDealer(t);
    const usedKey = randomUUID();
    const first = await consolePost(
      t,
      browser,
      cookies.admin.cookie,
      `/api/admin/accounts/${dealer.id}/end-sessions`,
      { requestKey: usedKey },
    );
    expect(first.statusCode, first.body).toBe(200);
    const account = await plainDealer(t, { subscriptions: ['NADA'] });
    const dealerSession = await dealerCookie(account.id);

    const before = await rowCounts(t);
    const problems: string[] = [];
    for (const { route, body, params, field } of keyedRoutes()) {
      const samples = fc.sample(
        fc.tuple(validValue(body), params ? validValue(params) : fc.constant({})),
        { numRuns: BODY_TRIES, seed: 42 },
      );
      // The accepted body first: the sign-up counts every request against its rate limit.
      const accepted = ACCEPTED[route.url];
      // The accepted body on a target its parameters' schema accepts (an account's id), first: the
      // sign-up counts every request against its rate limit.
      const target = params ? fc.sample(validValue(params), { numRuns: 1, seed: 42 })[0] : {};
      if (accepted) samples.unshift([accepted, target]);
      let answered = false;
      for (const [payload, values] of samples) {
        // Never the account whose key it is: a repeat there would be that action's own replay.
        const url = urlOf(route.url, values as Record<string, unknown>).replace(
          dealer.id,
          randomUUID(),
        );
        const cookie = isStaffAccess(route.access) ? cookies.admin.cookie : dealerSession;
        const response = await sendTo(route.method, cookie, url, {
          ...(payload as object),
          [field]: usedKey,
        });
        if (response.statusCode === 400) continue; // a generated body its refinements refuse
        answered = true;
        const code = response.json<{ code?: string }>().code;
        if (response.statusCode !== 409 || code !== 'REQUEST_KEY_REUSED') {
          problems.push(`${route.method} ${route.url} → ${response.statusCode} ${code ?? ''}`);
        }
        break;
      }
      if (!answered)
        problems.push(`${route.method} ${route.url}: no accepted body in ${BODY_TRIES}`);
    }
    expect(problems).toEqual([]);
    expect(await rowCounts(t)).toEqual(before);
    expect(t.conformanceFailures).toEqual([]);
  });

  it('refuses its own key with another body or another target, 409, on every keyed route, and writes nothing', async () => {
    const firsts: {
      route: RouteTableEntry;
      first: FirstRequest;
      key: string;
      body: JsonSchema;
      params: JsonSchema | null;
      field: string;
      status: number;
    }[] = [];
    for (const { route, body, params, field } of keyedRoutes()) {
      const make = FIRSTS[route.url];
      if (!make) throw new Error(`no first request for ${route.url}`);
      const first = await make();
      const key = randomUUID();
      const response = await sendTo(route.method, first.cookie, urlOf(route.url, first.params), {
        ...first.body,
        [field]: key,
      });
      expect(response.statusCode, `${route.url}: ${response.body}`).toBeLessThan(300);
      const [recorded] = await t.app.db.select().from(requestKeys).where(eq(requestKeys.key, key));
      expect(recorded, route.url).toBeDefined();
      firsts.push({ route, first, key, body, params, field, status: response.statusCode });
    }

    const before = await rowCounts(t);
    const problems: string[] = [];
    const expect409 = async (label: string, response: { statusCode: number; json: <T>() => T }) => {
      const code = response.json<{ code?: string }>().code;
      if (response.statusCode !== 409 || code !== 'REQUEST_KEY_REUSED') {
        problems.push(`${label} → ${response.statusCode} ${code ?? ''}`);
      }
    };
    for (const { route, first, key, body, params, field, status } of firsts) {
      const url = urlOf(route.url, first.params);
      // The same request again: the first answer, nothing done twice.
      const again = await sendTo(route.method, first.cookie, url, {
        ...first.body,
        [field]: key,
      });
      if (again.statusCode !== status) problems.push(`${route.url} repeated → ${again.statusCode}`);

      // Another body the schema accepts, with the first one's target.
      const bodies = fc.sample(validValue(body), { numRuns: BODY_TRIES, seed: 7 });
      if (first.other) bodies.unshift(first.other);
      let sentOther = false;
      for (const other of bodies) {
        if (requestContent(other as object) === requestContent(first.body)) continue;
        const response = await sendTo(route.method, first.cookie, url, {
          ...(other as object),
          [field]: key,
        });
        if (response.statusCode === 400) continue;
        sentOther = true;
        await expect409(`${route.url} with another body`, response);
        break;
      }
      if (!sentOther) problems.push(`${route.url}: no other accepted body in ${BODY_TRIES}`);

      // The first body on another target (each parameter another value its schema accepts).
      if (params && Object.keys(first.params).length > 0) {
        const [values] = fc.sample(validValue(params), { numRuns: 1, seed: 11 });
        const target = { ...first.params };
        for (const name of Object.keys(target)) {
          const value = String((values as Record<string, unknown>)[name] ?? 'x');
          target[name] = value === first.params[name] ? `${value}x` : value;
        }
        const response = await sendTo(route.method, first.cookie, urlOf(route.url, target), {
          ...first.body,
          [field]: key,
        });
        await expect409(`${route.url} on another target`, response);
      }
    }
    expect(problems).toEqual([]);
    expect(await rowCounts(t)).toEqual(before);
    expect(t.conformanceFailures).toEqual([]);
  }, 120_000);
});

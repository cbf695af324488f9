import { randomBytes, randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomState } from '@dealerpass/domain/random-state';
import type { CarfaxFetch } from '../../src/adapters/carfax/carfax-oauth-client.ts';
import { CARFAX_SANDBOX_PASSWORD } from '../../src/sandboxes/carfax/test-users.ts';
import { AUTOCHECK_SANDBOX_CREDENTIALS } from '../../src/sandboxes/autocheck/sandbox-autocheck.ts';
import { mailOutbox, payments, sessions, users } from '../../src/db/schema.ts';
import { open } from '../../src/lib/secret-box.ts';
import { inProcessFetch } from '../../src/plugins/identity.ts';
import { isStaffAccess } from '../../src/plugins/route-access.ts';
import { SESSION_COOKIE } from '../../src/plugins/session.ts';
import { STAFF_SESSION_COOKIE } from '../../src/plugins/staff-session.ts';
import { hashSessionId } from '../../src/services/session/session-store.ts';
import { buildTestApp, type TestApp } from '../support/helper.ts';
import { TestBrowserSession } from '../factories/sign-in.ts';
import { staffSessionFor } from '../factories/staff-sign-in.ts';
import { startSmtpServer } from '../support/smtp-double.ts';

/** A browser that also remembers every URL it opened (the callbacks carry the one-time codes). */
class RecordingBrowser extends TestBrowserSession {
  readonly visited: string[] = [];
  override async get(url: string, extraHeaders: Record<string, string> = {}) {
    this.visited.push(url);
    return super.get(url, extraHeaders);
  }
}

/** A mail's text as sent: quoted-printable soft breaks joined and escapes decoded. */
const decodeQuotedPrintable = (raw: string) =>
  raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));

/**
 * Issue 13's secrets sweep: a scripted sign-up with a card, password set from the e-mailed link,
 * sign-in, card change, AutoCheck save, Carfax connect, password reset, a second sign-in and a
 * sign-out; then a dump of every table the database's catalog lists, and every log line, must hold
 * none of the secrets that went through. With SMTP configured nothing is exempt; with the
 * development mailbox (demo and development only, DECISIONS R8) the mailbox's own rows are the
 * delivered mail, so they keep their links, and only they are left out.
 */
describe.each(['smtp', 'mailbox'] as const)(
  'secrets at rest and in logs (issue 13), %s',
  (mail) => {
    let t: TestApp;
    let smtp: Awaited<ReturnType<typeof startSmtpServer>> | null = null;
    /** Every value that must never be found, by what it is. */
    const secrets: [string, string][] = [];
    /** Short numbers (CVVs) are looked for as whole numbers, not inside hex or dates. */
    const shortSecrets: [string, string][] = [];
    const carfaxTokens = new Set<string>();
    let viaInject: ReturnType<typeof inProcessFetch> | null = null;
    const carfaxFetch: CarfaxFetch = async (url, init) => {
      viaInject ??= inProcessFetch(t.app, t.app.identity.internalToken);
      const response = await viaInject(url, { ...init, redirect: 'manual' });
      const text = await response.clone().text();
      for (const match of text.matchAll(/cfx_(?:at|rt)_[\w-]+/g)) carfaxTokens.add(match[0]);
      return response;
    };

    beforeAll(async () => {
      if (mail === 'smtp') smtp = await startSmtpServer();
      t = await buildTestApp({
        env: smtp ? { SMTP_URL: smtp.url } : {},
        carfaxFetch,
      });
    });
    afterAll(async () => {
      await t.close();
      await smtp?.close();
    });

    let ipCounter = 0;
    const freshIp = () => `10.13.${mail === 'smtp' ? 1 : 2}.${++ipCounter}`;

    async function cardToken(number: string, cvv: string) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/sandbox-gateway/v1/tokens',
        payload: { creditCardNumber: number, creditCardExpiration: '12/30', creditCardCode: cvv },
        remoteAddress: freshIp(),
      });
      expect(response.statusCode).toBe(201);
      const data = response.json<{
        data: { paymentToken: string; cardBrand: string; cardLast4: string };
      }>().data;
      secrets.push(['card number', number], ['one-time payment token', data.paymentToken]);
      shortSecrets.push(['CVV', cvv]);
      return {
        paymentToken: data.paymentToken,
        cardBrand: data.cardBrand,
        cardLast4: data.cardLast4,
        creditCardExpiration: '1230',
      };
    }

    /** The link token of the newest mail to `to` whose subject matches, as the recipient reads it. */
    async function linkToken(to: string, subject: RegExp): Promise<string> {
      await t.app.mail.kick();
      let text: string | undefined;
      if (smtp) {
        const sent = smtp.received.filter(
          (received) =>
            received.to.includes(to) && subject.test(decodeQuotedPrintable(received.raw)),
        );
        text = sent.length ? decodeQuotedPrintable(sent.at(-1)!.raw) : undefined;
      } else {
        const stored = await t.app.db
          .select()
          .from(mailOutbox)
          .where(eq(mailOutbox.toAddress, to))
          .orderBy(mailOutbox.createdAt);
        text = stored.filter((row) => subject.test(row.subject)).at(-1)?.textBody;
      }
      const token = /token=([\w-]+)/.exec(text ?? '')?.[1];
      if (!token) throw new Error(`no link in the mail to ${to}`);
      return token;
    }

    async function signIn(browser: RecordingBrowser, email: string, password: string) {
      const from = browser.visited.length;
      const { login, landed } = await browser.signIn(
        { method: 'email', email, password },
        '/account',
      );
      expect(login.statusCode).toBe(200);
      expect(landed).toBe('/account');
      await recordSignIn(browser, from);
    }

    /** The secrets a finished sign-in left with the browser: code, session ids, tokens. */
    async function recordSignIn(browser: RecordingBrowser, from: number) {
      const callback = browser.visited
        .slice(from)
        .map((url) => new URL(url, 'http://localhost'))
        .find((url) => url.pathname === '/web/oauth/callback/karid/login');
      const code = callback?.searchParams.get('code');
      expect(code).toBeTruthy();
      secrets.push(['OIDC authorization code', code!]);
      const cookie = browser.jar.get(SESSION_COOKIE)!;
      const providerSession = browser.jar.get('_session');
      expect(providerSession).toBeTruthy();
      secrets.push(['session id', cookie], ['provider session id', providerSession!]);
      const [session] = await t.app.db
        .select()
        .from(sessions)
        .where(eq(sessions.idHash, hashSessionId(cookie)));
      const tokens = JSON.parse(
        open(t.app.keys.encryption, session!.tokensEnc!, session!.idHash),
      ) as {
        idToken: string;
        accessToken: string;
        refreshToken: string;
      };
      secrets.push(
        ['OIDC access token', tokens.accessToken],
        ['OIDC refresh token', tokens.refreshToken],
        ['OIDC ID token', tokens.idToken],
      );
    }

    /** Connects Carfax as the web app does: our sign-in start, the sandbox's page, the callback. */
    async function connectCarfax(browser: RecordingBrowser) {
      const state = randomState((n) => randomBytes(n));
      const start = await browser.send('POST', '/api/v2/oauth/carfax/signin', { state });
      expect(start.statusCode).toBe(200);
      const authorizationUrl = new URL(start.json().data.authorizationUrl as string);
      const page = await t.app.inject({
        method: 'GET',
        url: `${authorizationUrl.pathname}${authorizationUrl.search}`,
      });
      expect(page.statusCode).toBe(200);
      const request = /name="request" value="([^"]+)"/.exec(page.body)?.[1];
      const posted = await t.app.inject({
        method: 'POST',
        url: authorizationUrl.pathname,
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          cookie: page.cookies.map((c) => `${c.name}=${c.value}`).join('; '),
        },
        payload: new URLSearchParams({
          request: request ?? '',
          email: 'dealer@carfax.example',
          password: CARFAX_SANDBOX_PASSWORD,
          decision: 'allow',
        }).toString(),
      });
      expect(posted.statusCode).toBe(303);
      const back = new URL(posted.headers.location as string);
      const code = back.searchParams.get('code')!;
      expect(code).toBeTruthy();
      secrets.push(['Carfax authorization code', code]);
      // The browser lands on our page with the code, which then asks the API to exchange it.
      await browser.get(`${back.pathname}${back.search}`);
      const tokens = await browser.get(
        `/api/v2/oauth/carfax/tokens/${encodeURIComponent(code)}/${encodeURIComponent(
          `${back.origin}${back.pathname}`,
        )}?state=${state}`,
      );
      expect(tokens.statusCode).toBe(200);
      expect(carfaxTokens.size).toBeGreaterThanOrEqual(2);
      for (const token of carfaxTokens) secrets.push(['Carfax token', token]);
    }

    /** Where any secret seen so far turns up: every table the catalog lists, and every log line. */
    async function leaks(): Promise<string[]> {
      const tables = (
        (await t.app.db.execute(
          sql`select table_schema, table_name from information_schema.tables
          where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema')`,
        )) as unknown as { rows: { table_schema: string; table_name: string }[] }
      ).rows;
      expect(tables.map((row) => row.table_name)).toEqual(
        expect.arrayContaining(['users', 'sessions', 'oidc_payloads', 'signup_attempts']),
      );
      const dumps: [string, string][] = [];
      for (const { table_schema: schema, table_name: name } of tables) {
        // The development mailbox's rows are the delivered mail (R8): they are what it shows.
        const exempt =
          name === 'mail_outbox' && mail === 'mailbox' ? ` where status <> 'stored'` : '';
        const rows = (
          (await t.app.db.execute(
            sql.raw(`select t::text as row from "${schema}"."${name}" t${exempt}`),
          )) as unknown as { rows: { row: string }[] }
        ).rows;
        dumps.push([`table ${schema}.${name}`, rows.map((row) => row.row).join('\n')]);
      }
      dumps.push(['the logs', JSON.stringify(t.logs)]);
      if (mail === 'smtp') {
        const [sent] = await t.app.db
          .select({ n: sql<number>`count(*)::int` })
          .from(mailOutbox)
          .where(eq(mailOutbox.status, 'sent'));
        expect(sent!.n).toBeGreaterThanOrEqual(2); // the mails were written, sent, then scrubbed
      }

      const found: string[] = [];
      for (const [where, text] of dumps) {
        for (const [what, secret] of secrets) {
          if (text.includes(secret)) found.push(`${what} in ${where}`);
        }
        for (const [what, secret] of shortSecrets) {
          if (new RegExp(`(?<![\\w.:-])${secret}(?![\\w.:-])`).test(text))
            found.push(`${what} in ${where}`);
        }
      }
      return found;
    }

    it('a dump of every table and the captured logs hold none of the secrets that went through', async () => {
      const email = `sweep-${mail}@example.com`;
      const firstPassword = 'Sweep!First2026x';
      const resetPassword = 'Sweep!Reset2026y';
      const autoCheck = AUTOCHECK_SANDBOX_CREDENTIALS[1]!;
      secrets.push(
        ['password', firstPassword],
        ['password', resetPassword],
        ['AutoCheck password', autoCheck.password],
      );
      const browser = new RecordingBrowser(t);
      await browser.open();

      // Sign-up with a card (4-digit CVVs: a 3-digit one turns up by chance in any dump).
      const signup = await t.app.inject({
        method: 'POST',
        url: '/api/v2/signup',
        remoteAddress: freshIp(),
        headers: {
          cookie: browser.jar.header('/api/v2/signup'),
          'x-csrf-token': browser.csrfToken,
          'content-type': 'application/json',
        },
        payload: JSON.stringify({
          firstName: 'Sam',
          lastName: 'Sweep',
          email,
          phone: '313-555-0142',
          phoneCountryCode: 'US',
          dealership: 'Sweep Motors',
          deviceType: 'iPhone',
          terms: true,
          subscriptions: ['NADA', 'MMR', 'CF', 'AC'],
          auctionAccessId: '',
          dealershipAuctionAccessId: '',
          address1: '400 Woodward Ave',
          address2: '',
          country: 'US',
          state: 'MI',
          city: 'Detroit',
          zip: '48226',
          promoCode: '',
          requestKey: randomUUID(),
          referrer: '',
          sameAddresses: true,
          forwardTo: 'http://localhost:3000/login?returnTo=%2Faccount',
          ...(await cardToken('4111111111111111', '8642')),
          recaptcha: await t.solveCaptcha(),
        }),
      });
      expect(signup.statusCode).toBe(201);

      // The verification link sets the first password.
      const setToken = await linkToken(email, /Verify your e-mail/);
      secrets.push(['set-password link token', setToken]);
      const set = await browser.send('POST', '/api/identity/password/set', {
        token: setToken,
        password: firstPassword,
        confirmPassword: firstPassword,
      });
      expect(set.statusCode).toBe(200);
      // A first password signs in at once (docs/decisions/017): the one-time grant is a secret too.
      const grant = set.cookies.find((cookie) => cookie.name === '__Host-dp-signin')?.value;
      expect(grant).toBeTruthy();
      secrets.push(['sign-in grant', grant!]);
      const from = browser.visited.length;
      const { url } = await browser.follow('/login?returnTo=%2Faccount');
      expect(url).toBe('/account');
      await recordSignIn(browser, from);
      await browser.send('POST', '/api/auth/logout');

      await signIn(browser, email, firstPassword);

      // Card change.
      const card = await browser.send('PUT', '/api/users/paymentProfile', {
        requestKey: crypto.randomUUID(),
        ...(await cardToken('5555555555554444', '9753')),
        cardBrand: 'mastercard',
        cardLast4: '4444',
        billingFirstName: 'Sam',
        billingLastName: 'Sweep',
        billingCountry: 'US',
        billingAddress1: '2 Bill St',
        billingAddress2: '',
        billingCity: 'Lansing',
        billingState: 'MI',
        billingZip: '48901',
      });
      expect(card.statusCode).toBe(200);

      // AutoCheck save.
      const saved = await browser.send('PUT', '/api/users/current', {
        autoCheckId: autoCheck.autoCheckId,
        autoCheckPasswd: autoCheck.password,
        autoCheckEnabled: true,
      });
      expect(saved.statusCode).toBe(200);

      await connectCarfax(browser);
      // Once while the tokens are live: a later sign-in and the sign-out revoke them.
      await t.app.mail.kick();
      expect(await leaks()).toEqual([]);

      // A password reset from its e-mailed link, then the next sign-in, then a sign-out.
      const forgot = await browser.send('POST', '/api/identity/password/forgot', {
        email,
        recaptcha: await t.solveCaptcha(),
      });
      expect(forgot.statusCode).toBe(200);
      const resetToken = await linkToken(email, /reset/i);
      secrets.push(['reset link token', resetToken]);
      const reset = await browser.send('POST', '/api/identity/password/reset', {
        token: resetToken,
        password: resetPassword,
        confirmPassword: resetPassword,
      });
      expect(reset.statusCode).toBe(200);
      const again = new RecordingBrowser(t);
      await signIn(again, email, resetPassword);
      const logout = await again.send('POST', '/api/auth/logout');
      expect(logout.statusCode).toBe(200);
      const end = new URL(logout.json().data.redirectTo as string);
      expect(end.searchParams.get('id_token_hint')).toBeTruthy();
      await again.get(`${end.pathname}${end.search}`);

      await t.app.mail.kick();

      expect(secrets.length).toBeGreaterThanOrEqual(20);
      expect(await leaks()).toEqual([]);

      // What staff read about this account (R7, R12): every console GET route, as an admin,
      // carries none of the secrets either (the verification and reset links among them).
      const { rawId } = await staffSessionFor(t, 'admin');
      const [user] = await t.app.db.select().from(users).where(eq(users.email, email));
      const [payment] = await t.app.db.select().from(payments).where(eq(payments.userId, user!.id));
      expect(payment).toBeTruthy();
      const routes = t.app.routeTable.filter(
        (route) => route.method === 'GET' && isStaffAccess(route.access),
      );
      expect(routes.length).toBeGreaterThanOrEqual(8);
      const answers: [string, string][] = [];
      for (const route of routes) {
        const path = route.url
          .replace(':userId', user!.id)
          .replace(':paymentId', payment!.id)
          .replace(/:\w+/g, randomUUID());
        const thisMonth = new Date().toISOString().slice(0, 7);
        // The routes whose query is required: what a console page sends.
        const queries: Record<string, string> = {
          '/api/admin/accounts': `?q=${encodeURIComponent(email)}`,
          '/api/admin/accounts/:userId/subscription-change': '?codes=NADA,MMR,CF,AC,KBB',
          '/api/admin/finance/movements.csv': `?month=${thisMonth}`,
          '/api/admin/overview': `?from=${thisMonth}&to=${thisMonth}`,
          '/api/admin/overview/accounts': `?figure=mrr&month=${thisMonth}`,
        };
        const query = queries[route.url] ?? '';
        const response = await t.app.inject({
          method: 'GET',
          url: `${path}${query}`,
          remoteAddress: freshIp(),
          headers: { cookie: `${STAFF_SESSION_COOKIE}=${rawId}` },
        });
        // A parameter this account has no record for (a message, an invoice) is a 404, not a leak.
        const unfilled = /:(?!userId\b|paymentId\b)\w+/.test(route.url);
        expect(response.statusCode, `${route.url} ${response.body.slice(0, 200)}`).toBeLessThan(
          unfilled ? 500 : 400,
        );
        answers.push([`GET ${route.url}`, response.rawPayload.toString('latin1')]);
      }
      const account = answers.find(([where]) => where === 'GET /api/admin/accounts/:userId');
      expect(account?.[1]).toContain('"autoCheckPasswordSet":true');
      expect(account?.[1]).toContain('"carfaxConnected"');
      expect(account?.[1]).toContain('Verify your e-mail');
      const found: string[] = [];
      for (const [where, text] of answers) {
        for (const [what, secret] of secrets)
          if (text.includes(secret)) found.push(`${what} in ${where}`);
        for (const [what, secret] of shortSecrets) {
          if (new RegExp(`(?<![\\w.:-])${secret}(?![\\w.:-])`).test(text))
            found.push(`${what} in ${where}`);
        }
      }
      expect(found).toEqual([]);
    });
  },
);

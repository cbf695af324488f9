import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect, createServer, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payments, users } from '../../src/db/schema.ts';
import { sandboxGatewayTransactions } from '../../src/db/sandbox-schema.ts';
import { SESSION_COOKIE } from '../../src/plugins/session.ts';
import { issueSandboxToken } from '../../src/sandboxes/payments/sandbox-tokens.ts';
import { buildTestApp, type TestApp, type TestBrowser } from '../support/helper.ts';
import { signupBody } from '../factories/signup-body.ts';
import { createAccount, sessionFor } from '../factories/sign-in.ts';

const HAPROXY = '/usr/sbin/haproxy';
const NOW = new Date('2026-03-15T15:00:00Z');

/**
 * Issue 27 #7 (docs/decisions/038): a request that reached an instance, which acted and then lost
 * its answer, retried by HAProxy on the other instance. HAProxy runs here with the retries its
 * manual calls dangerous without replay protection (`empty-response`), in front of two backends:
 * the first forwards the request to the server and drops the connection once the server has
 * answered (the charge is made, the answer never arrives: an instance that died at that moment),
 * the second is the server itself. The request key makes the retry a replay: one charge.
 */
describe('a money request retried by the balancer after a lost answer', () => {
  let t: TestApp;
  let browser: TestBrowser;
  let dir: string;
  let haproxy: ChildProcess;
  let losing: Server;
  let balancer: string;
  let forwarded = 0;

  beforeAll(async () => {
    t = await buildTestApp({ now: () => NOW });
    browser = await t.browser();
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const appPort = (t.app.server.address() as AddressInfo).port;
    // The instance whose answer is lost: the whole exchange happens, then the line goes dead.
    losing = createServer((client) => {
      const upstream = connect(appPort, '127.0.0.1');
      client.pipe(upstream);
      client.on('error', () => upstream.destroy());
      upstream.on('error', () => client.destroy());
      upstream.once('data', () => {
        forwarded += 1;
        client.destroy();
        upstream.destroy();
      });
    });
    await new Promise<void>((resolve) => losing.listen(0, '127.0.0.1', resolve));
    const losingPort = (losing.address() as AddressInfo).port;
    const port = Number(process.env.BALANCER_REPLAY_PORT ?? 3200);
    balancer = `http://127.0.0.1:${port}`;
    dir = await mkdtemp(join(tmpdir(), 'dp-replay-'));
    const config = join(dir, 'haproxy.cfg');
    await writeFile(
      config,
      [
        'defaults',
        '  mode http',
        '  timeout connect 2s',
        '  timeout client 30s',
        '  timeout server 30s',
        '  retries 3',
        '  option redispatch 1',
        '  retry-on conn-failure empty-response response-timeout',
        'frontend f',
        `  bind 127.0.0.1:${port}`,
        '  default_backend b',
        'backend b',
        // The losing instance first, always: the retry is the only way to the other one.
        '  balance first',
        `  server losing 127.0.0.1:${losingPort}`,
        `  server other 127.0.0.1:${appPort}`,
        '',
      ].join('\n'),
    );
    haproxy = spawn(HAPROXY, ['-db', '-f', config], { stdio: ['ignore', 'ignore', 'pipe'] });
    await waitFor(async () => (await fetch(`${balancer}/api/health/live`)).status > 0);
    forwarded = 0;
  }, 60_000);

  afterAll(async () => {
    haproxy?.kill();
    losing?.close();
    await t?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('PUT /api/users/reactivate: the client gets its answer, the gateway one approved charge', async () => {
    const { user } = await createAccount(t, {
      email: 'replayed@example.com',
      withIdentity: false,
      subscriptions: ['NADA', 'MMR'],
      accountStatus: 'inactive',
    });
    const session = await sessionFor(t, user.id, NOW);
    const { paymentToken } = await issueSandboxToken(
      t.app.db,
      { creditCardNumber: '4111111111111111', creditCardExpiration: '1230', creditCardCode: '123' },
      NOW,
    );
    const response = await fetch(`${balancer}/api/users/reactivate`, {
      method: 'PUT',
      headers: {
        cookie: `${browser.cookie}; ${SESSION_COOKIE}=${session}`,
        'x-csrf-token': browser.token,
        'content-type': 'application/json',
        origin: t.app.config.publicUrl,
      },
      body: JSON.stringify({
        paymentToken,
        cardBrand: 'visa',
        cardLast4: '1111',
        creditCardExpiration: '1230',
        billingFirstName: 'Pat',
        billingLastName: 'Payer',
        billingCountry: 'US',
        billingAddress1: '2 Bill St',
        billingAddress2: '',
        billingCity: 'Lansing',
        billingState: 'MI',
        billingZip: '48901',
        requestKey: crypto.randomUUID(),
      }),
    });
    const text = await response.text();
    // The first instance did act (its answer was lost), and HAProxy's retry got the replay.
    expect(forwarded, text).toBe(1);
    expect(response.status, text).toBe(200);
    expect(JSON.parse(text).data.accountStatus).toBe('active');
    const charges = (
      await t.app.db
        .select()
        .from(sandboxGatewayTransactions)
        .where(eq(sandboxGatewayTransactions.kind, 'charge'))
    ).filter((row) => row.idempotencyKey?.startsWith(`reactivation:${user.id}:`));
    expect(charges).toHaveLength(1);
    expect(await t.app.db.select().from(payments).where(eq(payments.userId, user.id))).toHaveLength(
      1,
    );
    const [row] = await t.app.db.select().from(users).where(eq(users.id, user.id));
    expect(row!.accountStatus).toBe('active');
  }, 60_000);

  it('POST /api/v2/signup: the new dealer gets 201, the gateway one approved charge, one account', async () => {
    forwarded = 0;
    const { paymentToken } = await issueSandboxToken(
      t.app.db,
      { creditCardNumber: '4111111111111111', creditCardExpiration: '1230', creditCardCode: '123' },
      NOW,
    );
    const email = 'replayed-signup@example.com';
    const response = await fetch(`${balancer}/api/v2/signup`, {
      method: 'POST',
      headers: {
        cookie: browser.cookie,
        'x-csrf-token': browser.token,
        'content-type': 'application/json',
        origin: t.app.config.publicUrl,
      },
      body: JSON.stringify(
        signupBody(email, {
          paymentToken,
          cardBrand: 'visa',
          cardLast4: '1111',
          creditCardExpiration: '1230',
          recaptcha: await t.solveCaptcha(),
        }),
      ),
    });
    const text = await response.text();
    // The first instance signed up and charged (its answer was lost); the retry got the replay,
    // not 409 "An account with this email already exists." after a charge.
    expect(forwarded, text).toBe(1);
    expect(response.status, text).toBe(201);
    expect(JSON.parse(text)).toEqual({ data: { email } });
    const accounts = await t.app.db.select().from(users).where(eq(users.email, email));
    expect(accounts).toHaveLength(1);
    const charges = (
      await t.app.db
        .select()
        .from(sandboxGatewayTransactions)
        .where(eq(sandboxGatewayTransactions.kind, 'charge'))
    ).filter((row) => row.idempotencyKey === `signup:${accounts[0]!.id}`);
    expect(charges).toHaveLength(1);
    expect(
      await t.app.db.select().from(payments).where(eq(payments.userId, accounts[0]!.id)),
    ).toHaveLength(1);
  }, 60_000);
});

async function waitFor(check: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    try {
      if (await check()) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > until) throw new Error('HAProxy did not start');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

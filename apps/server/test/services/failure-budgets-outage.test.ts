import { randomBytes } from 'node:crypto';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CAPTCHA_AFTER_FAILURES } from '../../src/services/identity/sign-in-failures.ts';
import { buildTestApp, type TestApp } from '../support/helper.ts';
import { createAccount, TEST_PASSWORD, TestBrowserSession } from '../factories/sign-in.ts';

/**
 * Issue 24, item 7 (docs/decisions/029): a Redis outage must not reset the failure budgets. The
 * app reaches Redis through a TCP relay of this test's own, so Redis can "stop" and "come back"
 * for this app alone: failures counted before the outage still count during it, and failures
 * counted during it still count once Redis is back. Needs TEST_REDIS_URL, as shared-limits does.
 */
const redisUrl = process.env.TEST_REDIS_URL;
const title = redisUrl
  ? `failure budgets through a Redis outage (${redisUrl})`
  : 'failure budgets through a Redis outage: NOT RUN, TEST_REDIS_URL is not set (CI sets it where Redis answers)';

/** A relay to Redis that can be cut (every connection closed, none accepted) and restored. */
class RedisRelay {
  private server: Server | null = null;
  private sockets = new Set<Socket>();
  port = 0;
  private readonly host: string;
  private readonly targetPort: number;
  constructor(host: string, targetPort: number) {
    this.host = host;
    this.targetPort = targetPort;
  }

  async start(): Promise<void> {
    if (this.server) return;
    const server = createServer((client) => {
      const upstream = connect(this.targetPort, this.host);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => socket.destroy());
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    const address = server.address();
    if (address && typeof address === 'object') this.port = address.port;
    this.server = server;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const socket of this.sockets) socket.destroy();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

describe.runIf(redisUrl)(title, { timeout: 120_000 }, () => {
  const target = new URL(redisUrl ?? 'redis://127.0.0.1:6379');
  const relay = new RedisRelay(target.hostname, Number(target.port || 6379));
  const prefix = `dp-outage-${randomBytes(6).toString('hex')}:`;
  let t: TestApp;

  beforeAll(async () => {
    await relay.start();
    const url = new URL(target.href);
    url.hostname = '127.0.0.1';
    url.port = String(relay.port);
    t = await buildTestApp({
      env: { REDIS_URL: url.href, REDIS_KEY_PREFIX: prefix, LOG_LEVEL: 'fatal' },
    });
  });
  afterAll(async () => {
    await relay.start().catch(() => undefined);
    await t?.close();
    await relay.stop();
    const redis = new Redis(redisUrl!);
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });

  async function attempt(email: string, password: string): Promise<string> {
    const { login } = await new TestBrowserSession(t).signIn({ method: 'email', email, password });
    return login.statusCode === 200 ? 'signed in' : (login.json().code as string);
  }

  async function redisAnswers(): Promise<void> {
    for (let i = 0; i < 100; i++) {
      if (
        await t.app.redis!.ping().then(
          () => true,
          () => false,
        )
      )
        return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('Redis did not come back through the relay');
  }

  it('failures counted before Redis stops still count while it is down', async () => {
    const email = `before.outage.${randomBytes(3).toString('hex')}@example.com`;
    await createAccount(t, { email });
    for (let i = 0; i < CAPTCHA_AFTER_FAILURES - 1; i++)
      expect(await attempt(email, 'Wrong!Passw0rd')).toBe('INVALID_CREDENTIALS');
    await relay.stop();
    try {
      // One attempt is left of the budget, no more.
      expect(await attempt(email, 'Wrong!Passw0rd')).toBe('INVALID_CREDENTIALS');
      expect(await attempt(email, 'Wrong!Passw0rd')).toBe('SIGN_IN_CAPTCHA_REQUIRED');
      expect(await attempt(email, TEST_PASSWORD)).toBe('SIGN_IN_CAPTCHA_REQUIRED');
    } finally {
      await relay.start();
    }
  });

  it('failures counted while Redis is down still count once it is back', async () => {
    const email = `during.outage.${randomBytes(3).toString('hex')}@example.com`;
    await createAccount(t, { email });
    await redisAnswers();
    await relay.stop();
    try {
      for (let i = 0; i < CAPTCHA_AFTER_FAILURES - 1; i++)
        expect(await attempt(email, 'Wrong!Passw0rd')).toBe('INVALID_CREDENTIALS');
    } finally {
      await relay.start();
    }
    await redisAnswers();
    expect(await attempt(email, 'Wrong!Passw0rd')).toBe('INVALID_CREDENTIALS');
    expect(await attempt(email, 'Wrong!Passw0rd')).toBe('SIGN_IN_CAPTCHA_REQUIRED');
    expect(await attempt(email, TEST_PASSWORD)).toBe('SIGN_IN_CAPTCHA_REQUIRED');
  });
});

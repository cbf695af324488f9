/**
 * Whose address a request has behind a proxy (issue 24, item 5; docs/decisions/030). A balancer
 * that appends to X-Forwarded-For leaves the client's own entries first: only the entries the
 * trusted proxies added count, so a made-up header neither escapes a per-address limit nor
 * reaches the log. `TRUST_PROXY=true` (every hop) is the hole; a production server refuses it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../support/helper.ts';

/** The sign-in page of the console allows 30 requests a minute per address. */
const LOGIN_LIMIT = 30;
const BALANCER = '127.0.0.1';
const CLIENT = '203.0.113.7';

/** 45 sign-in page requests of one client, each with another address of its own invention. */
async function spoofedBurst(t: TestApp, remoteAddress = BALANCER): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < LOGIN_LIMIT + 15; i++) {
    const response = await t.app.inject({
      method: 'GET',
      url: '/admin/login',
      remoteAddress,
      // What HAProxy's `option forwardfor` sends on: the client's header, then its real address.
      headers: { 'x-forwarded-for': `198.51.100.${i}, ${CLIENT}` },
    });
    statuses.push(response.statusCode);
  }
  return statuses;
}

/** The addresses the request log recorded for the sign-in page. */
function loggedAddresses(t: TestApp): string[] {
  return t.logs
    .map((line) => line.req as { url?: string; remoteAddress?: string } | undefined)
    .filter((req) => req?.url === '/admin/login')
    .map((req) => String(req?.remoteAddress));
}

const count = (statuses: number[], status: number) => statuses.filter((s) => s === status).length;

describe('TRUST_PROXY as addresses', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ env: { TRUST_PROXY: `10.0.0.0/8, ${BALANCER}` } });
  });
  afterAll(() => t.close());

  it('takes the address a listed proxy added, and ignores the header from anyone else', async () => {
    const statuses = await spoofedBurst(t);
    expect(count(statuses, 303)).toBe(LOGIN_LIMIT);
    expect(count(statuses, 429)).toBe(15);
    const logged = loggedAddresses(t);
    expect(logged).toHaveLength(LOGIN_LIMIT + 15);
    expect(new Set(logged)).toEqual(new Set([CLIENT]));

    // Straight from a client that is no listed proxy: its header is its own, not believed.
    const direct = await spoofedBurst(t, '192.0.2.50');
    expect(count(direct, 429)).toBe(15);
    expect(loggedAddresses(t).slice(LOGIN_LIMIT + 15)).toEqual(
      Array.from({ length: LOGIN_LIMIT + 15 }, () => '192.0.2.50'),
    );
  });
});

describe('TRUST_PROXY by name', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ env: { TRUST_PROXY: 'loopback' } });
  });
  afterAll(() => t.close());

  it('believes a balancer on this machine, and no further than the entry it added', async () => {
    const statuses = await spoofedBurst(t);
    expect(count(statuses, 429)).toBe(15);
    expect(new Set(loggedAddresses(t))).toEqual(new Set([CLIENT]));
  });
});

describe('TRUST_PROXY=true (tests only)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ env: { TRUST_PROXY: 'true' } });
  });
  afterAll(() => t.close());

  it('believes the first entry, which the client wrote: why production refuses it', async () => {
    const statuses = await spoofedBurst(t);
    expect(count(statuses, 429)).toBe(0);
    expect(loggedAddresses(t)[0]).toBe('198.51.100.0');
  });
});

import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { INSTANCE_PORTS, LB_PORT, type Cluster } from './cluster.ts';

/**
 * Issue 24, item 5 (docs/decisions/030): through deploy/haproxy.cfg, a client's own
 * X-Forwarded-For changes nothing. The balancer replaces the header with the address it saw and
 * the instances believe the balancer only (TRUST_PROXY=127.0.0.1), so a burst with a made-up
 * address per request meets the console sign-in page's limit (30 a minute per address, counted
 * in Redis for all instances) exactly as a burst without the header does, and the instances'
 * log records the real address. The two clients are two loopback addresses of this machine.
 */

const LIMIT = 30;
const BURST = LIMIT + 15;
const MADE_UP = '198.51.100.';

function cluster(): Cluster {
  const described = process.env.DP_CLUSTER;
  if (!described) throw new Error('the cluster was not started (global-setup.ts)');
  return JSON.parse(described) as Cluster;
}

/** GET /admin/login through the balancer from `localAddress`; the answer's status. */
function signInPage(localAddress: string, forwardedFor?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const sent = request(
      {
        host: '127.0.0.1',
        port: LB_PORT,
        path: '/admin/login',
        localAddress,
        headers: {
          host: `localhost:${LB_PORT}`,
          ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}),
        },
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      },
    );
    sent.on('error', reject);
    sent.end();
  });
}

async function burst(localAddress: string, spoof: boolean): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < BURST; i++) {
    statuses.push(await signInPage(localAddress, spoof ? `${MADE_UP}${i}` : undefined));
  }
  return statuses;
}

/** The addresses the instances logged for the sign-in page, and whether a made-up one is there. */
function loggedSignInPages(): { addresses: string[]; madeUpLogged: boolean } {
  const addresses: string[] = [];
  let madeUpLogged = false;
  for (const port of INSTANCE_PORTS) {
    const text = readFileSync(join(cluster().logDir, `instance-${port}.log`), 'utf8');
    if (text.includes(MADE_UP)) madeUpLogged = true;
    for (const line of text.split('\n')) {
      if (!line.startsWith('{')) continue;
      const entry = JSON.parse(line) as { req?: { url?: string; remoteAddress?: string } };
      if (entry.req?.url === '/admin/login') addresses.push(String(entry.req.remoteAddress));
    }
  }
  return { addresses, madeUpLogged };
}

const count = (statuses: number[], status: number) => statuses.filter((s) => s === status).length;

test('a made-up X-Forwarded-For through the balancer changes neither the limits nor the log', async () => {
  const spoofed = await burst('127.0.0.2', true);
  const plain = await burst('127.0.0.3', false);
  expect({ passed: count(spoofed, 303), limited: count(spoofed, 429) }).toEqual({
    passed: LIMIT,
    limited: BURST - LIMIT,
  });
  expect({ passed: count(plain, 303), limited: count(plain, 429) }).toEqual({
    passed: LIMIT,
    limited: BURST - LIMIT,
  });

  // The instances write their log through a pipe: wait until every request is in it.
  await expect
    .poll(() => loggedSignInPages().addresses.length, { timeout: 10_000 })
    .toBe(2 * BURST);
  const { addresses, madeUpLogged } = loggedSignInPages();
  expect(madeUpLogged).toBe(false);
  expect(addresses.filter((a) => a === '127.0.0.2')).toHaveLength(BURST);
  expect(addresses.filter((a) => a === '127.0.0.3')).toHaveLength(BURST);
});

import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox } from '../../src/db/schema.ts';
import type { MailTransport } from '../../src/adapters/mail/mail-transport.ts';
import { measureBillingRun, PAGE_ROUTE, UNMATCHED_ROUTE } from '../../src/plugins/metrics.ts';
import { runBilling } from '../../src/services/billing/run-billing.ts';
import { buildTestApp, type TestApp } from '../support/helper.ts';

/** One sample's value from the Prometheus text, by its name and labels as written there. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

async function scrape(t: TestApp, headers: Record<string, string> = {}) {
  return t.app.inject({ method: 'GET', url: '/metrics', headers });
}

const PRODUCTION = {
  APP_ENV: 'production',
  SECRET_KEY: randomBytes(32).toString('base64'),
  PUBLIC_URL: 'https://dealerpass.example',
  ALLOW_SANDBOX_IN_PRODUCTION: 'true',
};

describe('GET /metrics (docs/decisions/023)', () => {
  let t: TestApp;
  let sendFails = true;
  const transport: MailTransport = {
    kind: 'smtp',
    send: async () => {
      if (sendFails) throw new Error('connection refused');
    },
    close: async () => {},
  };
  beforeAll(async () => {
    t = await buildTestApp({ mailTransport: transport });
  });
  afterAll(() => t.close());

  it('answers in the Prometheus text format with the process metrics, open on a test server without a token', async () => {
    const response = await scrape(t);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(response.body).toContain('# TYPE process_cpu_user_seconds_total counter');
    expect(response.body).toContain('# TYPE nodejs_eventloop_lag_seconds gauge');
  });

  it('times requests by the matched route pattern and status, never by the raw URL', async () => {
    await t.app.inject({ method: 'GET', url: '/api/users/userIdTaken/someone%40example.com' });
    await t.app.inject({ method: 'GET', url: '/api/users/userIdTaken/other%40example.com' });
    await t.app.inject({ method: 'GET', url: '/api/users/current' });
    // Unmatched: an unknown API path (404); a page path the web app's fallback answers.
    await t.app.inject({ method: 'GET', url: '/api/no/such/thing/12345' });
    await t.app.inject({ method: 'GET', url: '/api/no/such/thing/67890' });
    await t.app.inject({ method: 'GET', url: '/no/such/page/24680' });
    const text = (await scrape(t)).body;
    expect(
      sample(
        text,
        'http_request_duration_seconds_count{method="GET",route="/api/users/userIdTaken/:email",status_code="200"}',
      ),
    ).toBe(2);
    expect(
      sample(
        text,
        'http_request_duration_seconds_count{method="GET",route="/api/users/current",status_code="401"}',
      ),
    ).toBe(1);
    expect(
      sample(
        text,
        `http_request_duration_seconds_count{method="GET",route="${UNMATCHED_ROUTE}",status_code="404"}`,
      ),
    ).toBe(2);
    expect(
      sample(
        text,
        `http_request_duration_seconds_count{method="GET",route="${PAGE_ROUTE}",status_code="200"}`,
      ),
    ).toBe(1);
    expect(text).not.toContain('someone');
    expect(text).not.toContain('12345');
    expect(text).not.toContain('24680');
  });

  it('counts billing-run outcomes and times the runs, completed or failed', async () => {
    await measureBillingRun(t.app.metrics, 'full', async () => ({
      charged: 3,
      declined: 2,
      deactivated: 1,
      retryLater: 4,
    }));
    // The real run, as the schedule calls it (an empty database: nothing due).
    await measureBillingRun(t.app.metrics, 'takeover', () =>
      runBilling(t.app.deps.billing, { abandonedOnly: true }),
    );
    await expect(
      measureBillingRun(t.app.metrics, 'full', () => Promise.reject(new Error('database down'))),
    ).rejects.toThrow('database down');
    const text = (await scrape(t)).body;
    expect(sample(text, 'dealerpass_billing_outcomes_total{outcome="charged"}')).toBe(3);
    expect(sample(text, 'dealerpass_billing_outcomes_total{outcome="declined"}')).toBe(2);
    expect(sample(text, 'dealerpass_billing_outcomes_total{outcome="retried"}')).toBe(4);
    expect(sample(text, 'dealerpass_billing_outcomes_total{outcome="deactivated"}')).toBe(1);
    expect(sample(text, 'dealerpass_billing_runs_total{kind="full",result="completed"}')).toBe(1);
    expect(sample(text, 'dealerpass_billing_runs_total{kind="full",result="failed"}')).toBe(1);
    expect(sample(text, 'dealerpass_billing_runs_total{kind="takeover",result="completed"}')).toBe(
      1,
    );
    expect(sample(text, 'dealerpass_billing_run_duration_seconds_count{kind="full"}')).toBe(1);
    expect(sample(text, 'dealerpass_billing_run_duration_seconds_count{kind="takeover"}')).toBe(1);
  });

  it('reads the mail outbox depth from the database on scrape, and counts failed sends', async () => {
    const pending = (n: number) =>
      Array.from({ length: n }, (_, i) => ({
        toAddress: `outbox-${i}@example.com`,
        subject: 'Hello',
        textBody: 'Hello',
        status: 'pending' as const,
        nextAttemptAt: new Date(Date.now() + 3_600_000),
      }));
    await t.app.db
      .insert(mailOutbox)
      .values([
        ...pending(3),
        { toAddress: 'gone@example.com', subject: 'x', textBody: 'x', status: 'failed' },
      ]);
    let text = (await scrape(t)).body;
    expect(sample(text, 'dealerpass_mail_outbox{status="pending"}')).toBe(3);
    expect(sample(text, 'dealerpass_mail_outbox{status="failed"}')).toBe(1);

    // Two mails due now; the SMTP server refuses them, then takes the next one.
    await t.app.db
      .insert(mailOutbox)
      .values(pending(2).map((row) => ({ ...row, nextAttemptAt: new Date(Date.now() - 1000) })));
    await t.app.mail.kick();
    sendFails = false;
    await t.app.db
      .insert(mailOutbox)
      .values({ ...pending(1)[0]!, nextAttemptAt: new Date(Date.now() - 1000) });
    await t.app.mail.kick();
    text = (await scrape(t)).body;
    expect(sample(text, 'dealerpass_mail_failures_total')).toBe(2);
    expect(sample(text, 'dealerpass_mail_sent_total')).toBe(1);
    expect(sample(text, 'dealerpass_mail_outbox{status="pending"}')).toBe(5);
  });

  it('shows the connection pool on PostgreSQL, and no pool series on PGlite (it has none)', async () => {
    const text = (await scrape(t)).body;
    if (process.env.TEST_DATABASE_URL) {
      expect(sample(text, 'dealerpass_db_pool_connections{state="max"}')).toBe(10);
      expect(sample(text, 'dealerpass_db_pool_connections{state="total"}')).toBeGreaterThan(0);
      expect(sample(text, 'dealerpass_db_pool_connections{state="waiting"}')).toBe(0);
    } else {
      expect(text).not.toContain('dealerpass_db_pool_connections');
    }
  });
});

describe('the metrics token', () => {
  const token = randomBytes(32).toString('base64url');

  it('is required, as a bearer token, once configured', async () => {
    const t = await buildTestApp({ env: { METRICS_TOKEN: token } });
    try {
      const none = await scrape(t);
      expect(none.statusCode).toBe(401);
      expect(none.headers['www-authenticate']).toBe('Bearer realm="metrics"');
      expect(none.json()).toMatchObject({ code: 'UNAUTHORIZED' });
      expect(none.body).not.toContain('process_cpu');
      for (const authorization of [
        `Bearer ${token.slice(0, -1)}`,
        `Bearer ${token}x`,
        `Basic ${token}`,
        token,
        'Bearer ',
      ]) {
        expect((await scrape(t, { authorization })).statusCode, authorization).toBe(401);
      }
      const right = await scrape(t, { authorization: `Bearer ${token}` });
      expect(right.statusCode).toBe(200);
      expect(right.body).toContain('http_request_duration_seconds');
    } finally {
      await t.close();
    }
  });

  it('a production server has no /metrics without one, and a guarded one with one', async () => {
    const open = await buildTestApp({ env: PRODUCTION });
    try {
      expect(open.app.routeTable.some((route) => route.url === '/metrics')).toBe(false);
      // The path is then no page either (issue 27, item 6): a 404, no metrics in it.
      const response = await scrape(open);
      expect(response.statusCode).toBe(404);
      expect(response.body).not.toContain('process_cpu');
    } finally {
      await open.close();
    }
    const guarded = await buildTestApp({ env: { ...PRODUCTION, METRICS_TOKEN: token } });
    try {
      expect((await scrape(guarded)).statusCode).toBe(401);
      expect((await scrape(guarded, { authorization: `Bearer ${token}` })).statusCode).toBe(200);
    } finally {
      await guarded.close();
    }
  });

  it('refuses a token too short to be a secret', async () => {
    await expect(buildTestApp({ env: { METRICS_TOKEN: 'short' } })).rejects.toThrow(
      /METRICS_TOKEN \(got "\*\*\*"\)/,
    );
  });
});

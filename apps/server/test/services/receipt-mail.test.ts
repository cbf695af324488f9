/**
 * Issue 14, item 4: the receipt e-mail carries the stored PDF receipt, and both state the same
 * period and card ('Visa ending in 1111', 'Mar 15, 2026 – Apr 14, 2026').
 */
import { spawnSync } from 'node:child_process';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payments } from '../../src/db/schema.ts';
import { runBilling, type BillingDeps } from '../../src/services/billing/run-billing.ts';
import { buildTestApp, type TestApp } from '../support/helper.ts';
import { subscribeWithCard } from '../factories/subscriber-factory.ts';
import { createAccount } from '../factories/sign-in.ts';
import { storedReceiptPdf } from '../support/stored-receipt.ts';

const NOW = new Date('2026-03-15T15:00:00Z'); // business date 2026-03-15 in New York
const PERIOD = 'Mar 15, 2026 – Apr 14, 2026';

/** The text of a PDF as poppler reads it, runs of spaces made single. */
function pdfText(pdf: Buffer): string {
  const result = spawnSync('/usr/bin/pdftotext', ['-', '-'], { input: pdf, encoding: 'latin1' });
  expect(result.status).toBe(0);
  return Buffer.from(result.stdout, 'latin1')
    .toString('utf8')
    .replace(/[ \t]+/g, ' ');
}

/** A subscriber due today; the card is tokenized at the app's own time (`tokenizedAt`). */
async function dueSubscriber(t: TestApp, email: string, tokenizedAt = NOW): Promise<string> {
  const { user } = await createAccount(t, { email, accountStatus: 'active', withIdentity: false });
  await subscribeWithCard(t, {
    userId: user.id,
    email,
    codes: ['NADA', 'MMR'],
    cycleAnchor: '2026-01-15',
    currentPeriodStart: '2026-02-15',
    currentPeriodEnd: '2026-03-15',
    now: tokenizedAt,
  });
  return user.id;
}

const billingDeps = (t: TestApp, mailKind: 'smtp' | 'mailbox'): BillingDeps => ({
  db: t.app.db,
  payments: t.app.payments,
  now: () => NOW,
  timeZone: 'America/New_York',
  company: { name: 'DealerPass', supportPhone: '1-800-555-0199' },
  mailKind,
  prices: t.app.prices,
  log: t.app.log,
});

const storedReceipt = async (t: TestApp, userId: string) =>
  storedReceiptPdf(
    t,
    (await t.app.db.select().from(payments).where(eq(payments.userId, userId)))[0]!.receiptPdf,
  );

describe('the receipt e-mail in the development mailbox', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ now: () => NOW });
  });
  afterAll(() => t.close());

  it('names the card and the period as the PDF does, and offers the stored PDF', async () => {
    const userId = await dueSubscriber(t, 'receipt-mailbox@example.com');
    expect((await runBilling(billingDeps(t, 'mailbox'), { userId })).charged).toBe(1);
    const pdf = await storedReceipt(t, userId);
    const pdfWords = pdfText(pdf);
    expect(pdfWords).toContain(PERIOD);

    const mailbox = await t.app.inject({ method: 'GET', url: '/api/dev/mailbox' });
    const receipt = (
      mailbox.json().data.messages as {
        to: string;
        subject: string;
        text: string;
        attachments: { filename: string; contentType: string; url: string }[];
      }[]
    ).find((message) => message.to === 'receipt-mailbox@example.com');
    expect(receipt?.subject).toBe('DealerPass receipt for 2026-03-15');
    expect(receipt?.text).toContain(
      `We charged $138.00 to your Visa ending in 1111 for ${PERIOD}.`,
    );
    expect(pdfWords).toContain('Visa ending in 1111');
    expect(receipt?.attachments).toEqual([
      {
        filename: '2026-03-15-payment.pdf',
        contentType: 'application/pdf',
        url: expect.any(String),
      },
    ]);
    const download = await t.app.inject({ method: 'GET', url: receipt!.attachments[0]!.url });
    expect(download.statusCode).toBe(200);

    // The HTML part, on its own with a policy that lets its inline styles apply and nothing run.
    const html = await t.app.inject({
      method: 'GET',
      url: (receipt as unknown as { htmlUrl: string }).htmlUrl,
    });
    expect(html.statusCode).toBe(200);
    expect(html.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(html.body).toContain('<html lang="en"');
    expect(html.headers['content-security-policy']).toMatch(
      /^default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox;/,
    );
    const missing = await t.app.inject({
      method: 'GET',
      url: `/api/dev/mailbox/${crypto.randomUUID()}/html`,
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ code: 'NOT_FOUND' });
    expect(download.headers['content-type']).toBe('application/pdf');
    expect(download.rawPayload.equals(pdf)).toBe(true);
  });
});

describe('the receipt e-mail through SMTP', () => {
  const received: string[] = [];
  let server: SMTPServer;
  let t: TestApp;
  beforeAll(async () => {
    server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, _session, callback) {
        let raw = '';
        stream.on('data', (chunk: Buffer) => (raw += chunk.toString()));
        stream.on('end', () => {
          received.push(raw);
          callback();
        });
      },
    });
    server.listen(0, '127.0.0.1');
    await once(server.server, 'listening');
    const port = (server.server.address() as AddressInfo).port;
    // The dispatcher's clock is real time: outbox rows are stamped by the database's clock.
    t = await buildTestApp({
      env: { SMTP_URL: `smtp://127.0.0.1:${port}` },
      now: () => new Date(),
    });
  });
  afterAll(async () => {
    await t.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('carries the stored PDF receipt as an attachment', async () => {
    const userId = await dueSubscriber(t, 'receipt-smtp@example.com', new Date());
    expect((await runBilling(billingDeps(t, 'smtp'), { userId })).charged).toBe(1);
    await t.app.mail.kick();
    const raw = received.find((mail) => mail.includes('Subject: DealerPass receipt for'));
    expect(raw).toBeDefined();
    expect(raw).toContain('Content-Type: application/pdf; name=2026-03-15-payment.pdf');
    expect(raw).toContain('filename=2026-03-15-payment.pdf');
    const pdf = await storedReceipt(t, userId);
    expect(raw!.replace(/\r?\n/g, '')).toContain(pdf.toString('base64'));

    // Issue 27 item 11: the text and its HTML alternative, with the PDF beside them.
    const types = [...raw!.matchAll(/^Content-Type: ([\w/-]+)/gim)].map((match) => match[1]);
    expect(types).toEqual([
      'multipart/mixed',
      'multipart/alternative',
      'text/plain',
      'text/html',
      'application/pdf',
    ]);
    const parsed = await simpleParser(raw!);
    expect(parsed.headers.get('auto-submitted')).toBe('auto-generated');
    expect(parsed.text).toContain(`We charged $138.00 to your Visa ending in 1111 for ${PERIOD}.`);
    expect(parsed.html).toContain('<html lang="en"');
    expect(parsed.html).toContain(`We charged $138.00 to your Visa ending in 1111 for ${PERIOD}.`);
    expect(parsed.attachments).toHaveLength(1);
    expect(parsed.attachments[0]).toMatchObject({
      contentType: 'application/pdf',
      filename: '2026-03-15-payment.pdf',
    });
    expect(parsed.attachments[0]!.content.equals(pdf)).toBe(true);
  });
});

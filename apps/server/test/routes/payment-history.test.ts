/**
 * Payment history and receipts over HTTP (000 §3, §4, §7–9; DECISIONS R9): the history, the
 * streamed year zip and the compatibility zip, against the real app and database. Payments are
 * inserted as the billing engine stores them, each with a receipt from the receipts renderer.
 */
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { noReceiptsMessage } from '@dealerpass/domain/billing/payment-history';
import { PDF_ZIP_LIMITS, YEAR_MESSAGE } from '@dealerpass/domain/schemas/payment-history';
import { billingPeriods, payments } from '../../src/db/schema.ts';
import { SESSION_COOKIE } from '../../src/plugins/session.ts';
import { PDF_ZIP_BODY_LIMIT } from '../../src/routes/payment-history/index.ts';
import { buildYearZip } from '../../src/services/receipts/build-year-zip.ts';
import { renderReceipt, renderReceiptPdf } from '../../src/services/receipts/render-receipt.ts';
import { sampleReceipt } from '../../src/services/receipts/sample-receipt.ts';
import { receiptColumns } from '../../src/services/receipts/stored-receipt.ts';
import { PDF_ZIP_MESSAGES } from '../../src/services/receipts/zip-from-base64-pdfs.ts';
import { buildTestApp, type TestApp } from '../support/helper.ts';
import { createAccount, sessionFor } from '../factories/sign-in.ts';
import { storedReceiptPdf } from '../support/stored-receipt.ts';
import { dosDateOf, readZip } from '../support/zip-reader.ts';

const SUPPORT_PHONE = '1-800-555-0142';
/** 23:30 on 31 December 2025 in New York (the business time zone), already 2026 in UTC. */
const NOW = new Date('2026-01-01T04:30:00Z');
const HISTORY = '/api/users/paymentHistory';
const YEAR_ZIP = '/api/users/paymentHistory/receipts.zip';
const PDF_ZIP = '/api/pdf/zip';

type Who = 'alice' | 'bob' | 'blocked' | 'dana' | 'erin';

interface StoredPayment {
  id: string;
  who: Who;
  activationDate: string;
  amountCents: number;
  status: 'succeeded' | 'refunded';
  pdf: Buffer;
}

// ---- The app, its accounts and their payments ----------------------------------------------

let t: TestApp;
let offsetMs = 0;
let csrf: { cookie: string; token: string };
const userIds = {} as Record<Who, string>;
const sessionOf = {} as Record<Who, string>;
const stored: StoredPayment[] = [];

async function insertPayment(
  who: Who,
  fields: {
    activationDate: string;
    amountCents: number;
    cardBrand?: string;
    cardLast4?: string;
    status?: 'succeeded' | 'refunded';
    periodStart?: string;
    createdAt?: Date;
  },
): Promise<StoredPayment> {
  const { activationDate, amountCents } = fields;
  const paymentId = randomUUID();
  const rendered = renderReceipt(
    sampleReceipt({
      lines: [{ code: 'NADA', name: 'NADA pricing guide', cents: amountCents, free: false }],
      platformFeeCents: 0,
      totalCents: amountCents,
      card: { brand: 'Visa', lastFour: fields.cardLast4 ?? '1111' },
      paymentDate: activationDate,
      period: { from: activationDate, to: activationDate },
      paymentId,
      issuedAt: new Date(`${activationDate}T15:00:00Z`),
    }),
  );
  const { pdf } = rendered;
  // Every other receipt as rows written before migration 0028 hold it (the whole PDF), the rest
  // as the billing run stores them now (decision 066): the account reads both the same.
  const columns = stored.length % 2 === 0 ? receiptColumns(rendered) : { receiptPdf: pdf };
  const [period] = await t.app.db
    .insert(billingPeriods)
    .values({
      userId: userIds[who],
      kind: 'renewal',
      periodStart: fields.periodStart ?? activationDate,
      periodEnd: fields.periodStart ?? activationDate,
      amountCents,
      quote: {},
      status: 'paid',
      idempotencyKey: `test-${paymentId}`,
    })
    .returning();
  await t.app.db.insert(payments).values({
    id: paymentId,
    userId: userIds[who],
    billingPeriodId: period!.id,
    amountCents,
    gatewayTransactionId: `txn-${paymentId}`,
    cardBrand: fields.cardBrand ?? 'visa',
    cardLast4: fields.cardLast4 ?? '1111',
    activationDate,
    ...columns,
    status: fields.status ?? 'succeeded',
    // As R4's trial cancellation leaves it: the whole payment refunded, the same day.
    ...(fields.status === 'refunded'
      ? {
          refundedAt: new Date(`${activationDate}T16:00:00Z`),
          refundClaimedAt: new Date(`${activationDate}T16:00:00Z`),
          refundClaimedCents: amountCents,
        }
      : {}),
    ...(fields.createdAt ? { createdAt: fields.createdAt } : {}),
  });
  const payment: StoredPayment = {
    id: paymentId,
    who,
    activationDate,
    amountCents,
    status: fields.status ?? 'succeeded',
    pdf,
  };
  stored.push(payment);
  return payment;
}

async function startSession(who: Who, now: Date): Promise<string> {
  const rawId = await sessionFor(t, userIds[who], now);
  return rawId;
}

/** The stored receipt as the database holds it now, read back as its PDF. */
async function receiptInDatabase(id: string): Promise<Buffer> {
  const [row] = await t.app.db
    .select({ pdf: payments.receiptPdf })
    .from(payments)
    .where(eq(payments.id, id));
  return storedReceiptPdf(t, row!.pdf);
}

function call(
  method: 'GET' | 'POST',
  url: string,
  options: { session?: string | undefined; payload?: unknown } = {},
): Promise<LightMyRequestResponse> {
  const hasBody = options.payload !== undefined;
  return t.app.inject({
    method,
    url,
    headers: {
      cookie: [csrf.cookie, options.session ? `${SESSION_COOKIE}=${options.session}` : '']
        .filter(Boolean)
        .join('; '),
      'x-csrf-token': csrf.token,
      ...(hasBody ? { 'content-type': 'application/json' } : {}),
    },
    ...(hasBody
      ? {
          payload:
            typeof options.payload === 'string' ? options.payload : JSON.stringify(options.payload),
        }
      : {}),
  });
}

const as = (who: Who, method: 'GET' | 'POST', url: string, payload?: unknown) =>
  call(method, url, { session: sessionOf[who], payload });

const PDF = renderReceiptPdf(sampleReceipt());
const pdfBlob = (filename: string, data: Buffer = PDF) => ({
  filename,
  data: data.toString('base64'),
});
/** A PDF of exactly `bytes` bytes: the signature, then spaces. */
function pdfOfSize(bytes: number): Buffer {
  const data = Buffer.alloc(bytes, 0x20);
  data.write('%PDF-1.4\n', 'latin1');
  return data;
}

beforeAll(async () => {
  t = await buildTestApp({
    env: { SUPPORT_PHONE },
    now: () => new Date(NOW.getTime() + offsetMs),
  });
  const accounts = {
    alice: await createAccount(t, { email: 'alice@example.com' }),
    bob: await createAccount(t, { email: 'bob@example.com' }),
    blocked: await createAccount(t, { email: 'blocked@example.com', accountStatus: 'blocked' }),
    dana: await createAccount(t, { email: 'dana@example.com' }),
    // Signs in whenever a test moves the clock (a new session ends the one before).
    erin: await createAccount(t, { email: 'erin@example.com' }),
  };
  for (const [who, { user }] of Object.entries(accounts) as [Who, { user: { id: string } }][]) {
    userIds[who] = user.id;
    sessionOf[who] = await startSession(who, NOW);
  }
  csrf = await t.browser();

  // Not in date order, so the answers' order is the server's doing.
  await insertPayment('alice', {
    activationDate: '2025-03-05',
    amountCents: 19550,
    cardBrand: 'amex',
    cardLast4: '0005',
    createdAt: new Date('2025-03-05T14:00:00Z'),
  });
  await insertPayment('alice', { activationDate: '2025-01-05', amountCents: 7000 });
  await insertPayment('alice', {
    activationDate: '2025-12-31',
    amountCents: 7300,
    cardBrand: 'Visa',
    cardLast4: '4242',
  });
  await insertPayment('alice', {
    activationDate: '2025-02-05',
    amountCents: 7301,
    cardBrand: 'mastercard',
    cardLast4: '5454',
  });
  // A second payment on 5 March (a reactivation that started a new period), made later that day.
  await insertPayment('alice', {
    activationDate: '2025-03-05',
    amountCents: 2500,
    periodStart: '2025-03-10',
    createdAt: new Date('2025-03-05T19:00:00Z'),
  });
  await insertPayment('alice', {
    activationDate: '2025-04-05',
    amountCents: 7000,
    status: 'refunded',
  });
  await insertPayment('alice', { activationDate: '2024-12-31', amountCents: 7000 });
  await insertPayment('alice', {
    activationDate: '2021-06-01',
    amountCents: 6500,
    status: 'refunded',
  });
  await insertPayment('bob', {
    activationDate: '2025-05-05',
    amountCents: 9999,
    cardBrand: 'discover',
    cardLast4: '1117',
  });
  await insertPayment('bob', { activationDate: '2023-06-01', amountCents: 6500 });
  await insertPayment('blocked', { activationDate: '2025-06-01', amountCents: 7000 });
  for (const day of ['2025-01-09', '2025-02-09', '2025-03-09', '2025-04-09', '2025-05-09']) {
    await insertPayment('dana', { activationDate: day, amountCents: 7000 });
  }
}, 60_000);
afterAll(() => t.close());

/** A user's payments of a year as the history lists them: a trial-refunded one too (R4). */
const mine = (who: Who, year: number) =>
  stored.filter((p) => p.who === who && p.activationDate.startsWith(`${year}-`));

// ---- Access ---------------------------------------------------------------------------------

describe('access to the payment history routes', () => {
  const ROUTES = [
    { method: 'GET', url: `${HISTORY}?year=2025` },
    { method: 'GET', url: `${YEAR_ZIP}?year=2025` },
    {
      method: 'POST',
      url: PDF_ZIP,
      payload: { zipFilename: 'r.zip', pdfBlobs: [pdfBlob('a.pdf')] },
    },
  ] as const;
  const send = (route: (typeof ROUTES)[number], session?: string) =>
    call(route.method, route.url, {
      session,
      payload: 'payload' in route ? route.payload : undefined,
    });

  it.each(ROUTES)('$method $url without a session → 401', async (route) => {
    const response = await send(route);
    expect(response.statusCode).toBe(401);
    expect(response.json().code).toBe('UNAUTHORIZED');
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it.each(ROUTES)('$method $url with an unknown session → 403 invalidToken', async (route) => {
    const response = await send(route, 'not-a-session');
    expect(response.statusCode).toBe(403);
    expect(response.json()).toBe('invalidToken');
  });

  it.each(ROUTES)('$method $url with an expired session → 403 invalidToken', async (route) => {
    const session = await startSession('erin', NOW);
    offsetMs = 31 * 60 * 1000; // past the idle limit
    try {
      const response = await send(route, session);
      expect(response.statusCode).toBe(403);
      expect(response.json()).toBe('invalidToken');
    } finally {
      offsetMs = 0;
    }
  });

  it.each(ROUTES)('$method $url for a blocked account → 403 ACCOUNT_BLOCKED', async (route) => {
    const response = await send(route, sessionOf.blocked);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({
      code: 'ACCOUNT_BLOCKED',
      message: `Your account is blocked. Please contact Customer Support at ${SUPPORT_PHONE}.`,
    });
  });

  it('the session is checked before a body is read: a huge anonymous body gets 401', async () => {
    const huge = JSON.stringify({
      zipFilename: 'r.zip',
      pdfBlobs: [pdfBlob('a.pdf', pdfOfSize(PDF_ZIP_BODY_LIMIT))],
    });
    expect(huge.length).toBeGreaterThan(PDF_ZIP_BODY_LIMIT);
    const response = await call('POST', PDF_ZIP, { payload: huge });
    expect(response.statusCode).toBe(401);
  });

  it("another user's payments never appear, whatever the query names", async () => {
    const alice = await as('alice', 'GET', `${HISTORY}?year=2025&userId=${userIds.bob}`);
    const bob = await as('bob', 'GET', `${HISTORY}?year=2025`);
    const blobsOf = (response: LightMyRequestResponse) =>
      (response.json().data.payments as { receiptBlob: string }[]).map((p) => p.receiptBlob);
    const others = stored.filter((p) => p.who !== 'alice').map((p) => p.pdf.toString('base64'));
    expect(blobsOf(alice)).toHaveLength(mine('alice', 2025).length);
    expect(blobsOf(alice).some((blob) => others.includes(blob))).toBe(false);
    expect(blobsOf(bob)).toEqual(mine('bob', 2025).map((p) => p.pdf.toString('base64')));

    // Bob has receipts for 2023 and Alice none: her zip for 2023 is a 404, his has only his.
    expect((await as('alice', 'GET', `${YEAR_ZIP}?year=2023`)).statusCode).toBe(404);
    const bobZip = readZip((await as('bob', 'GET', `${YEAR_ZIP}?year=2025`)).rawPayload);
    expect(bobZip.map((e) => e.data.equals(mine('bob', 2025)[0]!.pdf))).toEqual([true]);
    const aliceZip = readZip((await as('alice', 'GET', `${YEAR_ZIP}?year=2025`)).rawPayload);
    for (const entry of aliceZip) {
      expect(stored.some((p) => p.who !== 'alice' && p.pdf.equals(entry.data))).toBe(false);
    }
  });
});

// ---- GET /api/users/paymentHistory ------------------------------------------------------------

describe('GET /api/users/paymentHistory', () => {
  it("lists the year's successful payments, newest first, in the specified shape", async () => {
    const response = await as('alice', 'GET', `${HISTORY}?year=2025`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const list = response.json().data.payments as Record<string, unknown>[];
    expect(Object.keys(response.json())).toEqual(['data']);
    expect(Object.keys(response.json().data)).toEqual(['payments']);
    // The specification's four fields; a refunded payment adds what was refunded (R4, R12).
    for (const payment of list) {
      expect(Object.keys(payment).sort()).toEqual(
        payment.activationDate === '2025-04-05'
          ? ['activationDate', 'amount', 'paidWith', 'receiptBlob', 'refundedAmount', 'refunds']
          : ['activationDate', 'amount', 'paidWith', 'receiptBlob'],
      );
    }
    // The payment of 5 April, refunded in the trial, is listed as refunded; the 5 March payments
    // are newest first.
    expect(
      list.map(({ activationDate, paidWith, amount }) => ({ activationDate, paidWith, amount })),
    ).toEqual([
      { activationDate: '2025-12-31', paidWith: 'Visa ending in 4242', amount: 73 },
      { activationDate: '2025-04-05', paidWith: 'Visa ending in 1111', amount: 70 },
      { activationDate: '2025-03-05', paidWith: 'Visa ending in 1111', amount: 25 },
      { activationDate: '2025-03-05', paidWith: 'American Express ending in 0005', amount: 195.5 },
      { activationDate: '2025-02-05', paidWith: 'Mastercard ending in 5454', amount: 73.01 },
      { activationDate: '2025-01-05', paidWith: 'Visa ending in 1111', amount: 70 },
    ]);
  });

  it('carries amounts as dollar numbers with at most two decimals', async () => {
    const response = await as('alice', 'GET', `${HISTORY}?year=2025`);
    const list = response.json().data.payments as { activationDate: string; amount: number }[];
    const cents = mine('alice', 2025)
      .map((p) => p.amountCents)
      .sort((a, b) => a - b);
    for (const { amount } of list) {
      expect(typeof amount).toBe('number');
      expect(Math.round(amount * 100) / 100).toBe(amount);
      expect(amount.toFixed(2)).toMatch(/^\d+\.\d{2}$/);
    }
    expect(list.map((p) => Math.round(p.amount * 100)).sort((a, b) => a - b)).toEqual(cents);
    expect(response.body).toContain('"amount":73.01');
    expect(response.body).toContain('"amount":195.5');
  });

  it('gives each receipt as base64 of the stored PDF, byte for byte', async () => {
    const list = (await as('alice', 'GET', `${HISTORY}?year=2025`)).json().data.payments as {
      activationDate: string;
      amount: number;
      receiptBlob: string;
    }[];
    expect(list).toHaveLength(mine('alice', 2025).length);
    for (const payment of list) {
      // Date and amount tell the fixture's payments apart.
      const [row] = mine('alice', 2025).filter(
        (p) =>
          p.activationDate === payment.activationDate &&
          p.amountCents === Math.round(payment.amount * 100),
      );
      const bytes = Buffer.from(payment.receiptBlob, 'base64');
      expect(bytes.toString('base64')).toBe(payment.receiptBlob); // plain, unwrapped base64
      expect(bytes.equals(row!.pdf)).toBe(true);
      expect(bytes.equals(await receiptInDatabase(row!.id))).toBe(true);
    }
  });

  it('splits years by the business date: 31 December is in its own year', async () => {
    const list = (await as('alice', 'GET', `${HISTORY}?year=2024`)).json().data.payments;
    expect(list.map((p: { activationDate: string }) => p.activationDate)).toEqual(['2024-12-31']);
  });

  it('answers an empty list for a year without payments (the page shows the message)', async () => {
    for (const year of [2022]) {
      const response = await as('alice', 'GET', `${HISTORY}?year=${year}`);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ data: { payments: [] } });
    }
  });
});

// ---- Years ----------------------------------------------------------------------------------

describe('the year parameter', () => {
  // NOW is 31 December 2025 in New York: the selector offers 2025 back to 2021.
  it.each([HISTORY, YEAR_ZIP])('%s accepts the selector years only', async (path) => {
    for (const query of [
      '',
      '?year=',
      '?year=abc',
      '?year=2025.5',
      '?year=2019',
      '?year=2020',
      '?year=2026',
      '?year=20250',
    ]) {
      const response = await as('alice', 'GET', `${path}${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.json()).toMatchObject({
        code: 'VALIDATION_FAILED',
        errors: [{ source: 'year', message: YEAR_MESSAGE }],
      });
    }
    for (const year of [2021, 2025]) {
      expect((await as('alice', 'GET', `${path}?year=${year}`)).statusCode).not.toBe(400);
    }
  });

  it('moves with the business year, not the UTC one', async () => {
    offsetMs = 60 * 60 * 1000; // 00:30 on 1 January 2026 in New York
    try {
      const session = await startSession('erin', new Date(NOW.getTime() + offsetMs));
      const response = await call('GET', `${HISTORY}?year=2026`, { session });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ data: { payments: [] } });
      const dropped = await call('GET', `${HISTORY}?year=2021`, { session });
      expect(dropped.statusCode).toBe(400);
    } finally {
      offsetMs = 0;
    }
  });
});

// ---- GET /api/users/paymentHistory/receipts.zip -----------------------------------------------

describe('GET /api/users/paymentHistory/receipts.zip', () => {
  it('streams one stored entry per payment of the year, each the stored PDF', async () => {
    const response = await as('alice', 'GET', `${YEAR_ZIP}?year=2025`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/zip');
    expect(response.headers['content-disposition']).toBe(
      'attachment; filename="2025-payments-history.zip"',
    );
    expect(response.headers['cache-control']).toBe('no-store');
    const zip = response.rawPayload;
    expect(response.headers['content-length']).toBe(String(zip.length));

    const entries = readZip(zip);
    const expected = mine('alice', 2025); // inserted earlier first on the same day
    expect(entries.map((e) => e.name)).toEqual([
      '2025-01-05-payment.pdf',
      '2025-02-05-payment.pdf',
      '2025-03-05-payment.pdf',
      '2025-03-05-payment-2.pdf',
      // Refunded in the trial (R4): its receipt is the payment's, as the history lists it.
      '2025-04-05-payment.pdf',
      '2025-12-31-payment.pdf',
    ]);
    const byName = new Map(entries.map((e) => [e.name, e]));
    const earlyMarch = expected.find((p) => p.amountCents === 19550)!;
    const lateMarch = expected.find((p) => p.amountCents === 2500)!;
    expect(byName.get('2025-03-05-payment.pdf')!.data.equals(earlyMarch.pdf)).toBe(true);
    expect(byName.get('2025-03-05-payment-2.pdf')!.data.equals(lateMarch.pdf)).toBe(true);
    for (const entry of entries) {
      const day = entry.name.slice(0, 10);
      expect(entry.method).toBe(0); // stored, not recompressed
      expect(entry.dosDate).toBe(dosDateOf(day));
      const candidates = expected.filter((p) => p.activationDate === day);
      expect(candidates.some((p) => p.pdf.equals(entry.data))).toBe(true);
    }
    expect(entries).toHaveLength(expected.length);
  });

  it('is the very archive the receipts service builds from the same payments', async () => {
    const zip = (await as('alice', 'GET', `${YEAR_ZIP}?year=2025`)).rawPayload;
    const inOrder = mine('alice', 2025)
      .map((p, i) => ({ p, i }))
      .sort((a, b) =>
        a.p.activationDate === b.p.activationDate
          ? a.i - b.i
          : a.p.activationDate < b.p.activationDate
            ? -1
            : 1,
      )
      .map(({ p }) => ({ activationDate: p.activationDate, receiptPdf: p.pdf }));
    const built = buildYearZip(2025, inOrder, { supportPhone: SUPPORT_PHONE });
    const chunks: Buffer[] = [];
    for await (const chunk of built.stream) chunks.push(chunk as Buffer);
    expect(zip.equals(Buffer.concat(chunks))).toBe(true);
  });

  it('answers a year without receipts with 404 and the specified text', async () => {
    // 2022: nothing (2021's only payment was refunded in the trial: it is listed, with its receipt).
    for (const year of [2022]) {
      const response = await as('alice', 'GET', `${YEAR_ZIP}?year=${year}`);
      expect(response.statusCode).toBe(404);
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.json()).toMatchObject({
        code: 'NOT_FOUND',
        message: noReceiptsMessage(year, SUPPORT_PHONE),
      });
    }
  });
});

// ---- POST /api/pdf/zip ----------------------------------------------------------------------

describe('POST /api/pdf/zip', () => {
  const post = (payload: unknown) => as('alice', 'POST', PDF_ZIP, payload);
  const refusedWith = async (payload: unknown) => {
    const response = await post(payload);
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('VALIDATION_FAILED');
    return response.json().errors as { source: string; message: string }[];
  };

  it('zips the PDFs it is given under their names', async () => {
    const other = renderReceiptPdf(sampleReceipt({ paymentId: 'pay_other' }));
    const response = await post({
      zipFilename: '2025-payments-history.zip',
      pdfBlobs: [pdfBlob('2025-10-06-payment.pdf'), pdfBlob('2025-09-06-payment.pdf', other)],
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/zip');
    expect(response.headers['content-disposition']).toBe(
      'attachment; filename="2025-payments-history.zip"',
    );
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['content-length']).toBe(String(response.rawPayload.length));
    const entries = readZip(response.rawPayload);
    expect(entries.map((e) => e.name)).toEqual([
      '2025-10-06-payment.pdf',
      '2025-09-06-payment.pdf',
    ]);
    expect(entries[0]!.data.equals(PDF)).toBe(true);
    expect(entries[1]!.data.equals(other)).toBe(true);
    expect(entries[0]!.method).toBe(0);
  });

  it('takes up to 24 files and up to 10 MB in all, and refuses more', async () => {
    const files = (n: number) => Array.from({ length: n }, (_, i) => pdfBlob(`r-${i}.pdf`));
    const ok = await post({ zipFilename: 'a.zip', pdfBlobs: files(24) });
    expect(ok.statusCode).toBe(200);
    expect(readZip(ok.rawPayload)).toHaveLength(24);
    expect(await refusedWith({ zipFilename: 'a.zip', pdfBlobs: files(25) })).toEqual([
      expect.objectContaining({ source: 'pdfBlobs' }),
    ]);
    expect((await refusedWith({ zipFilename: 'a.zip', pdfBlobs: [] }))[0]!.source).toBe('pdfBlobs');

    const half = pdfOfSize(PDF_ZIP_LIMITS.maxTotalBytes / 2);
    const tenMb = await post({
      zipFilename: 'big.zip',
      pdfBlobs: [pdfBlob('a.pdf', half), pdfBlob('b.pdf', half)],
    });
    expect(tenMb.statusCode).toBe(200);
    const entries = readZip(tenMb.rawPayload);
    expect(entries.map((e) => e.data.equals(half))).toEqual([true, true]);

    const over = pdfOfSize(PDF_ZIP_LIMITS.maxTotalBytes / 2 + 1);
    expect(
      await refusedWith({
        zipFilename: 'big.zip',
        pdfBlobs: [pdfBlob('a.pdf', over), pdfBlob('b.pdf', over)],
      }),
    ).toEqual([{ source: 'pdfBlobs', message: PDF_ZIP_MESSAGES.tooLarge }]);
  });

  it('refuses a body too large to be read with the same 400, not 413', async () => {
    const third = pdfOfSize(PDF_ZIP_LIMITS.maxTotalBytes / 3);
    const payload = {
      zipFilename: 'big.zip',
      pdfBlobs: ['a', 'b', 'c', 'd'].map((n) => pdfBlob(`${n}.pdf`, third)),
    };
    expect(JSON.stringify(payload).length).toBeGreaterThan(PDF_ZIP_BODY_LIMIT);
    expect(await refusedWith(payload)).toEqual([
      { source: 'pdfBlobs', message: PDF_ZIP_MESSAGES.tooLarge },
    ]);
  });

  it('has a body limit that fits the largest valid request and little more', () => {
    // 24 files with the longest names, 10 MB in all, sizes that maximise base64 padding.
    const sizes = Array.from({ length: 24 }, (): number => 436_906); // 1 more than a multiple of 3
    sizes[23] = PDF_ZIP_LIMITS.maxTotalBytes - sizes.slice(0, 23).reduce((a, b) => a + b, 0);
    const name = (i: number) => `${String(i).padStart(2, '0')}${'x'.repeat(94)}.pdf`;
    const largest = JSON.stringify({
      zipFilename: `${'z'.repeat(96)}.zip`,
      pdfBlobs: sizes.map((size, i) => pdfBlob(name(i), pdfOfSize(size))),
    });
    expect(largest.length).toBeLessThanOrEqual(PDF_ZIP_BODY_LIMIT);
    expect(PDF_ZIP_BODY_LIMIT - largest.length).toBeLessThan(16 * 1024);
  });

  it.each([
    ['not a PDF', { zipFilename: 'a.zip', pdfBlobs: [pdfBlob('a.pdf', Buffer.from('hello'))] }],
    ['not base64', { zipFilename: 'a.zip', pdfBlobs: [{ filename: 'a.pdf', data: 'JVBE*i0x' }] }],
    ['a path', { zipFilename: 'a.zip', pdfBlobs: [pdfBlob('../up.pdf')] }],
    ['a folder', { zipFilename: 'a.zip', pdfBlobs: [pdfBlob('dir/file.pdf')] }],
    ['a hidden name', { zipFilename: 'a.zip', pdfBlobs: [pdfBlob('.hidden.pdf')] }],
    ['not .pdf', { zipFilename: 'a.zip', pdfBlobs: [pdfBlob('notes.txt')] }],
    ['a reserved name', { zipFilename: 'a.zip', pdfBlobs: [pdfBlob('CON.pdf')] }],
    [
      'names equal but for case',
      { zipFilename: 'a.zip', pdfBlobs: [pdfBlob('A.pdf'), pdfBlob('a.pdf')] },
    ],
    ['an unsafe zip name', { zipFilename: '../a.zip', pdfBlobs: [pdfBlob('a.pdf')] }],
    ['a zip name without .zip', { zipFilename: 'a.pdf', pdfBlobs: [pdfBlob('a.pdf')] }],
    ['no files', { zipFilename: 'a.zip' }],
    ['no body', undefined],
  ])('refuses %s with 400', async (_case, payload) => {
    const response = await call('POST', PDF_ZIP, {
      session: sessionOf.alice,
      payload: payload ?? '',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('VALIDATION_FAILED');
  });
});

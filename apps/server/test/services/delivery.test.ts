/**
 * Delivery (docs/decisions/020): the build's brotli and gzip copies chosen by the request's
 * Accept-Encoding, the page and API JSON above 1 KB compressed per response, everything else
 * (small answers, PDFs, zips) sent as it is, and each page naming its own chunks for preloading.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderReceiptPdf } from '../../src/services/receipts/render-receipt.ts';
import { sampleReceipt } from '../../src/services/receipts/sample-receipt.ts';
import { COMPRESSION_THRESHOLD_BYTES } from '../../src/plugins/compression.ts';
import { SESSION_COOKIE } from '../../src/plugins/session.ts';
import { buildTestApp, type TestApp } from '../support/helper.ts';
import { createAccount, sessionFor } from '../factories/sign-in.ts';

const ASSET = '/assets/app-1a2b3c.js';
// Repetitive enough to compress well, long enough to be worth it.
const SCRIPT = Buffer.from(
  Array.from({ length: 200 }, (_, i) => `export const value${i} = "entry ${i}";`).join('\n'),
);
const BIG_JSON = {
  data: Array.from({ length: 100 }, (_, i) => ({ id: i, name: `dealer ${i}` })),
};
const PDF = renderReceiptPdf(sampleReceipt());

let t: TestApp;
let webRoot = '';

beforeAll(async () => {
  webRoot = mkdtempSync(join(tmpdir(), 'dp-web-'));
  mkdirSync(join(webRoot, 'assets'));
  writeFileSync(
    join(webRoot, 'index.html'),
    // As Vite writes it: the entry's script in the head, after the marker.
    `<!doctype html><html lang="en"><head><!--app-head--><script type="module" src="${ASSET}"></script></head><body><div id="root"></div>${'<p>shell</p>'.repeat(200)}</body></html>`,
  );
  // As apps/web/build/precompress.ts writes them.
  writeFileSync(join(webRoot, 'assets', 'app-1a2b3c.js'), SCRIPT);
  writeFileSync(join(webRoot, 'assets', 'app-1a2b3c.js.br'), brotliCompressSync(SCRIPT));
  writeFileSync(join(webRoot, 'assets', 'app-1a2b3c.js.gz'), gzipSync(SCRIPT));
  // Only a gzip copy: a brotli request falls back to it.
  writeFileSync(join(webRoot, 'assets', 'style-9f8e7d.css'), SCRIPT);
  writeFileSync(join(webRoot, 'assets', 'style-9f8e7d.css.gz'), gzipSync(SCRIPT));
  // As apps/web/build/page-preloads.ts writes it.
  mkdirSync(join(webRoot, '.vite'));
  writeFileSync(
    join(webRoot, '.vite', 'page-preloads.json'),
    JSON.stringify({
      '/home': {
        js: ['/assets/home-page-1.js', '/assets/quote-table-2.js'],
        css: ['/assets/home-3.css'],
      },
      '/oidc/interaction/:uid': { js: ['/assets/sign-in-page-4.js'], css: [] },
      '/account/carFaxIntegrations': { js: ['/assets/carfax-5.js'], css: [] },
    }),
  );
  t = await buildTestApp({
    webRoot,
    routes: (app) => {
      app.get('/api/test/big-json', { config: { access: 'public' } }, () => BIG_JSON);
      app.get('/api/test/small-json', { config: { access: 'public' } }, () => ({ ok: true }));
      app.get('/api/test/etag-json', { config: { access: 'public' } }, (_request, reply) =>
        reply.header('etag', '"v1"').send(BIG_JSON),
      );
      app.get('/api/test/pdf', { config: { access: 'public' } }, (_request, reply) =>
        reply.type('application/pdf').send(PDF),
      );
    },
  });
});

afterAll(async () => {
  await t?.close();
  if (webRoot) rmSync(webRoot, { recursive: true, force: true });
});

const get = (url: string, acceptEncoding?: string, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'GET',
    url,
    headers: {
      ...(acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding }),
      ...headers,
    },
  });

function decoded(response: LightMyRequestResponse): Buffer {
  const body = response.rawPayload;
  switch (response.headers['content-encoding']) {
    case 'br':
      return brotliDecompressSync(body);
    case 'gzip':
      return gunzipSync(body);
    case undefined:
      return body;
    default:
      throw new Error(`unexpected encoding ${String(response.headers['content-encoding'])}`);
  }
}

function varies(response: LightMyRequestResponse): boolean {
  return String(response.headers.vary ?? '')
    .toLowerCase()
    .split(',')
    .map((token) => token.trim())
    .includes('accept-encoding');
}

describe('built assets, precompressed', () => {
  it.each([
    ['br, gzip, deflate', 'br'],
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip', 'gzip'],
    ['GZIP', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['gzip;q=0.9, br;q=0.5', 'gzip'],
    // @fastify/static reads a bare * as gzip.
    ['*', 'gzip'],
    ['identity', undefined],
    ['deflate', undefined],
    ['br;q=0, gzip;q=0', undefined],
    [undefined, undefined],
  ])('Accept-Encoding %s → %s', async (acceptEncoding, encoding) => {
    const response = await get(ASSET, acceptEncoding);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe(encoding);
    expect(response.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(Number(response.headers['content-length'])).toBe(response.rawPayload.length);
    expect(decoded(response).equals(SCRIPT)).toBe(true);
    if (encoding) expect(response.rawPayload.length).toBeLessThan(SCRIPT.length / 2);
    expect(varies(response)).toBe(true);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('falls back to the next encoding the build wrote', async () => {
    const response = await get('/assets/style-9f8e7d.css', 'br, gzip');
    expect(response.headers['content-encoding']).toBe('gzip');
    expect(response.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(decoded(response).equals(SCRIPT)).toBe(true);
    const none = await get('/assets/style-9f8e7d.css', 'br');
    expect(none.headers['content-encoding']).toBeUndefined();
    expect(none.rawPayload.equals(SCRIPT)).toBe(true);
  });

  it('has a validator per representation, answered with 304', async () => {
    const brotli = await get(ASSET, 'br');
    const plain = await get(ASSET, 'identity');
    const etag = brotli.headers.etag as string;
    expect(etag).toBeTruthy();
    expect(etag).not.toBe(plain.headers.etag);
    const revalidated = await get(ASSET, 'br', { 'if-none-match': etag });
    expect(revalidated.statusCode).toBe(304);
    expect(revalidated.rawPayload.length).toBe(0);
    // The brotli copy's validator does not validate the plain file.
    const other = await get(ASSET, 'identity', { 'if-none-match': etag });
    expect(other.statusCode).toBe(200);
  });

  it('answers HEAD with the headers of the GET and no body', async () => {
    const head = await t.app.inject({
      method: 'HEAD',
      url: ASSET,
      headers: { 'accept-encoding': 'gzip' },
    });
    const full = await get(ASSET, 'gzip');
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-encoding']).toBe('gzip');
    expect(head.headers['content-length']).toBe(full.headers['content-length']);
    expect(varies(head)).toBe(true);
    expect(head.rawPayload.length).toBe(0);
  });

  it('never serves the compressed copies by their own names, and a missing asset is a 404', async () => {
    for (const url of [`${ASSET}.br`, `${ASSET}.gz`, '/assets/missing-000000.js']) {
      const response = await get(url, 'br, gzip');
      expect(response.statusCode, url).toBe(404);
      expect(response.headers['content-type'], url).toMatch(/^application\/json/);
      expect(response.headers['content-encoding'], url).toBeUndefined();
    }
  });
});

describe('answers compressed per response', () => {
  it('compresses the page, which is filled per response', async () => {
    const page = await get('/home', 'br, gzip');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-encoding']).toBe('br');
    expect(varies(page)).toBe(true);
    expect(page.headers['cache-control']).toBe('no-store');
    const html = decoded(page).toString('utf8');
    expect(html).toContain('<meta name="csrf-token" content="');
    // The CSP's nonce is on the script tag of the compressed page too.
    const nonce = /script-src[^;]*'nonce-([^']+)'/.exec(
      String(page.headers['content-security-policy']),
    )?.[1];
    expect(nonce).toBeTruthy();
    expect(html).toContain(`<script nonce="${nonce}" type="module"`);
    expect(Number(page.headers['content-length'])).toBe(page.rawPayload.length);
    const plain = await get('/home');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toContain('<meta name="csrf-token" content="');
  });

  it('compresses JSON above the threshold, by the q-values', async () => {
    const expected = JSON.stringify(BIG_JSON);
    expect(expected.length).toBeGreaterThan(COMPRESSION_THRESHOLD_BYTES);
    for (const [acceptEncoding, encoding] of [
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
      ['br;q=0.1, gzip;q=0.8', 'gzip'],
      ['identity', undefined],
      [undefined, undefined],
    ] as const) {
      const response = await get('/api/test/big-json', acceptEncoding);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-encoding'], acceptEncoding).toBe(encoding);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(decoded(response).toString('utf8')).toBe(expected);
      expect(Number(response.headers['content-length'])).toBe(response.rawPayload.length);
      expect(varies(response)).toBe(true);
    }
  });

  it('sends JSON below the threshold as it is', async () => {
    const response = await get('/api/test/small-json', 'br, gzip');
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.json()).toEqual({ ok: true });
  });

  it('weakens a strong validator of a compressed answer', async () => {
    expect((await get('/api/test/etag-json', 'gzip')).headers.etag).toBe('W/"v1"');
    expect((await get('/api/test/etag-json')).headers.etag).toBe('"v1"');
  });

  it('compresses error answers above the threshold only, and leaves a HEAD body empty', async () => {
    const head = await t.app.inject({
      method: 'HEAD',
      url: '/api/test/big-json',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(head.headers['content-encoding']).toBe('gzip');
    expect(head.rawPayload.length).toBe(0);
    const missing = await get('/api/nowhere', 'br');
    expect(missing.statusCode).toBe(404);
    expect(missing.json<{ statusCode: number }>().statusCode).toBe(404);
  });

  it('leaves PDFs as they are', async () => {
    expect(PDF.length).toBeGreaterThan(COMPRESSION_THRESHOLD_BYTES);
    const response = await get('/api/test/pdf', 'br, gzip');
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.rawPayload.equals(PDF)).toBe(true);
  });

  it('leaves the streamed receipt zip as it is', async () => {
    const { user } = await createAccount(t, { email: 'zip@example.com' });
    const session = await sessionFor(t, user.id);
    const browser = await t.browser();
    const response = await browser.request({
      method: 'POST',
      url: '/api/pdf/zip',
      headers: {
        cookie: `${browser.cookie}; ${SESSION_COOKIE}=${session}`,
        'accept-encoding': 'br, gzip',
      },
      payload: {
        zipFilename: 'receipts.zip',
        pdfBlobs: [{ filename: 'a.pdf', data: PDF.toString('base64') }],
      },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/zip');
    expect(response.headers['content-encoding']).toBeUndefined();
    // A stored zip: its first entry's local header, then the PDF's bytes as they are.
    expect(response.rawPayload.subarray(0, 4).toString('latin1')).toBe('PK\x03\x04');
    expect(response.rawPayload.includes(PDF.subarray(0, 64))).toBe(true);
  });
});

describe('page preloads', () => {
  const linksOf = (html: string) =>
    [...html.matchAll(/<link rel="(modulepreload|stylesheet)" href="([^"]+)">/g)].map(
      (m) => `${m[1]} ${m[2]}`,
    );

  it("names the page's own chunks and stylesheets in its head", async () => {
    const home = await get('/home');
    expect(linksOf(home.body)).toEqual([
      'stylesheet /assets/home-3.css',
      'modulepreload /assets/home-page-1.js',
      'modulepreload /assets/quote-table-2.js',
    ]);
    expect(home.body.indexOf('modulepreload')).toBeLessThan(home.body.indexOf('</head>'));
    // The entry is requested first: its script precedes the page's links (decision 027).
    expect(home.body.indexOf(`src="${ASSET}"`)).toBeGreaterThan(0);
    expect(home.body.indexOf(`src="${ASSET}"`)).toBeLessThan(home.body.indexOf('<link rel='));
    expect(
      linksOf(
        (await get('/oidc/interaction/bggANCgfn6pR_oVtdFmdzK4DOTrZR0GqNJIz-kzZlYi?x=1')).body,
      ),
    ).toEqual(['modulepreload /assets/sign-in-page-4.js']);
    // The router's paths are not case-sensitive, nor are these; a trailing slash is the same path.
    expect(linksOf((await get('/account/carfaxintegrations/')).body)).toEqual([
      'modulepreload /assets/carfax-5.js',
    ]);
  });

  it('names nothing on a path that is no page of the app', async () => {
    for (const url of ['/nowhere', '/oidc/interaction', '/home/more']) {
      expect(linksOf((await get(url)).body), url).toEqual([]);
    }
  });
});

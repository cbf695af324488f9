/**
 * The JavaScript a first visit downloads, in bytes on the wire: the built app is started as
 * `npm start` runs it, Debian's Chromium opens each public page (it sends `Accept-Encoding: gzip,
 * deflate, br, zstd`), and every script response until the network is idle is summed as the
 * server sent it (the compressed body's size). Target (issue 16): /home ≤ 75 KB. Run after
 * `npm run build` (npm run bench:bundle does both).
 */
import { chromium } from '@playwright/test';
import { startApp } from './servers/app-process.ts';

const LIMIT_KB = 75;
const PAGES = ['/home', '/signup', '/contact', '/terms', '/login'];

interface Transfer {
  file: string;
  encoding: string;
  wireBytes: number;
}

const app = await startApp();
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu'],
});
let homeKb = Infinity;
try {
  for (const path of PAGES) {
    // A fresh context per page: an empty cache, as on a first visit.
    const context = await browser.newContext();
    const page = await context.newPage();
    const pending: Promise<Transfer>[] = [];
    page.on('response', (response) => {
      if (response.request().resourceType() !== 'script') return;
      pending.push(
        response
          .request()
          .sizes()
          .then((sizes) => ({
            file: new URL(response.url()).pathname,
            encoding: response.headers()['content-encoding'] ?? 'identity',
            wireBytes: sizes.responseBodySize,
          })),
      );
    });
    await page.goto(`${app.url}${path}`, { waitUntil: 'networkidle' });
    const transfers = await Promise.all(pending);
    await context.close();
    const totalKb = transfers.reduce((sum, t) => sum + t.wireBytes, 0) / 1024;
    console.log(
      `${path} (${new URL(page.url()).pathname}): ${totalKb.toFixed(1)} KB of JavaScript on the wire`,
    );
    for (const t of transfers.sort((a, b) => b.wireBytes - a.wireBytes)) {
      console.log(
        `${(t.wireBytes / 1024).toFixed(1).padStart(9)} KB  ${t.encoding.padEnd(8)} ${t.file}`,
      );
    }
    if (transfers.some((t) => t.encoding === 'identity' && t.wireBytes > 1024)) {
      console.log('  (a script above 1 KB went out uncompressed)');
    }
    if (path === '/home') homeKb = totalKb;
  }
} finally {
  await browser.close();
  await app.stop();
}
console.log(
  `first load of /home: ${homeKb.toFixed(1)} KB of compressed JavaScript on the wire (limit ${LIMIT_KB} KB) ${homeKb <= LIMIT_KB ? 'PASS' : 'FAIL'}`,
);
process.exitCode = homeKb <= LIMIT_KB ? 0 : 1;

/**
 * Lighthouse (mobile defaults: simulated slow 4G and a 4× slower CPU) against the built app as
 * `npm start` runs it, in Debian's Chromium: performance, accessibility, best practices and SEO
 * with FCP, LCP, TBT and CLS per page, and the targets of issue 16: on the public pages
 * performance ≥ 98, CLS ≤ 0.02 and the other three categories 100; /account/billing, signed in
 * through the real sign-in page as a demo account, performance ≥ 95. Run after `npm run build`
 * (npm run bench:lighthouse does both). Each page is audited LIGHTHOUSE_RUNS times (default 3)
 * and the run with the median performance score is reported, as Lighthouse advises for its
 * simulated throttling, which scales the CPU time it observes (noisy on a shared machine).
 * LIGHTHOUSE_PAGES=/home,/contact runs only those pages.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import lighthouse from 'lighthouse';
import { startApp } from './servers/app-process.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROME_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'];
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
const DEMO_ACCOUNT = { email: 'active@example.com', password: 'Demo!Pass2026' };

interface Target {
  path: string;
  signedIn: boolean;
  /** The sign-in page: reached from /login through the OpenID provider's redirects. */
  signIn?: boolean;
  minPerformance: number;
  /** CLS limit and 100 in the other three categories: the public pages' targets. */
  strict: boolean;
  /** Shown for reference, with no target of its own. */
  reference?: boolean;
}

const TARGETS: Target[] = [
  { path: '/home', signedIn: false, minPerformance: 98, strict: true },
  { path: '/signup', signedIn: false, minPerformance: 98, strict: true },
  { path: '/contact', signedIn: false, minPerformance: 98, strict: true },
  // /login itself, as a visitor reaches the sign-in page: two redirects of the OpenID protocol
  // (our relying party → the provider's /oidc/auth → the interaction) are in its figures. Shown
  // for reference; the target applies to the sign-in page itself, audited next.
  { path: '/login', signedIn: false, minPerformance: 0, strict: false, reference: true },
  {
    path: '/oidc/interaction/:uid',
    signIn: true,
    signedIn: false,
    minPerformance: 98,
    strict: true,
  },
  { path: '/account/billing', signedIn: true, minPerformance: 95, strict: false },
];
const only = process.env.LIGHTHOUSE_PAGES?.split(',');
const targets = only ? TARGETS.filter((t) => only.includes(t.path)) : TARGETS;
const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 3);

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** Chromium with its DevTools port open, as Lighthouse's own launcher starts it. */
async function startChromium(): Promise<{ port: number; stop: () => Promise<void> }> {
  const port = await freePort();
  const profile = mkdtempSync(join(tmpdir(), 'dealerpass-lighthouse-'));
  const child = spawn(
    CHROMIUM,
    [
      ...CHROME_FLAGS,
      `--remote-debugging-port=${port}`,
      `--user-data-dir=${profile}`,
      'about:blank',
    ],
    { stdio: 'ignore' },
  );
  for (let attempt = 0; ; attempt++) {
    const ready = await fetch(`http://127.0.0.1:${port}/json/version`).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) break;
    if (attempt > 120) throw new Error('Chromium did not open its DevTools port');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return {
    port,
    async stop() {
      const gone = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await gone;
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/**
 * A fresh sign-in interaction: /login's redirects followed by hand, keeping the provider's
 * interaction cookies, which the page's own calls need (a browser holds them after the redirects).
 */
async function signInPage(baseUrl: string): Promise<{ url: string; cookie: string }> {
  const jar = new Map<string, string>();
  let url = `${baseUrl}/login`;
  for (let hop = 0; hop < 5; hop++) {
    const response = await fetch(url, {
      redirect: 'manual',
      headers: { cookie: [...jar].map(([name, value]) => `${name}=${value}`).join('; ') },
    });
    for (const header of response.headers.getSetCookie()) {
      const [pair = ''] = header.split(';');
      const at = pair.indexOf('=');
      jar.set(pair.slice(0, at), pair.slice(at + 1));
    }
    const location = response.headers.get('location');
    if (!location) break;
    url = new URL(location, url).href;
  }
  if (!/\/oidc\/interaction\/[\w-]+$/.test(url)) throw new Error(`/login led to ${url}`);
  return { url, cookie: [...jar].map(([name, value]) => `${name}=${value}`).join('; ') };
}

/** Signs in on the sign-in page as a person does and returns the browser's cookies as a header. */
async function signIn(baseUrl: string): Promise<string> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROME_FLAGS });
  try {
    const page = await browser.newPage();
    await page.goto(`${baseUrl}/login`);
    await page.waitForURL(/\/oidc\/interaction\//);
    await page.getByLabel(/^Email/).fill(DEMO_ACCOUNT.email);
    await page.getByLabel(/^Password/).fill(DEMO_ACCOUNT.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/account\//);
    // All of them: Playwright leaves the Secure (__Host-) cookies out of a plain-http URL's list.
    const cookies = await page.context().cookies();
    return cookies.map((cookie) => `${cookie.name}=${cookie.value}`).join('; ');
  } finally {
    await browser.close();
  }
}

/** One Lighthouse run in a Chromium of its own (a reused one sometimes loses the trace's start). */
async function audit(url: string, extraHeaders: Record<string, string> | undefined) {
  for (let attempt = 1; ; attempt++) {
    const chrome = await startChromium();
    try {
      const result = await lighthouse(url, {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: [...CATEGORIES],
        ...(extraHeaders ? { extraHeaders } : {}),
      });
      if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
      if (!result.lhr.runtimeError || attempt === 3) return result.lhr;
      console.log(`  (${url}: ${result.lhr.runtimeError.code}, run again)`);
    } finally {
      await chrome.stop();
    }
  }
}

const app = await startApp();
const reportDir = mkdtempSync(join(tmpdir(), 'dealerpass-lighthouse-reports-'));
let allMet = true;
try {
  const cookie = targets.some((t) => t.signedIn) ? await signIn(app.url) : '';
  for (const target of targets) {
    const runs: Awaited<ReturnType<typeof audit>>[] = [];
    for (let run = 0; run < RUNS; run++)
      if (target.signIn) {
        const page = await signInPage(app.url);
        runs.push(await audit(page.url, { cookie: page.cookie }));
      } else {
        runs.push(
          await audit(`${app.url}${target.path}`, target.signedIn ? { cookie } : undefined),
        );
      }
    const performanceOf = (run: (typeof runs)[number]) => run.categories.performance?.score ?? 0;
    runs.sort((a, b) => performanceOf(a) - performanceOf(b));
    const lhr = runs[runs.length >> 1]!;
    const spread = runs.map((run) => Math.round(performanceOf(run) * 100)).join(', ');
    const reportFile = join(reportDir, `${target.path.replaceAll('/', '_')}.json`);
    writeFileSync(reportFile, JSON.stringify(lhr));
    const score = (id: (typeof CATEGORIES)[number]) =>
      Math.round((lhr.categories[id]?.score ?? 0) * 100);
    const metric = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
    const fcp = metric('first-contentful-paint');
    const lcp = metric('largest-contentful-paint');
    const tbt = metric('total-blocking-time');
    const cls = metric('cumulative-layout-shift');
    const failures: string[] = [];
    if (score('performance') < target.minPerformance)
      failures.push(`performance < ${target.minPerformance}`);
    if (target.strict) {
      if (cls > 0.02) failures.push('CLS > 0.02');
      for (const id of ['accessibility', 'best-practices', 'seo'] as const)
        if (score(id) < 100) failures.push(`${id} < 100`);
    }
    if (failures.length > 0) allMet = false;
    console.log(
      `${target.path.padEnd(17)} perf ${String(score('performance')).padStart(3)}  a11y ${String(score('accessibility')).padStart(3)}  bp ${String(score('best-practices')).padStart(3)}  seo ${String(score('seo')).padStart(3)}  ` +
        `FCP ${(fcp / 1000).toFixed(2)} s  LCP ${(lcp / 1000).toFixed(2)} s  TBT ${Math.round(tbt)} ms  CLS ${cls.toFixed(3)}  ` +
        `(runs: ${spread})  ` +
        (target.reference
          ? 'reference'
          : failures.length
            ? `FAIL (${failures.join(', ')})`
            : 'PASS'),
    );
    // What Lighthouse holds against the page: every scored audit below full marks.
    for (const id of CATEGORIES) {
      for (const ref of lhr.categories[id]?.auditRefs ?? []) {
        const audit = lhr.audits[ref.id];
        if (!audit || ref.weight === 0 || audit.score === null || audit.score >= 0.9) continue;
        console.log(`    ${id}: ${ref.id} (${audit.displayValue ?? audit.score})`);
      }
    }
  }
  console.log(`reports: ${reportDir}`);
} finally {
  await app.stop();
}
console.log(allMet ? 'all targets met: PASS' : 'targets not met: FAIL');
process.exitCode = allMet ? 0 : 1;

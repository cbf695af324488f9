/**
 * The captcha as a brake (issue 24, docs/decisions/029): how long one proof-of-work solve takes
 * at the configured difficulty (CAPTCHA_DIFFICULTY, or the production default), by three solvers:
 * - two an attacker would script, on one core: Node's native one-shot SHA-256 (`crypto.hash`) and
 *   our synchronous JavaScript SHA-256 without pauses; the faster one is what one solve costs
 *   someone scripting sign-in guesses;
 * - the web app's own solver (apps/web's solveAltcha, the same JavaScript SHA-256, pausing for
 *   the page every few thousand digests), the work a visitor's browser does, here on this
 *   machine's Node.
 * Each solves the same challenges from the server's own issuer (altcha-lib); the secret number is
 * uniform in [0, difficulty], so a solve hashes half the range on average. Prints the median and
 * the hash rate of each. Then, when Chromium is there (BENCH_CHROMIUM, default /usr/bin/chromium),
 * the web app's solver in the browser, as is and with the CPU slowed four times (Lighthouse's
 * mobile profile, our stand-in for a mid-range phone). Options: CAPTCHA_DIFFICULTY,
 * BENCH_CAPTCHA_SOLVES (default 21).
 */
import { hash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { stripTypeScriptTypes } from 'node:module';
import { chromium } from '@playwright/test';
import { createChallenge } from 'altcha-lib/v1';
import { loadConfig } from '../apps/server/src/config.ts';
import { sha256Words } from '../apps/web/src/components/ui/captcha/sha256.ts';
import { solveAltcha } from '../apps/web/src/components/ui/captcha/solve-altcha.ts';

const config = loadConfig({
  APP_ENV: 'development',
  CAPTCHA_DIFFICULTY: process.env.CAPTCHA_DIFFICULTY,
});
if (config.captcha.kind !== 'altcha') throw new Error('the bench measures the ALTCHA captcha');
const difficulty = config.captcha.difficulty;
const SOLVES = Number(process.env.BENCH_CAPTCHA_SOLVES ?? 21);

interface IChallenge {
  algorithm: string;
  challenge: string;
  salt: string;
  signature: string;
  maxnumber?: number;
}

/** An attacker's solver: one synchronous native digest per candidate number. */
function solveNatively(challenge: IChallenge): number {
  const max = challenge.maxnumber ?? difficulty;
  for (let n = 0; n <= max; n++) {
    if (hash('sha256', `${challenge.salt}${n}`) === challenge.challenge) return n;
  }
  throw new Error('no solution in range');
}

/** An attacker's other solver: the web app's digest in a loop that never pauses. */
function solveInJavaScript(challenge: IChallenge): number {
  const max = challenge.maxnumber ?? difficulty;
  const target = Int32Array.from({ length: 8 }, (_, i) =>
    Number.parseInt(challenge.challenge.slice(i * 8, i * 8 + 8), 16),
  );
  const prefix = new TextEncoder().encode(challenge.salt);
  const message = new Uint8Array(prefix.length + 16);
  message.set(prefix);
  const digest = new Int32Array(8);
  for (let n = 0; n <= max; n++) {
    const digits = String(n);
    for (let i = 0; i < digits.length; i++) message[prefix.length + i] = digits.charCodeAt(i);
    sha256Words(message, prefix.length + digits.length, digest);
    if (digest.every((word, i) => word === target[i])) return n;
  }
  throw new Error('no solution in range');
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

async function measure(
  name: string,
  solve: (challenge: IChallenge) => Promise<number>,
  challenges: IChallenge[],
): Promise<{ medianMs: number; hashesPerSecond: number }> {
  await solve(challenges[0]!); // warm-up
  const times: number[] = [];
  let hashes = 0;
  let total = 0;
  for (const challenge of challenges) {
    const start = performance.now();
    const found = await solve(challenge);
    const elapsed = performance.now() - start;
    times.push(elapsed);
    hashes += found + 1;
    total += elapsed;
  }
  const result = { medianMs: median(times), hashesPerSecond: (hashes / total) * 1000 };
  console.log(
    `${name}: median ${result.medianMs.toFixed(0)} ms per solve ` +
      `(min ${Math.min(...times).toFixed(0)}, max ${Math.max(...times).toFixed(0)}), ` +
      `${Math.round(result.hashesPerSecond).toLocaleString('en-US')} hashes/s`,
  );
  return result;
}

const challenges: IChallenge[] = [];
for (let i = 0; i < SOLVES + 1; i++) {
  challenges.push(
    await createChallenge({ hmacKey: 'bench', maxNumber: difficulty, expires: undefined }),
  );
}
console.log(
  `CAPTCHA_DIFFICULTY ${difficulty.toLocaleString('en-US')}: ${SOLVES} solves each, one core`,
);
const native = await measure(
  'attacker, native crypto.hash',
  async (c) => solveNatively(c),
  challenges,
);
const script = await measure(
  'attacker, JavaScript SHA-256 without pauses',
  async (c) => solveInJavaScript(c),
  challenges,
);
const attacker = native.medianMs < script.medianMs ? native : script;
await measure(
  'web app solver (solveAltcha)',
  async (c) => {
    const payload = await solveAltcha(c);
    if (!payload) throw new Error('no solution in range');
    return (JSON.parse(atob(payload)) as { number: number }).number;
  },
  challenges,
);
console.log(
  `one solve costs an attacker ${(attacker.medianMs / 1000).toFixed(2)} s (median) on this machine`,
);

/**
 * The solver's two files as one classic script for a page: types stripped by Node, the module
 * syntax taken off (sha256.ts first, since solve-altcha.ts calls it).
 */
function solverScript(): string {
  const source = (file: string) =>
    stripTypeScriptTypes(
      readFileSync(
        new URL(`../apps/web/src/components/ui/captcha/${file}`, import.meta.url),
        'utf8',
      ),
    )
      .replace(/^import .*$/gm, '')
      .replace(/^export /gm, '');
  return `${source('sha256.ts')}\n${source('solve-altcha.ts')}\nwindow.solveAltcha = solveAltcha;`;
}

const browserPath = process.env.BENCH_CHROMIUM ?? '/usr/bin/chromium';
if (existsSync(browserPath)) {
  const browser = await chromium.launch({ executablePath: browserPath });
  try {
    for (const slowdown of [1, 4]) {
      const page = await browser.newPage();
      if (slowdown > 1) {
        const cdp = await page.context().newCDPSession(page);
        await cdp.send('Emulation.setCPUThrottlingRate', { rate: slowdown });
      }
      await page.addScriptTag({ content: solverScript() });
      const times = await page.evaluate(async (all) => {
        const solve = (globalThis as unknown as { solveAltcha: (c: unknown) => Promise<string> })
          .solveAltcha;
        await solve(all[0]); // warm-up
        const elapsed: number[] = [];
        for (const challenge of all.slice(1)) {
          const start = performance.now();
          if (!(await solve(challenge))) throw new Error('no solution in range');
          elapsed.push(performance.now() - start);
        }
        return elapsed;
      }, challenges);
      console.log(
        `web app solver in Chromium${slowdown > 1 ? `, CPU ${slowdown}x slower (a phone)` : ''}: ` +
          `median ${median(times).toFixed(0)} ms per solve (min ${Math.min(...times).toFixed(0)}, ` +
          `max ${Math.max(...times).toFixed(0)})`,
      );
      await page.close();
    }
  } finally {
    await browser.close();
  }
} else {
  console.log(`no Chromium at ${browserPath}: the browser measurements were not run`);
}

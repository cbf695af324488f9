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
 * the hash rate of each. Options: CAPTCHA_DIFFICULTY, BENCH_CAPTCHA_SOLVES (default 21).
 */
import { hash } from 'node:crypto';
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

/**
 * SHA-256 (FIPS 180-4) for the captcha's proof of work, synchronous and allocation-free per call.
 * WebCrypto's digest is a promise per hash: its overhead, not the hashing, set the pace, about
 * 20,000 hashes a second, so a cost that brakes a script made a phone wait far too long
 * (docs/decisions/029). This runs several times faster; the result is compared word by word.
 */

function firstPrimes(count: number): number[] {
  const primes: number[] = [];
  for (let n = 2; primes.length < count; n++) {
    if (primes.every((p) => n % p !== 0)) primes.push(n);
  }
  return primes;
}

/** The first 32 bits of the fractional part of x. */
const fraction32 = (x: number) => Math.floor((x - Math.floor(x)) * 2 ** 32);

// The standard's constants, derived as it defines them (cube and square roots of the primes).
// Signed 32-bit words throughout: V8 keeps them small integers, where unsigned ones above 2^31
// would become heap numbers.
const K = Int32Array.from(firstPrimes(64), (p) => fraction32(Math.cbrt(p)) | 0);
const H0 = Int32Array.from(firstPrimes(8), (p) => fraction32(Math.sqrt(p)) | 0);

const W = new Int32Array(64);
let block = new Uint8Array(128);

/**
 * Writes the SHA-256 of `bytes[0..length)` into `out` as eight big-endian 32-bit words (signed:
 * compare them with words read the same way). `bytes` is left untouched.
 */
export function sha256Words(bytes: Uint8Array, length: number, out: Int32Array): void {
  const padded = Math.ceil((length + 9) / 64) * 64;
  if (block.length < padded) block = new Uint8Array(padded);
  for (let i = 0; i < length; i++) block[i] = bytes[i]!;
  block[length] = 0x80;
  for (let i = length + 1; i < padded; i++) block[i] = 0;
  const bits = length * 8;
  block[padded - 4] = bits >>> 24;
  block[padded - 3] = (bits >>> 16) & 0xff;
  block[padded - 2] = (bits >>> 8) & 0xff;
  block[padded - 1] = bits & 0xff;
  block[padded - 5] = Math.floor(bits / 2 ** 32) & 0xff;

  let h0 = H0[0]!;
  let h1 = H0[1]!;
  let h2 = H0[2]!;
  let h3 = H0[3]!;
  let h4 = H0[4]!;
  let h5 = H0[5]!;
  let h6 = H0[6]!;
  let h7 = H0[7]!;
  for (let offset = 0; offset < padded; offset += 64) {
    for (let t = 0; t < 16; t++) {
      const i = offset + t * 4;
      W[t] = (block[i]! << 24) | (block[i + 1]! << 16) | (block[i + 2]! << 8) | block[i + 3]!;
    }
    for (let t = 16; t < 64; t++) {
      const w15 = W[t - 15]!;
      const w2 = W[t - 2]!;
      const s0 = ((w15 >>> 7) | (w15 << 25)) ^ ((w15 >>> 18) | (w15 << 14)) ^ (w15 >>> 3);
      const s1 = ((w2 >>> 17) | (w2 << 15)) ^ ((w2 >>> 19) | (w2 << 13)) ^ (w2 >>> 10);
      W[t] = (W[t - 16]! + s0 + W[t - 7]! + s1) | 0;
    }
    let a = h0;
    let b = h1;
    let c = h2;
    let d = h3;
    let e = h4;
    let f = h5;
    let g = h6;
    let h = h7;
    for (let t = 0; t < 64; t++) {
      const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
      const ch = (e & f) ^ (~e & g);
      const t1 = (h + S1 + ch + K[t]! + W[t]!) | 0;
      const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
      const maj = (a & b) ^ (a & c) ^ (b & c);
      const t2 = (S0 + maj) | 0;
      h = g;
      g = f;
      f = e;
      e = (d + t1) | 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) | 0;
    }
    h0 = (h0 + a) | 0;
    h1 = (h1 + b) | 0;
    h2 = (h2 + c) | 0;
    h3 = (h3 + d) | 0;
    h4 = (h4 + e) | 0;
    h5 = (h5 + f) | 0;
    h6 = (h6 + g) | 0;
    h7 = (h7 + h) | 0;
  }
  out[0] = h0;
  out[1] = h1;
  out[2] = h2;
  out[3] = h3;
  out[4] = h4;
  out[5] = h5;
  out[6] = h6;
  out[7] = h7;
}

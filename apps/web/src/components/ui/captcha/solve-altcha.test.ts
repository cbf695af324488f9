import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { altchaExpiryDelay, solveAltcha, type AltchaChallenge } from './solve-altcha.ts';

const challenge = (expiresInSeconds?: number): AltchaChallenge => ({
  algorithm: 'SHA-256',
  challenge: 'c',
  salt: 's?expires=1',
  signature: 'x',
  ...(expiresInSeconds === undefined ? {} : { expiresInSeconds }),
});

describe('altchaExpiryDelay', () => {
  it('counts the lifetime from when the challenge arrived, less the time spent and the margin', () => {
    expect(altchaExpiryDelay(challenge(600), 1_000, 4_000, 5_000)).toBe(600_000 - 3_000 - 5_000);
  });

  it('never asks for a delay setTimeout cannot honour', () => {
    expect(altchaExpiryDelay(challenge(40 * 24 * 3600), 0, 0, 0)).toBe(2 ** 31 - 1);
    expect(altchaExpiryDelay(challenge(1), 0, 60_000, 5_000)).toBe(0);
  });

  it('has no expiry for a challenge without a lifetime', () => {
    expect(altchaExpiryDelay(challenge(), 0, 0, 5_000)).toBeNull();
  });
});

describe('solveAltcha', () => {
  const challengeFor = (salt: string, secret: number, maxnumber: number): AltchaChallenge => ({
    algorithm: 'SHA-256',
    challenge: createHash('sha256').update(`${salt}${secret}`).digest('hex'),
    maxnumber,
    salt,
    signature: 'signed-by-the-server',
  });

  it('finds the number the server hid and returns the payload it verifies', async () => {
    const challenge = challengeFor('5f3a9c?expires=1795729367', 12_345, 20_000);
    const payload = await solveAltcha(challenge);
    expect(JSON.parse(atob(payload!))).toEqual({
      algorithm: 'SHA-256',
      challenge: challenge.challenge,
      number: 12_345,
      salt: challenge.salt,
      signature: 'signed-by-the-server',
    });
  });

  it('answers null when the number is outside the range, or the digest is not one', async () => {
    expect(await solveAltcha(challengeFor('s', 500, 100))).toBeNull();
    expect(await solveAltcha({ ...challengeFor('s', 5, 100), challenge: 'c' })).toBeNull();
  });

  it('stops when its page is left', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(
      solveAltcha(challengeFor('s', 90_000, 100_000), controller.signal),
    ).rejects.toThrow();
  });
});

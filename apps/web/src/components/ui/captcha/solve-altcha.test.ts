import { describe, expect, it } from 'vitest';
import { altchaExpiryDelay, type AltchaChallenge } from './solve-altcha.ts';

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

import { describe, expect, it } from 'vitest';
import { signInUrl } from './sign-in-url.ts';

describe('signInUrl (DECISIONS R6: the verification link signs in at forwardTo)', () => {
  it('uses our /login with the hint by default', () => {
    expect(signInUrl('pat@example.com')).toBe('/login?hint=pat%40example.com');
  });

  it('keeps a forwardTo that is one of our sign-in paths, adding the hint', () => {
    expect(signInUrl('pat@example.com', '/login?returnTo=%2Faccount')).toBe(
      '/login?returnTo=%2Faccount&hint=pat%40example.com',
    );
    expect(signInUrl('pat@example.com', '/app/login')).toBe('/app/login?hint=pat%40example.com');
  });

  it.each(['https://evil.example/login', '//evil.example/login', '/\\evil', '/account', 'login'])(
    'ignores %s',
    (forwardTo) => {
      expect(signInUrl('pat@example.com', forwardTo)).toBe('/login?hint=pat%40example.com');
    },
  );
});

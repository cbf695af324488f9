import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sameOriginPath } from './same-origin-path.ts';

const ORIGIN = 'https://dealerpass.example';

declare const URL: new (url: string, base?: string) => { origin: string };

/** Where a browser goes from our origin when a Location header says `path`. */
function browserTarget(path: string): { origin: string } {
  return new URL(path, ORIGIN);
}

describe('sameOriginPath', () => {
  it.each([
    ['/account/billing?year=2026#top', '/account/billing?year=2026#top'],
    ['/account', '/account'],
    ['/a/../b', '/b'],
  ])('keeps our own path %s', (value, expected) => {
    expect(sameOriginPath(value)).toBe(expected);
  });

  it.each([
    '//evil.example/phish',
    '/\\evil.example',
    '/\t/evil.example/phish',
    '/%09/evil.example', // stays a path: %09 is not decoded by the URL parser
    '/\n/evil.example',
    '/\r\n/x',
    '/\u000b/x',
    '/\u00e9',
    '/ /x',
    'https://evil.example/',
    'javascript:alert(1)',
    'account',
    '/.//evil.example',
    '/..//evil.example',
    '',
  ])('refuses %j, or reduces it to a path that stays here', (value) => {
    const path = sameOriginPath(value);
    if (path !== null) expect(browserTarget(path).origin).toBe(ORIGIN);
    if (value.includes('evil') && !value.includes('%')) expect(path).toBeNull();
  });

  it('takes an absolute address of our own origin and no other', () => {
    expect(sameOriginPath(`${ORIGIN}/login?x=1`, ORIGIN)).toBe('/login?x=1');
    expect(sameOriginPath('https://evil.example/login', ORIGIN)).toBeNull();
    expect(sameOriginPath('https://dealerpass.example.evil.example/', ORIGIN)).toBeNull();
  });

  it('whatever the string, the answer is null or a printable path a browser keeps on our origin', () => {
    const tricky = fc.constantFrom('/', '\\', '\t', '\n', '\r', '.', '%', ':', '@', '?', '#', ' ');
    const input = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 40 }),
      fc
        .array(fc.oneof(tricky, fc.string({ maxLength: 3 })), { maxLength: 12 })
        .map((parts) => parts.join('')),
      fc.webUrl().map((url) => url),
    );
    fc.assert(
      fc.property(input, fc.boolean(), (value, withOrigin) => {
        const path = sameOriginPath(value, withOrigin ? ORIGIN : undefined);
        if (path === null) return;
        expect(path).toMatch(/^\/[\x21-\x7e]*$/);
        expect(path.startsWith('//')).toBe(false);
        expect(browserTarget(path).origin).toBe(ORIGIN);
      }),
      { numRuns: 2000 },
    );
  });
});

import { beforeEach, describe, expect, it } from 'vitest';
import { CONSENT_KEY, hasConsent, saveConsent } from './consent-store.ts';

describe('cookie consent store', () => {
  beforeEach(() => localStorage.clear());

  it('grants nothing non-essential before the visitor decides', () => {
    expect(hasConsent('functional')).toBe(false);
    expect(hasConsent('analytics')).toBe(false);
  });

  it('keeps the choice in local storage', () => {
    saveConsent({ functional: true, analytics: false });
    expect(hasConsent('functional')).toBe(true);
    expect(hasConsent('analytics')).toBe(false);
    expect(JSON.parse(localStorage.getItem(CONSENT_KEY)!)).toMatchObject({
      functional: true,
      analytics: false,
    });
  });

  it('ignores a stored value it cannot read', () => {
    localStorage.setItem(CONSENT_KEY, '{"functional":"yes"}');
    expect(hasConsent('functional')).toBe(false);
    localStorage.setItem(CONSENT_KEY, 'not json');
    expect(hasConsent('functional')).toBe(false);
  });
});

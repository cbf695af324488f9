import { describe, expect, it } from 'vitest';
import { earlyRequestsFor } from './early-requests.ts';

describe('earlyRequestsFor (docs/decisions/027)', () => {
  it("names the account area's current user on every account path, in any case", () => {
    for (const path of ['/account', '/account/', '/account/billing', '/Account/Profile']) {
      expect(earlyRequestsFor(path), path).toEqual(['/api/users/current']);
    }
  });

  it("names the sign-in page's interaction details, spelled as the page spells them", () => {
    expect(earlyRequestsFor('/oidc/interaction/abc_DEF-123')).toEqual([
      '/oidc/interaction/abc_DEF-123/details',
    ]);
    expect(earlyRequestsFor('/oidc/interaction/a%20b/')).toEqual([
      '/oidc/interaction/a%20b/details',
    ]);
  });

  it('names nothing elsewhere or for a malformed path', () => {
    for (const path of [
      '/home',
      '/accounts',
      '/signup',
      '/oidc/interaction',
      '/oidc/interaction/%E0%A4%A',
    ]) {
      expect(earlyRequestsFor(path), path).toEqual([]);
    }
  });
});

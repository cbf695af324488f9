import { describe, expect, it } from 'vitest';
import { earlyRequestsFor } from './early-requests.ts';

describe('earlyRequestsFor (docs/decisions/027)', () => {
  it("names the account area's current user on every account path, in any case", () => {
    for (const path of ['/account', '/account/', '/account/billing', '/Account/Profile']) {
      expect(earlyRequestsFor(path), path).toEqual(['/api/users/current']);
    }
  });

  it('names nothing elsewhere', () => {
    for (const path of ['/home', '/accounts', '/signup', '/oidc/interaction/abc']) {
      expect(earlyRequestsFor(path), path).toEqual([]);
    }
  });
});

import { randomUUID } from 'node:crypto';

/**
 * A complete sign-up request (001 §3) from Pat Dealer, with the given fields replaced; a request
 * key of its own (`POST /api/v2/signup` requires one, docs/decisions/045).
 */
export function signupBody(email: string, overrides: Record<string, unknown> = {}) {
  return {
    firstName: 'Pat',
    lastName: 'Dealer',
    email,
    phone: '313-555-0142',
    phoneCountryCode: 'US',
    dealership: 'Pat Motors',
    deviceType: 'iPhone',
    terms: true,
    subscriptions: ['NADA', 'MMR', 'CF', 'AC'],
    auctionAccessId: '100482913',
    dealershipAuctionAccessId: '5104827',
    address1: '400 Woodward Ave',
    address2: '',
    country: 'US',
    state: 'MI',
    city: 'Detroit',
    zip: '48226',
    promoCode: '',
    referrer: '',
    sameAddresses: true,
    forwardTo: 'http://localhost:3000/login?returnTo=%2Faccount',
    requestKey: randomUUID(),
    ...overrides,
  };
}

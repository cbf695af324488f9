import type { TSubscriptionCode } from '@dealerpass/domain/catalogue';
import type { TDemoAccountKey } from './demo-accounts.ts';

/** Who each demo account is: the person, the dealership, its card and its history. */
export interface DemoProfile {
  firstName: string;
  lastName: string;
  dealership: string;
  phone: string;
  altPhone?: string;
  altEmail?: string;
  auctionAccessId: string;
  dealershipAuctionAccessId: string;
  address1: string;
  address2?: string;
  city: string;
  state: string;
  zip: string;
  subscriptions: TSubscriptionCode[];
  /**
   * A sandbox test card (sandboxes/payments/test-cards.ts), tokenized and stored at the
   * sandbox gateway as a real customer and payment profile; our rows keep only its brand and last
   * four (DECISIONS R5). The expiry is this many years ahead, in this month.
   */
  card?: { number: string; month: number; yearsAhead: number };
  /** Months since the cycle anchor (sign-up or reactivation) to the current period's end. */
  monthsSubscribed: number;
  /** Days from today (business time zone) to the next bill date; null for none. */
  nextBillInDays: number | null;
  preferences?: Record<string, unknown>;
}

export const DEMO_PROFILES: Record<TDemoAccountKey, DemoProfile> = {
  active: {
    firstName: 'Morgan',
    lastName: 'Reyes',
    dealership: 'Reyes Auto Group',
    phone: '3135550142',
    altPhone: '3135550143',
    altEmail: 'morgan.reyes@example.com',
    auctionAccessId: '100482913',
    dealershipAuctionAccessId: '5104827',
    address1: '400 Woodward Ave',
    address2: 'Suite 210',
    city: 'Detroit',
    state: 'MI',
    zip: '48226',
    subscriptions: ['NADA', 'MMR', 'CF', 'AC'],
    card: { number: '4111111111111111', month: 9, yearsAhead: 2 },
    monthsSubscribed: 14,
    nextBillInDays: 12,
    preferences: { defaultSubscription: 'NADA', searchZip: '48226' },
  },
  pendingCancel: {
    firstName: 'Priya',
    lastName: 'Shah',
    dealership: 'Lakeshore Pre-Owned',
    phone: '3125550187',
    auctionAccessId: '103395027',
    dealershipAuctionAccessId: '5238810',
    address1: '2150 N Clybourn Ave',
    city: 'Chicago',
    state: 'IL',
    zip: '60614',
    subscriptions: ['KBB', 'ANET', 'CF', 'AC'],
    card: { number: '5555555555554444', month: 3, yearsAhead: 1 },
    monthsSubscribed: 7,
    nextBillInDays: 9,
  },
  inactive: {
    firstName: 'Daniel',
    lastName: 'Okafor',
    dealership: 'Peachtree Motor Co.',
    phone: '4045550163',
    auctionAccessId: '107720481',
    dealershipAuctionAccessId: '6017342',
    address1: '1180 Peachtree St NE',
    city: 'Atlanta',
    state: 'GA',
    zip: '30309',
    subscriptions: ['BBK', 'MMR'],
    card: { number: '378282246310005', month: 11, yearsAhead: 1 },
    monthsSubscribed: 5,
    nextBillInDays: null,
  },
  validatingPayment: {
    firstName: 'Hannah',
    lastName: 'Kowalski',
    dealership: 'Front Range Autos',
    phone: '7205550119',
    auctionAccessId: '109914236',
    dealershipAuctionAccessId: '5561908',
    address1: '4800 E Colfax Ave',
    city: 'Denver',
    state: 'CO',
    zip: '80220',
    subscriptions: ['NADA', 'RETAIL'],
    card: { number: '4000000000000002', month: 6, yearsAhead: 2 }, // declines
    monthsSubscribed: 9,
    // The renewal failed two days ago and its retry a day later; the next retry is tomorrow
    // (R4: 1, 3 and 5 days after the first failure). The next bill date shown is that retry.
    nextBillInDays: 1,
  },
  blocked: {
    firstName: 'Marcus',
    lastName: 'Bell',
    dealership: 'Gulf Coast Auto Exchange',
    phone: '7135550134',
    auctionAccessId: '104458102',
    dealershipAuctionAccessId: '6120457',
    address1: '7700 Westheimer Rd',
    city: 'Houston',
    state: 'TX',
    zip: '77063',
    subscriptions: ['GALVES', 'MMR', 'CF', 'AC'],
    card: { number: '4242424242424242', month: 1, yearsAhead: 2 },
    monthsSubscribed: 11,
    nextBillInDays: 20,
  },
  complimentary: {
    firstName: 'Elena',
    lastName: 'Vasquez',
    dealership: 'Sunbelt Motors',
    phone: '6025550178',
    auctionAccessId: '105561377',
    dealershipAuctionAccessId: '5897214',
    address1: '3300 E Camelback Rd',
    city: 'Phoenix',
    state: 'AZ',
    zip: '85018',
    subscriptions: ['APG', 'NADA', 'MMR', 'CF', 'AC'],
    monthsSubscribed: 3,
    nextBillInDays: 15,
  },
  migrated: {
    firstName: 'Tom',
    lastName: 'Whitaker',
    dealership: 'Whitaker Family Auto',
    phone: '6155550126',
    auctionAccessId: '102287654',
    dealershipAuctionAccessId: '5340021',
    address1: '215 Broadway',
    city: 'Nashville',
    state: 'TN',
    zip: '37201',
    subscriptions: ['KBB', 'MMR', 'CF', 'AC'],
    card: { number: '6011111111111117', month: 7, yearsAhead: 1 },
    monthsSubscribed: 38,
    nextBillInDays: 5,
  },
};

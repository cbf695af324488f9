import { describe, expect, it } from 'vitest';
import {
  mayTakeAction,
  roleAllows,
  STAFF_ACTIONS,
  STAFF_ROLES,
  type TStaffAction,
} from './roles.ts';
import { ZTotpCodeRequestSchema } from './totp.ts';

describe('staff roles (R12)', () => {
  it.each([
    ['support', 'support', true],
    ['support', 'billing', false],
    ['support', 'admin', false],
    ['billing', 'support', true],
    ['billing', 'billing', true],
    ['billing', 'admin', false],
    ['admin', 'support', true],
    ['admin', 'billing', true],
    ['admin', 'admin', true],
  ] as const)('%s may do what needs %s: %s', (role, required, allowed) => {
    expect(roleAllows(role, required)).toBe(allowed);
  });

  it('gives each action to its role and every role above it, never below', () => {
    for (const action of Object.keys(STAFF_ACTIONS) as TStaffAction[]) {
      const least = STAFF_ACTIONS[action];
      const index = STAFF_ROLES.indexOf(least);
      STAFF_ROLES.forEach((role, i) => expect(mayTakeAction(role, action)).toBe(i >= index));
    }
  });

  it('keeps refunds and chargebacks from support and prices from billing', () => {
    expect(mayTakeAction('support', 'refund')).toBe(false);
    expect(mayTakeAction('support', 'chargeback')).toBe(false);
    expect(mayTakeAction('billing', 'schedulePrice')).toBe(false);
    expect(mayTakeAction('support', 'block')).toBe(true);
  });
});

describe('TOTP code request', () => {
  it('accepts six digits, with spaces', () => {
    expect(ZTotpCodeRequestSchema.parse({ code: '123 456' })).toEqual({ code: '123456' });
  });
  it.each(['12345', '1234567', 'abcdef', ''])('refuses %j', (code) => {
    expect(ZTotpCodeRequestSchema.safeParse({ code }).success).toBe(false);
  });
});

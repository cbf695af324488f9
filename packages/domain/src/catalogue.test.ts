import { describe, expect, it } from 'vitest';
import {
  ALL_SUBSCRIPTION_CODES,
  CATALOGUE,
  FOOTNOTES,
  SELECTABLE_CODES,
  baseOf,
  groupOf,
  heldLabel,
  isExtraCode,
  isHeld,
  isPaidCode,
  isSelectableCode,
  isSubscriptionCode,
  nameOf,
} from './catalogue.ts';

describe('catalogue (000 §3, 001 §3)', () => {
  it.each([
    ['APG', 'Pricing Guides'],
    ['NADA', 'Pricing Guides'],
    ['GALVES', 'Pricing Guides'],
    ['BBK', 'Pricing Guides'],
    ['KBB', 'Pricing Guides'],
    ['ANET', 'Market Reports'],
    ['MMR', 'Market Reports'],
    ['RETAIL', 'Market Reports'],
    ['WHLSLE', 'Market Reports'],
    ['PMR', 'Market Reports'],
    ['CF', 'Extras'],
    ['AC', 'Extras'],
    ['CF_S', 'Extras'],
    ['KBB_S', 'Pricing Guides'],
  ] as const)('%s is in %s', (code, group) => {
    expect(groupOf(code)).toBe(group);
  });

  it('lists 12 bases and 24 codes in display order', () => {
    expect(CATALOGUE.map((item) => item.code)).toEqual([
      'APG',
      'NADA',
      'GALVES',
      'BBK',
      'KBB',
      'ANET',
      'MMR',
      'RETAIL',
      'WHLSLE',
      'PMR',
      'CF',
      'AC',
    ]);
    expect(ALL_SUBSCRIPTION_CODES).toHaveLength(24);
  });

  it('GALVES_S is never selectable (R3)', () => {
    expect(SELECTABLE_CODES).not.toContain('GALVES_S');
    expect(SELECTABLE_CODES).toHaveLength(23);
    expect(isSelectableCode('GALVES_S')).toBe(false);
    expect(isSubscriptionCode('GALVES_S')).toBe(true);
    expect(CATALOGUE.find((item) => item.code === 'GALVES')?.simulcastAvailable).toBe(false);
    expect(CATALOGUE.find((item) => item.code === 'NADA')?.simulcastAvailable).toBe(true);
  });

  it('footnotes: BBK, CF and AC (000 §3)', () => {
    const footnoted = CATALOGUE.filter((item) => item.footnote).map((item) => [
      item.code,
      item.footnote,
    ]);
    expect(footnoted).toEqual([
      ['BBK', 'blackBook'],
      ['CF', 'integrations'],
      ['AC', 'integrations'],
    ]);
    expect(FOOTNOTES.blackBook.text).toMatch(/Black Book/);
  });

  it('simulcast codes are the code plus _S', () => {
    expect(baseOf('NADA_S')).toBe('NADA');
    expect(baseOf('NADA')).toBe('NADA');
    expect(nameOf('BBK_S')).toBe('Black Book Simulcast');
    expect(nameOf('KBB')).toBe('Kelley Blue Book');
  });

  it('paid and extra', () => {
    expect(isPaidCode('MMR_S')).toBe(true);
    expect(isPaidCode('AC')).toBe(false);
    expect(isExtraCode('AC_S')).toBe(true);
  });

  it.each([
    ['NOPE', false],
    [42, false],
    ['CF', true],
  ])('isSubscriptionCode(%s) = %s', (value, ok) => {
    expect(isSubscriptionCode(value)).toBe(ok);
  });

  // 000 §3: the retail item displays Yes for RETAIL or RETAIL_S.
  it.each([
    [['RETAIL'], 'RETAIL', 'Yes'],
    [['RETAIL_S'], 'RETAIL', 'Yes'],
    [['WHLSLE'], 'RETAIL', 'No'],
    [['NADA_S'], 'NADA', 'No'],
    [['NADA'], 'NADA', 'Yes'],
  ] as const)('%j holds %s: %s', (subs, base, label) => {
    expect(heldLabel(subs, base)).toBe(label);
    expect(isHeld(subs, base)).toBe(label === 'Yes');
  });
});

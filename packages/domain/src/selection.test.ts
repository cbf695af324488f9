import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ALL_SUBSCRIPTION_CODES, baseOf, isExtraCode, isSimulcastCode } from './catalogue.ts';
import type { TSubscriptionCode } from './catalogue.ts';
import { countPaid } from './prices.ts';
import {
  ALL_EXTRA_CODES,
  EMPTY_SELECTION,
  canSelect,
  deselectCode,
  sanitizeCodes,
  selectCode,
  selectionFromCodes,
  selectionProblem,
  splitSelection,
  toggleCode,
} from './selection.ts';
import type { ISelection } from './selection.ts';

function apply(...steps: ['+' | '-', TSubscriptionCode][]): ISelection {
  return steps.reduce(
    (s, [op, code]) => (op === '+' ? selectCode(s, code) : deselectCode(s, code)),
    EMPTY_SELECTION,
  );
}

describe('selection transitions (DECISIONS R3, 000 §9, 001 §4)', () => {
  it('a simulcast needs its base', () => {
    expect(selectCode(EMPTY_SELECTION, 'NADA_S')).toBe(EMPTY_SELECTION);
    expect(apply(['+', 'NADA'], ['+', 'NADA_S']).codes.slice(0, 2)).toEqual(['NADA', 'NADA_S']);
    expect(canSelect(EMPTY_SELECTION, 'NADA_S')).toBe(false);
    expect(canSelect(EMPTY_SELECTION, 'NADA')).toBe(true);
  });

  it('GALVES_S is never selectable', () => {
    const s = apply(['+', 'GALVES'], ['+', 'GALVES_S']);
    expect(s.codes).toEqual(['GALVES']);
    expect(canSelect(s, 'GALVES_S')).toBe(false);
  });

  it('deselecting a base removes its simulcast', () => {
    expect(apply(['+', 'KBB'], ['+', 'KBB_S'], ['-', 'KBB']).codes).toEqual([]);
  });

  it('two paid items (base + simulcast) select every extra automatically', () => {
    const s = apply(['+', 'NADA'], ['+', 'NADA_S']);
    expect(s.codes).toEqual(['NADA', 'NADA_S', 'CF', 'CF_S', 'AC', 'AC_S']);
    expect(s.autoExtras).toEqual(['CF', 'CF_S', 'AC', 'AC_S']);
  });

  it('dropping below two removes automatic extras, keeps hand-picked ones', () => {
    const s = apply(['+', 'CF'], ['+', 'NADA'], ['+', 'MMR'], ['-', 'MMR']);
    expect(s.codes).toEqual(['NADA', 'CF']);
    expect(s.autoExtras).toEqual([]);
  });

  it('an extra deselected by hand stays off while the count stays at two or more', () => {
    const s = apply(['+', 'NADA'], ['+', 'MMR'], ['-', 'AC'], ['+', 'KBB']);
    expect(s.codes).toEqual(['NADA', 'KBB', 'MMR', 'CF', 'CF_S']);
  });

  it('re-selecting an automatic extra by hand keeps it after the drop', () => {
    const s = apply(['+', 'NADA'], ['+', 'MMR'], ['-', 'CF_S'], ['+', 'CF_S'], ['-', 'MMR']);
    // CF_S was hand-picked but its base CF was automatic: the simulcast goes with its base.
    expect(s.codes).toEqual(['NADA']);
  });

  it('toggle, and no-ops', () => {
    const s = toggleCode(EMPTY_SELECTION, 'APG');
    expect(s.codes).toEqual(['APG']);
    expect(toggleCode(s, 'APG').codes).toEqual([]);
    expect(selectCode(s, 'APG')).toBe(s);
    expect(deselectCode(s, 'KBB')).toBe(s);
  });

  it('sanitizes stored codes', () => {
    expect(sanitizeCodes(['CF_S', 'GALVES_S', 'X', 'BBK', 'BBK_S', 'BBK'])).toEqual([
      'BBK',
      'BBK_S',
    ]);
    expect(selectionFromCodes(['AC'])).toEqual({ codes: ['AC'], autoExtras: [] });
  });

  it.each([
    [['NADA', 'NADA'], 'duplicate'],
    [['XYZ'], 'unknownCode'],
    [['GALVES', 'GALVES_S'], 'unavailable'],
    [['CF_S'], 'simulcastWithoutBase'],
    [['CF', 'CF_S', 'MMR'], null],
    [[], null],
  ])('selectionProblem(%j) = %s', (codes, problem) => {
    expect(selectionProblem(codes)).toBe(problem);
  });

  it('splits a selection', () => {
    expect(splitSelection(['NADA', 'NADA_S', 'CF'])).toEqual({
      paid: ['NADA'],
      extras: ['CF'],
      simulcasts: ['NADA_S'],
    });
  });

  const step = fc.tuple(fc.boolean(), fc.constantFrom(...ALL_SUBSCRIPTION_CODES));

  it('property: no reachable selection holds a simulcast without its base, or GALVES_S', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 40 }), (steps) => {
        let s = EMPTY_SELECTION;
        for (const [add, code] of steps) {
          s = add ? selectCode(s, code) : deselectCode(s, code);
          expect(s.codes).not.toContain('GALVES_S');
          for (const code2 of s.codes) {
            if (isSimulcastCode(code2)) expect(s.codes).toContain(baseOf(code2));
          }
          expect(selectionProblem(s.codes)).toBeNull();
          for (const auto of s.autoExtras) {
            expect(s.codes).toContain(auto);
            expect(isExtraCode(auto)).toBe(true);
          }
          if (countPaid(s.codes) < 2) expect(s.autoExtras).toEqual([]);
        }
      }),
    );
  });

  it('property: crossing to two paid items selects every extra', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 30 }), (steps) => {
        let s = EMPTY_SELECTION;
        for (const [add, code] of steps) {
          const before = countPaid(s.codes);
          s = add ? selectCode(s, code) : deselectCode(s, code);
          if (before < 2 && countPaid(s.codes) >= 2) {
            for (const extra of ALL_EXTRA_CODES) expect(s.codes).toContain(extra);
          }
        }
      }),
    );
  });
});

/**
 * The subscription selection rules (DECISIONS R3, 000 §9, 001 §4) as a pure transition, so
 * the sign-up page and the server agree on what a selection may hold.
 */
import {
  ALL_SUBSCRIPTION_CODES,
  EXTRA_CODES,
  baseOf,
  isExtraCode,
  isPaidCode,
  isSelectableCode,
  isSimulcastCode,
  simulcastOf,
} from './catalogue.ts';
import type { TSubscriptionCode } from './catalogue.ts';
import { FREE_EXTRAS_PAID_THRESHOLD, countPaid } from './prices.ts';

export interface ISelection {
  /** Selected codes, in catalogue order. */
  codes: readonly TSubscriptionCode[];
  /** The extras that were selected automatically (a subset of `codes`). */
  autoExtras: readonly TSubscriptionCode[];
}

export const EMPTY_SELECTION: ISelection = { codes: [], autoExtras: [] };

/** Every extra and extra simulcast: what reaching two paid items selects (R3). */
export const ALL_EXTRA_CODES: readonly TSubscriptionCode[] = EXTRA_CODES.flatMap((code) => [
  code,
  simulcastOf(code),
]);

function inCatalogueOrder(codes: Iterable<TSubscriptionCode>): TSubscriptionCode[] {
  const set = new Set(codes);
  return ALL_SUBSCRIPTION_CODES.filter((code) => set.has(code));
}

/**
 * Drops what a selection may never hold: unknown codes, GALVES_S, and simulcasts without their
 * base. Used for values read back from storage or a request.
 */
export function sanitizeCodes(codes: readonly string[]): TSubscriptionCode[] {
  const valid = new Set(codes.filter(isSelectableCode));
  return inCatalogueOrder(
    [...valid].filter((code) => !isSimulcastCode(code) || valid.has(baseOf(code))),
  );
}

/**
 * A list of codes that is not a selection (the removals waiting for a bill date): the selectable
 * codes in catalogue order, without the selection rule that a simulcast needs its base, since a
 * simulcast can be removed alone while its base stays.
 */
export function knownCodes(codes: readonly string[]): TSubscriptionCode[] {
  return inCatalogueOrder(new Set(codes.filter(isSelectableCode)));
}

/** A selection from stored codes; nothing counts as automatic. */
export function selectionFromCodes(codes: readonly string[]): ISelection {
  return { codes: sanitizeCodes(codes), autoExtras: [] };
}

/** Applies the automatic-extras rule after the paid count moved from `before` to now. */
function settle(
  before: number,
  codes: Set<TSubscriptionCode>,
  auto: Set<TSubscriptionCode>,
): ISelection {
  const after = countPaid([...codes]);
  if (before < FREE_EXTRAS_PAID_THRESHOLD && after >= FREE_EXTRAS_PAID_THRESHOLD) {
    for (const extra of ALL_EXTRA_CODES) {
      if (!codes.has(extra)) {
        codes.add(extra);
        auto.add(extra);
      }
    }
  } else if (after < FREE_EXTRAS_PAID_THRESHOLD) {
    for (const extra of auto) codes.delete(extra);
    auto.clear();
  }
  // A simulcast never outlives its base, even a hand-picked one whose base was automatic.
  for (const code of [...codes]) {
    if (isSimulcastCode(code) && !codes.has(baseOf(code))) codes.delete(code);
  }
  for (const code of [...auto]) if (!codes.has(code)) auto.delete(code);
  return { codes: inCatalogueOrder(codes), autoExtras: inCatalogueOrder(auto) };
}

/**
 * Selects a code. A simulcast needs its base, and GALVES_S is never selectable: both are
 * no-ops. Selecting an extra by hand makes it hand-picked.
 */
export function selectCode(selection: ISelection, code: TSubscriptionCode): ISelection {
  if (!isSelectableCode(code)) return selection;
  if (isSimulcastCode(code) && !selection.codes.includes(baseOf(code))) return selection;
  if (selection.codes.includes(code)) return selection;
  const before = countPaid(selection.codes);
  const codes = new Set(selection.codes);
  codes.add(code);
  return settle(before, codes, new Set(selection.autoExtras));
}

/** Deselects a code; deselecting a base also removes its simulcast (R3). */
export function deselectCode(selection: ISelection, code: TSubscriptionCode): ISelection {
  if (!selection.codes.includes(code)) return selection;
  const before = countPaid(selection.codes);
  const codes = new Set(selection.codes);
  const auto = new Set(selection.autoExtras);
  codes.delete(code);
  auto.delete(code);
  if (!isSimulcastCode(code)) {
    codes.delete(simulcastOf(code));
    auto.delete(simulcastOf(code));
  }
  return settle(before, codes, auto);
}

export function toggleCode(selection: ISelection, code: TSubscriptionCode): ISelection {
  return selection.codes.includes(code)
    ? deselectCode(selection, code)
    : selectCode(selection, code);
}

/** Whether a code's checkbox can be ticked right now (simulcast rows need their base). */
export function canSelect(selection: ISelection, code: TSubscriptionCode): boolean {
  if (!isSelectableCode(code)) return false;
  return !isSimulcastCode(code) || selection.codes.includes(baseOf(code));
}

/** Why a set of codes is not a valid selection, or null (for the server's re-validation). */
export function selectionProblem(
  codes: readonly string[],
): 'unknownCode' | 'unavailable' | 'duplicate' | 'simulcastWithoutBase' | null {
  if (new Set(codes).size !== codes.length) return 'duplicate';
  for (const code of codes) {
    if (!ALL_SUBSCRIPTION_CODES.includes(code as TSubscriptionCode)) return 'unknownCode';
    if (!isSelectableCode(code)) return 'unavailable';
  }
  for (const code of codes as readonly TSubscriptionCode[]) {
    if (isSimulcastCode(code) && !codes.includes(baseOf(code))) return 'simulcastWithoutBase';
  }
  return null;
}

/** The paid codes and the extras of a selection, as the sign-up form's separate lists hold them. */
export function splitSelection(codes: readonly TSubscriptionCode[]): {
  paid: TSubscriptionCode[];
  extras: TSubscriptionCode[];
  simulcasts: TSubscriptionCode[];
} {
  return {
    paid: codes.filter((c) => isPaidCode(c) && !isSimulcastCode(c)),
    extras: codes.filter((c) => isExtraCode(c) && !isSimulcastCode(c)),
    simulcasts: codes.filter(isSimulcastCode),
  };
}

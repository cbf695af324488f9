import { isValidState, randomState } from '@dealerpass/domain/random-state';

/**
 * 000 §4: before going to Carfax the page stores where it was and a random 64-character state;
 * the callback takes both back (once) and compares the state. Kept apart from the account
 * area's own return URL, which that layout follows on every mount, before this callback is done.
 */
const KEY = 'dp.carfax.signIn';

export interface ICarfaxSignIn {
  state: string;
  returnTo: string;
}

export function newCarfaxState(): string {
  return randomState((n) => crypto.getRandomValues(new Uint8Array(n)));
}

export function storeCarfaxSignIn(signIn: ICarfaxSignIn): void {
  window.sessionStorage.setItem(KEY, JSON.stringify(signIn));
}

/** The stored sign-in, removed from storage; null when there is none or it is not ours. */
export function takeCarfaxSignIn(): ICarfaxSignIn | null {
  let raw: string | null = null;
  try {
    raw = window.sessionStorage.getItem(KEY);
    window.sessionStorage.removeItem(KEY);
  } catch {
    return null;
  }
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as Partial<ICarfaxSignIn>;
    if (!isValidState(value.state)) return null;
    const returnTo =
      typeof value.returnTo === 'string' && /^\/account(\/|$)/.test(value.returnTo)
        ? value.returnTo
        : '/account/status/carfax';
    return { state: value.state, returnTo };
  } catch {
    return null;
  }
}

/**
 * Failure budgets (docs/decisions/029): how many attempts a key (an account's sign-in, a staff
 * member's second factor) may spend within a sliding window before the rule bites. The rule is
 * always the same: an attempt is TAKEN from the budget, atomically, before anything is checked;
 * the store answers how many were taken within the window, this one included; over the limit the
 * attempt is refused. Counting after the check let parallel guesses all pass the check first
 * (issue 24, item 1).
 */
export interface IFailureBudget {
  /** Attempts allowed within the window; the next one is over. */
  limit: number;
  windowMs: number;
}

const HOUR_MS = 60 * 60 * 1000;

/**
 * Passwords, dealers' and staff's (docs/decisions/016): after five attempts within the hour that
 * did not succeed, every further attempt needs a solved captcha. Never a lock: a lock would let
 * anyone who knows an e-mail address keep its owner out.
 */
export const SIGN_IN_FAILURE_BUDGET: IFailureBudget = { limit: 5, windowMs: HOUR_MS };

/**
 * A staff member's TOTP codes (R12, docs/decisions/026): the fifth wrong code within the hour
 * ends the session, and until the hour has passed no code is checked, the right one included.
 */
export const TOTP_FAILURE_BUDGET: IFailureBudget = { limit: 5, windowMs: HOUR_MS };

/**
 * At most this many instants are kept per key: enough to compare with any budget's limit, and a
 * flood of attempts cannot grow a row or a sorted set without bound.
 */
export const FAILURE_BUDGET_KEPT = 64;

/** Where budgets are taken from: the database, and Redis too when it is configured (R13). */
export interface FailureBudgetStore {
  /**
   * Takes one attempt from `key`'s budget and answers, in the same atomic step, how many were
   * taken within the window ending at `now`, this one included.
   */
  take(key: string, now: Date, windowMs: number): Promise<number>;
  /** Gives the whole budget back: the owner proved who they are. */
  clear(key: string): Promise<void>;
}

export interface ITakenAttempt {
  /** Attempts taken within the window, this one included. */
  taken: number;
  /** This attempt is within the limit: it may be checked. */
  within: boolean;
  /** This attempt used the budget's last one: the next is over. */
  last: boolean;
}

/** The one way any failure budget is spent (docs/decisions/029): take first, then compare. */
export async function takeFromFailureBudget(
  store: FailureBudgetStore,
  budget: IFailureBudget,
  key: string,
  now: Date,
): Promise<ITakenAttempt> {
  const taken = await store.take(key, now, budget.windowMs);
  return { taken, within: taken <= budget.limit, last: taken >= budget.limit };
}

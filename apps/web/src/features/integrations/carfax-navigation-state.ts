/** What the Carfax callbacks hand the status page in navigation state (000 §2). */
export interface ICarfaxNavigationState {
  /** The callback's error (a refused state, Carfax's own error), shown on the status page. */
  carfaxError?: string;
  /** A notice such as the sign-out confirmation. */
  carfaxNotice?: string;
  /** A failed configuration or token request (000 §8), shown in the error panel. */
  carfaxFailure?: ICarfaxFailure;
}

export interface ICarfaxFailure {
  message: string;
  /** What Carfax said, when it said something. */
  detail: string | null;
}

export function carfaxFailureFrom(state: unknown): ICarfaxFailure | null {
  if (typeof state !== 'object' || state === null) return null;
  const { carfaxFailure } = state as ICarfaxNavigationState;
  if (typeof carfaxFailure !== 'object' || carfaxFailure === null) return null;
  if (typeof carfaxFailure.message !== 'string' || !carfaxFailure.message) return null;
  return {
    message: carfaxFailure.message,
    detail: typeof carfaxFailure.detail === 'string' ? carfaxFailure.detail : null,
  };
}

export function carfaxNoticeFrom(state: unknown): string | null {
  if (typeof state !== 'object' || state === null) return null;
  const { carfaxError, carfaxNotice } = state as ICarfaxNavigationState;
  if (typeof carfaxError === 'string' && carfaxError) return carfaxError;
  if (typeof carfaxNotice === 'string' && carfaxNotice) return carfaxNotice;
  return null;
}

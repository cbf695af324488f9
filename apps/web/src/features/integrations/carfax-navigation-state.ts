/** What the Carfax callbacks hand the status page in navigation state (000 §2). */
export interface ICarfaxNavigationState {
  /** The callback's error (a refused state, Carfax's own error), shown on the status page. */
  carfaxError?: string;
  /** A notice such as the sign-out confirmation. */
  carfaxNotice?: string;
}

export function carfaxNoticeFrom(state: unknown): string | null {
  if (typeof state !== 'object' || state === null) return null;
  const { carfaxError, carfaxNotice } = state as ICarfaxNavigationState;
  if (typeof carfaxError === 'string' && carfaxError) return carfaxError;
  if (typeof carfaxNotice === 'string' && carfaxNotice) return carfaxNotice;
  return null;
}

/**
 * The AutoCheck port (issue 8, docs/decisions/015): checks a dealer's AutoCheck ID and password.
 * 'invalid' is an answer; a check that could not be made throws AutoCheckUnavailableError.
 */
export interface AutoCheckVerifier {
  readonly kind: 'sandbox' | 'autocheck';
  verifyCredentials(input: { autoCheckId: string; password: string }): Promise<'valid' | 'invalid'>;
}

export class AutoCheckUnavailableError extends Error {
  override name = 'AutoCheckUnavailableError';
}

import type { AutoCheckConfig } from './autocheck-config.ts';
import { AutoCheckUnavailableError, type AutoCheckVerifier } from './autocheck-verifier.ts';

/**
 * The configured AutoCheck credential check (docs/decisions/015): one JSON POST of the dealer's
 * ID and password with our API key. 200 with `valid: true` is valid; 200 with `valid: false`, 401
 * or 403 is invalid; anything else (5xx, 429, timeout, unreadable answer) is unavailable.
 */
export function createAutoCheckApiVerifier(
  config: Extract<AutoCheckConfig, { kind: 'autocheck' }>,
  doFetch: typeof fetch = fetch,
): AutoCheckVerifier {
  return {
    kind: 'autocheck',
    async verifyCredentials({ autoCheckId, password }) {
      let response: Response;
      try {
        response = await doFetch(config.verifyUrl, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json',
            'x-api-key': config.apiKey,
          },
          body: JSON.stringify({ userId: autoCheckId, password }),
          signal: AbortSignal.timeout(config.timeoutMs),
          redirect: 'error',
        });
      } catch (cause) {
        throw new AutoCheckUnavailableError('AutoCheck could not be reached', { cause });
      }
      if (response.status === 401 || response.status === 403) return 'invalid';
      if (!response.ok)
        throw new AutoCheckUnavailableError(`AutoCheck answered ${response.status}`);
      let body: unknown;
      try {
        body = await response.json();
      } catch (cause) {
        throw new AutoCheckUnavailableError('AutoCheck answered no JSON', { cause });
      }
      const valid = (body as { valid?: unknown } | null)?.valid;
      if (typeof valid !== 'boolean')
        throw new AutoCheckUnavailableError('AutoCheck answered no verdict');
      return valid ? 'valid' : 'invalid';
    },
  };
}

import { createHash, timingSafeEqual } from 'node:crypto';
import {
  AutoCheckUnavailableError,
  type AutoCheckVerifier,
} from '../../adapters/autocheck/autocheck-verifier.ts';

/**
 * The AutoCheck sandbox (DECISIONS R8): documented test credentials (README "AutoCheck sandbox")
 * are valid, everything else is refused; one ID stands for an AutoCheck that cannot be reached.
 */
export const AUTOCHECK_SANDBOX_CREDENTIALS: readonly { autoCheckId: string; password: string }[] = [
  // The demo account's stored credentials (services/demo/seed-demo-data.ts DEMO_AUTOCHECK).
  { autoCheckId: 'DPDEMO1001', password: 'AutoCheck!Demo1' },
  { autoCheckId: 'DPDEMO1002', password: 'AutoCheck!Demo2' },
];
/** Any password: the check fails as if AutoCheck were down. */
export const AUTOCHECK_SANDBOX_UNAVAILABLE_ID = 'DPDEMO-DOWN';

const digest = (value: string) => createHash('sha256').update(value).digest();

export function createSandboxAutoCheckVerifier(): AutoCheckVerifier {
  return {
    kind: 'sandbox',
    async verifyCredentials({ autoCheckId, password }) {
      if (autoCheckId.trim().toUpperCase() === AUTOCHECK_SANDBOX_UNAVAILABLE_ID) {
        throw new AutoCheckUnavailableError('the AutoCheck sandbox plays unavailable');
      }
      let valid = false;
      for (const credential of AUTOCHECK_SANDBOX_CREDENTIALS) {
        const idOk = timingSafeEqual(digest(credential.autoCheckId), digest(autoCheckId.trim()));
        const passwordOk = timingSafeEqual(digest(credential.password), digest(password));
        if (idOk && passwordOk) valid = true;
      }
      return valid ? 'valid' : 'invalid';
    },
  };
}

import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from '../../../lib/router/router.tsx';
import { ACCOUNT_ROUTES } from '@dealerpass/domain/account/account-routes';
import { CARFAX_TEXTS, carfaxCodeForFailure } from '@dealerpass/domain/integrations/carfax';
import { carfaxErrorMessage } from '@dealerpass/domain/messages/carfax-errors';
import { errorMessage } from '@dealerpass/domain/messages';
import { ApiError } from '../../../lib/api-client.ts';
import { runtimeConfig } from '../../../lib/runtime-config.ts';
import { fetchCarfaxTokens } from '../api/fetch-carfax-tokens.ts';
import { getEnvConfig } from '../api/get-env-config.ts';
import { takeCarfaxSignIn } from '../carfax-sign-in-storage.ts';
import type { ICarfaxNavigationState } from '../carfax-navigation-state.ts';
import type { IIntegrationPageProps } from '../integration-user.ts';
import '../integrations.css';

/**
 * /account/carfax/login, the Carfax OAuth callback (000 §2, §4): the state must be the one this
 * tab stored (taken once), then the code goes to our server for tokens and the user lands on
 * the status page. Every failure goes there too, in navigation state (000 §2), so the code does
 * not stay in the address bar: a refused state or Carfax's own error as a notice, a failed
 * configuration or token request as the error panel's 'Unable to fetch Carfax tokens!' (000 §8).
 */
export default function CarfaxLoginPage(_props: IIntegrationPageProps) {
  const navigate = useNavigate();
  const { search } = useLocation();
  const started = useRef(false);

  useEffect(() => {
    document.title = 'Carfax sign-in · DealerPass';
    // Once per visit: the stored sign-in is taken once, and a code can be used once.
    if (started.current) return;
    started.current = true;
    const params = new URLSearchParams(search);
    const stored = takeCarfaxSignIn();
    const toStatus = (state: ICarfaxNavigationState & { returnTo?: string }) =>
      navigate(ACCOUNT_ROUTES.carfaxStatus, { replace: true, state });
    const phone = { phone: runtimeConfig().supportPhone };

    if (!stored || params.get('state') !== stored.state) {
      toStatus({ carfaxError: CARFAX_TEXTS.stateMismatch });
      return;
    }
    const error = params.get('error');
    if (error) {
      toStatus({
        carfaxError: carfaxErrorMessage(carfaxCodeForFailure({ oauthError: error }), phone),
      });
      return;
    }
    const code = params.get('code');
    if (!code) {
      toStatus({ carfaxError: CARFAX_TEXTS.missingCode });
      return;
    }
    void (async () => {
      let loginCallbackUrl: string;
      try {
        loginCallbackUrl = (await getEnvConfig()).carfaxLoginCallbackUrl;
      } catch {
        toStatus({ carfaxFailure: { message: errorMessage('CONFIG_UNAVAILABLE'), detail: null } });
        return;
      }
      try {
        await fetchCarfaxTokens({ code, loginCallbackUrl, state: stored.state });
      } catch (tokenError) {
        const detail =
          tokenError instanceof ApiError
            ? (tokenError.errors.find((item) => item.source === 'carfax')?.message ?? null)
            : null;
        toStatus({ carfaxFailure: { message: errorMessage('CARFAX_TOKENS_FAILED'), detail } });
        return;
      }
      toStatus({ returnTo: stored.returnTo });
    })();
  }, [navigate, search]);

  return (
    <div className="page account-page integrations-page">
      <h1>{CARFAX_TEXTS.statusHeading}</h1>
      <div className="page-loading" role="status">
        <span className="spinner" aria-hidden="true" />
        <span>{CARFAX_TEXTS.finishing}</span>
      </div>
    </div>
  );
}

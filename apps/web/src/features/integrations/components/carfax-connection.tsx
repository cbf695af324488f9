import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import { CARFAX_TEXTS, carfaxRefreshDelayMs } from '@dealerpass/domain/integrations/carfax';
import type { IEnvConfig } from '@dealerpass/domain/integrations/carfax';
import { errorMessage } from '@dealerpass/domain/messages';
import { Button } from '../../../components/ui/button.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { failureMessage } from '../../../lib/error-text.ts';
import { loadPage } from '../../../lib/full-page-navigation.ts';
import { useSubmit } from '../../../lib/use-submit.ts';
import { CarfaxLoadError, getCarfaxConnectionQueryOptions } from '../api/get-carfax-connection.ts';
import { refreshCarfaxTokens } from '../api/refresh-carfax-tokens.ts';
import { revokeCarfaxTokens } from '../api/revoke-carfax-tokens.ts';
import { startCarfaxSignIn } from '../api/start-carfax-sign-in.ts';
import { newCarfaxState, storeCarfaxSignIn } from '../carfax-sign-in-storage.ts';
import { ErrorPanel } from './error-panel.tsx';

/** The Carfax failure text the server put under `carfax`, else the call's own message. */
function carfaxProblem(error: unknown): string {
  if (error instanceof ApiError) {
    const detail = error.errors.find((item) => item.source === 'carfax')?.message;
    if (detail) return detail;
  }
  return failureMessage(error);
}

/**
 * The Carfax connection (000 §4, §7): the configuration first ('Unable to get configuration'
 * otherwise), then the token status: connected (renewed a minute before it expires), expired
 * (renewed at once when possible), or missing. Sign-in stores the path and a 64-character state
 * and goes to Carfax; sign-out revokes the tokens and goes through Carfax's logout.
 */
export function CarfaxConnection({ notice }: { notice: string | null }) {
  const queryClient = useQueryClient();
  const query = useQuery(getCarfaxConnectionQueryOptions());
  const [busy, setBusy] = useState<'signin' | 'signout' | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  // Asks again in the background; the page keeps what it shows until the answer arrives.
  const reload = useCallback(() => {
    void queryClient.refetchQueries({ queryKey: getCarfaxConnectionQueryOptions().queryKey });
  }, [queryClient]);

  // Renew the tokens shortly before the access token expires, while the page is open.
  const expiresAt =
    query.data?.status.kind === 'connected'
      ? query.data.status.connection.accessTokenExpiresAt
      : null;
  useEffect(() => {
    if (!expiresAt) return;
    const timer = window.setTimeout(
      () => {
        refreshCarfaxTokens().then(
          (connection) =>
            queryClient.setQueryData(getCarfaxConnectionQueryOptions().queryKey, (current) =>
              current
                ? { ...current, status: { kind: 'connected' as const, connection } }
                : current,
            ),
          (error: unknown) => {
            setProblem(carfaxProblem(error));
            reload();
          },
        );
      },
      carfaxRefreshDelayMs(expiresAt, Date.now()),
    );
    return () => window.clearTimeout(timer);
  }, [expiresAt, queryClient, reload]);

  // A failure of either button is told in the panel, in Carfax's words when the server has them.
  const send = useSubmit({
    onFailure: ({ error }) => {
      setBusy(null);
      setProblem(carfaxProblem(error));
    },
  });

  const signIn = async (config: IEnvConfig) => {
    setBusy('signin');
    setProblem(null);
    const state = newCarfaxState();
    storeCarfaxSignIn({ state, returnTo: window.location.pathname });
    const outcome = await send(async () => {
      const authorizationUrl = await startCarfaxSignIn(state);
      // The URL must name our client and our login callback, as configured.
      const target = new URL(authorizationUrl, window.location.origin);
      if (
        target.searchParams.get('client_id') !== config.carfaxClientId ||
        target.searchParams.get('redirect_uri') !== config.carfaxLoginCallbackUrl ||
        target.searchParams.get('state') !== state
      ) {
        throw new Error('unexpected authorization URL');
      }
      return target.toString();
    });
    if (outcome.ok) loadPage(outcome.value);
  };

  const signOut = async () => {
    setBusy('signout');
    setProblem(null);
    const outcome = await send(() => revokeCarfaxTokens());
    if (outcome.ok) loadPage(outcome.value.logoutUrl);
    else reload();
  };

  if (query.isPending) {
    return (
      <div className="page-loading" role="status">
        <span className="spinner" aria-hidden="true" />
        <span>{CARFAX_TEXTS.checking}</span>
      </div>
    );
  }
  if (query.isError) {
    if (query.error instanceof CarfaxLoadError && query.error.stage === 'config')
      return <ErrorPanel message={errorMessage('CONFIG_UNAVAILABLE')} />;
    return (
      <div className="card" role="alert">
        <p>{CARFAX_TEXTS.statusUnknown}</p>
        <Button
          variant="secondary"
          onClick={() => {
            // Try again shows the loading state, not the failed one, while it asks again.
            void queryClient.resetQueries({ queryKey: getCarfaxConnectionQueryOptions().queryKey });
          }}
        >
          Try again
        </Button>
      </div>
    );
  }

  const { status, config } = query.data;
  const connected = status.kind === 'connected';
  const label = connected
    ? CARFAX_TEXTS.connected
    : status.kind === 'expired'
      ? CARFAX_TEXTS.expired
      : CARFAX_TEXTS.notConnected;
  return (
    <section className="card carfax-connection" aria-labelledby="carfax-status-heading">
      {notice ? (
        <div className="integration-notice" role="alert">
          <p>{notice}</p>
        </div>
      ) : null}
      {problem ? (
        <div className="integration-notice integration-notice--error" role="alert">
          <p>{problem}</p>
        </div>
      ) : null}
      <h2 id="carfax-status-heading">Status</h2>
      <p className={`carfax-status carfax-status--${status.kind}`} data-testid="carfax-status">
        {label}
      </p>
      {connected ? (
        <p className="field__hint">
          Connected since{' '}
          {new Date(status.connection.connectedAt).toLocaleString('en-US', {
            dateStyle: 'medium',
            timeStyle: 'short',
          })}
          .
        </p>
      ) : null}
      <div className="form-actions">
        {connected ? (
          <Button variant="secondary" busy={busy === 'signout'} onClick={() => void signOut()}>
            {busy === 'signout' ? CARFAX_TEXTS.signingOut : CARFAX_TEXTS.signOut}
          </Button>
        ) : (
          <Button busy={busy === 'signin'} onClick={() => void signIn(config)}>
            {busy === 'signin' ? CARFAX_TEXTS.signingIn : CARFAX_TEXTS.signIn}
          </Button>
        )}
      </div>
    </section>
  );
}

import type { FastifyBaseLogger } from 'fastify';
import fp from 'fastify-plugin';
import { ACCOUNT_ROUTES } from '@dealerpass/domain/account/account-routes';
import type { AutoCheckVerifier } from '../adapters/autocheck/autocheck-verifier.ts';
import { createAutoCheckApiVerifier } from '../adapters/autocheck/autocheck-api.ts';
import { createSandboxAutoCheckVerifier } from '../sandboxes/autocheck/sandbox-autocheck.ts';
import {
  createCarfaxClient,
  type CarfaxClient,
  type CarfaxFetch,
} from '../adapters/carfax/carfax-oauth-client.ts';
import {
  CARFAX_SANDBOX_CLIENT_ID,
  CARFAX_SANDBOX_PATHS,
  CARFAX_SANDBOX_SCOPE,
  registerSandboxClient,
} from '../sandboxes/carfax/sandbox-authorization-server.ts';
import { deriveSubkey } from '../lib/keys.ts';
import type { CarfaxDeps } from '../services/carfax/carfax-deps.ts';
import { inProcessFetch } from './identity.ts';
import type { ServiceDeps } from './services.ts';

export interface IntegrationOverrides {
  /** How the Carfax client reaches configured Carfax endpoints (tests hand in a double's fetch). */
  carfaxFetch?: CarfaxFetch;
  autoCheck?: AutoCheckVerifier;
}

/**
 * The two vehicle-history integrations (issue 8, docs/decisions/015): `app.carfax`, the OAuth
 * client for the Carfax sandbox or the configured Carfax, with our two callback URLs and the Carfax
 * services' dependencies; and `app.autoCheck`, the credential check of the AutoCheck sandbox or
 * the configured AutoCheck.
 */
export default fp(
  async (app, overrides: IntegrationOverrides) => {
    const { config } = app;
    const loginCallbackUrl = `${config.publicUrl}${ACCOUNT_ROUTES.carfaxLogin}`;
    const logoutCallbackUrl = `${config.publicUrl}${ACCOUNT_ROUTES.carfaxLogout}`;

    let client: CarfaxClient;
    if (config.carfax.kind === 'carfax') {
      client = createCarfaxClient({
        ...config.carfax,
        kind: 'carfax',
        ...(overrides.carfaxFetch ? { fetch: overrides.carfaxFetch } : {}),
      });
    } else {
      const secret = deriveSubkey(app.keys.encryption, 'carfax-sandbox-client').toString(
        'base64url',
      );
      await registerSandboxClient(app.db, {
        clientId: CARFAX_SANDBOX_CLIENT_ID,
        secret,
        redirectUris: [loginCallbackUrl],
        postLogoutRedirectUris: [logoutCallbackUrl],
      });
      const viaInject = inProcessFetch(app, app.identity.internalToken);
      const base = config.publicUrl;
      client = createCarfaxClient({
        kind: 'sandbox',
        clientId: CARFAX_SANDBOX_CLIENT_ID,
        clientSecret: secret,
        authorizeUrl: `${base}${CARFAX_SANDBOX_PATHS.authorize}`,
        tokenUrl: `${base}${CARFAX_SANDBOX_PATHS.token}`,
        revokeUrl: `${base}${CARFAX_SANDBOX_PATHS.revoke}`,
        logoutUrl: `${base}${CARFAX_SANDBOX_PATHS.logout}`,
        scope: CARFAX_SANDBOX_SCOPE,
        timeoutMs: 10_000,
        // The sandbox is reached in process, as the relying party reaches the embedded provider.
        fetch:
          overrides.carfaxFetch ?? ((url, init) => viaInject(url, { ...init, redirect: 'manual' })),
      });
    }

    const autoCheck =
      overrides.autoCheck ??
      (config.autoCheck.kind === 'autocheck'
        ? createAutoCheckApiVerifier(config.autoCheck)
        : createSandboxAutoCheckVerifier());

    // The Carfax services' dependencies, built once; only the logger is the request's own.
    const carfaxDeps: Omit<CarfaxDeps, 'log'> = {
      db: app.db,
      client,
      encryptionKey: app.keys.encryption,
      now: app.now,
      loginCallbackUrl,
      logoutCallbackUrl,
      messageVars: app.messageVars,
    };
    app.decorate('carfax', {
      client,
      loginCallbackUrl,
      logoutCallbackUrl,
      deps: (log: FastifyBaseLogger): CarfaxDeps => ({ ...carfaxDeps, log }),
    });
    app.decorate('autoCheck', autoCheck);
    Object.assign(app.deps, {
      autoCheck: {
        db: app.db,
        verifier: autoCheck,
        encryptionKey: app.keys.encryption,
        messageVars: app.messageVars,
      },
    } satisfies Pick<ServiceDeps, 'autoCheck'>);
  },
  { name: 'integrations', dependencies: ['config', 'identity', 'services'] },
);

declare module 'fastify' {
  interface FastifyInstance {
    carfax: {
      client: CarfaxClient;
      loginCallbackUrl: string;
      logoutCallbackUrl: string;
      /** What the Carfax services need, with the request's logger. */
      deps(log: FastifyBaseLogger): CarfaxDeps;
    };
    autoCheck: AutoCheckVerifier;
  }
}

import * as client from 'openid-client';

export const SCOPES = 'openid profile email offline_access';

export interface RelyingPartyOptions {
  issuer: string;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  /** How to reach the provider: plain fetch for an external one, in-process for the embedded one. */
  fetch?: client.CustomFetch;
}

export interface SignInResult {
  subject: string;
  /** The ID token's e-mail, when the provider verified it (an external staff provider's match). */
  verifiedEmail?: string | undefined;
  tokens: { idToken?: string; accessToken?: string; refreshToken?: string };
}

/**
 * Our server as the OpenID Connect relying party (backend-for-frontend, DECISIONS R6): the same
 * code for the embedded and an external provider. Discovery happens on first use and is retried
 * after a failure. ID tokens are verified in full: signature against the provider's JWKS, issuer,
 * audience, expiry and nonce; the code exchange proves PKCE and checks state.
 */
export function createRelyingParty(options: RelyingPartyOptions) {
  let discovered: Promise<client.Configuration> | null = null;

  const configuration = () => {
    discovered ??= client
      .discovery(
        new URL(options.issuer),
        options.clientId,
        {
          redirect_uris: [options.redirectUri],
          response_types: ['code'],
          id_token_signed_response_alg: 'RS256',
        },
        client.ClientSecretBasic(options.clientSecret),
        {
          ...(options.fetch ? { [client.customFetch]: options.fetch } : {}),
          execute: options.issuer.startsWith('http://') ? [client.allowInsecureRequests] : [],
        },
      )
      .then((config) => {
        client.enableNonRepudiationChecks(config);
        return config;
      })
      .catch((error: unknown) => {
        discovered = null;
        throw error;
      });
    return discovered;
  };

  return {
    /** The provider's authorization URL for a new sign-in with PKCE (S256), state and nonce. */
    async authorizationUrl(input: {
      state: string;
      nonce: string;
      codeVerifier: string;
      loginHint?: string | undefined;
    }) {
      const config = await configuration();
      return client.buildAuthorizationUrl(config, {
        redirect_uri: options.redirectUri,
        scope: SCOPES,
        state: input.state,
        nonce: input.nonce,
        code_challenge: await client.calculatePKCECodeChallenge(input.codeVerifier),
        code_challenge_method: 'S256',
        prompt: 'login consent',
        ...(input.loginHint ? { login_hint: input.loginHint } : {}),
      }).href;
    },

    /** Exchanges the callback's code; throws unless every check passes. */
    async completeSignIn(
      callbackUrl: URL,
      checks: { state: string; nonce: string; codeVerifier: string },
    ): Promise<SignInResult> {
      const config = await configuration();
      const tokens = await client.authorizationCodeGrant(config, callbackUrl, {
        pkceCodeVerifier: checks.codeVerifier,
        expectedState: checks.state,
        expectedNonce: checks.nonce,
        idTokenExpected: true,
      });
      const claims = tokens.claims();
      if (!claims?.sub) throw new Error('the ID token has no subject');
      return {
        subject: claims.sub,
        verifiedEmail:
          claims.email_verified === true && typeof claims.email === 'string'
            ? claims.email
            : undefined,
        tokens: {
          idToken: tokens.id_token,
          accessToken: tokens.access_token,
          refreshToken: tokens.refresh_token,
        },
      };
    },

    /** Revokes what the session held; a provider that is down must not keep a user signed in here. */
    async revoke(tokens: {
      accessToken?: string | undefined;
      refreshToken?: string | undefined;
    }): Promise<void> {
      const config = await configuration();
      const jobs: Promise<void>[] = [];
      if (tokens.refreshToken)
        jobs.push(
          client.tokenRevocation(config, tokens.refreshToken, { token_type_hint: 'refresh_token' }),
        );
      if (tokens.accessToken)
        jobs.push(
          client.tokenRevocation(config, tokens.accessToken, { token_type_hint: 'access_token' }),
        );
      await Promise.all(jobs);
    },

    /** Where the browser goes to end the provider's session, returning to our logout callback. */
    async endSessionUrl(input: {
      idToken?: string | undefined;
      postLogoutRedirectUri: string;
    }): Promise<string> {
      const config = await configuration();
      return client.buildEndSessionUrl(config, {
        post_logout_redirect_uri: input.postLogoutRedirectUri,
        ...(input.idToken ? { id_token_hint: input.idToken } : {}),
      }).href;
    },
  };
}

export type RelyingParty = ReturnType<typeof createRelyingParty>;

import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import {
  CARFAX_SANDBOX_PATHS,
  CARFAX_SANDBOX_MOUNT,
  CARFAX_SANDBOX_SCOPE,
  authenticateSandboxClient,
  findSandboxClient,
  findSandboxUser,
  issueCode,
  redeemCode,
  refreshGrant,
  revokeSandboxToken,
  sandboxAccessTokenActive,
  sandboxUserById,
  type OAuthFailure,
  type IssuedTokens,
  type SandboxClient,
} from './sandbox-authorization-server.ts';
import { deriveSubkey, hmac, safeEqual } from '../../lib/keys.ts';
import { INTERNAL_HEADER } from '../../plugins/identity.ts';
import { findUnstorableText } from '../../plugins/text-input.ts';
import { SANDBOX_STYLESHEET, consentPage, messagePage } from './consent-page.ts';

/** Cookies of the sandbox's own pages, scoped to its path (it plays another site). */
const BROWSER_COOKIE = 'cfsbx_browser';
const SESSION_COOKIE = 'cfsbx_session';
const SESSION_TTL_MS = 8 * 3600_000;
const REQUEST_TTL_MS = 15 * 60_000;
const PAGE_POLICY =
  "default-src 'none'; style-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";
const CLIENT_NAME = 'DealerPass';

const ZAuthorizeQuery = z.object({
  response_type: z.string().optional(),
  client_id: z.string().max(200).optional(),
  redirect_uri: z.string().max(2048).optional(),
  state: z.string().max(512).optional(),
  scope: z.string().max(512).optional(),
  code_challenge: z.string().max(256).optional(),
  code_challenge_method: z.string().max(16).optional(),
});
type AuthorizeParams = {
  clientId: string;
  redirectUri: string;
  state: string;
  scope: string;
  codeChallenge: string;
  expiresAt: number;
};

const ZConsentForm = z.object({
  request: z.string().max(4096),
  decision: z.enum(['allow', 'deny']),
  email: z.string().max(254).optional(),
  password: z.string().max(200).optional(),
});

/**
 * The embedded Carfax sandbox (DECISIONS R8, docs/decisions/015): a plain OAuth 2.0
 * authorization server at /carfax-sandbox with a sign-in and consent page, token (authorization
 * code with PKCE S256, refresh), revocation and logout. Registered only when no Carfax endpoints
 * are configured. Not wrapped in fastify-plugin: the form parser stays inside this scope.
 */
const carfaxSandboxRoutes: FastifyPluginAsync = async (app) => {
  const key = deriveSubkey(app.keys.encryption, 'carfax-sandbox');
  const stylesheet = CARFAX_SANDBOX_PATHS.stylesheet;

  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 8 * 1024 },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );

  const cookieOptions = (maxAgeSeconds?: number) => ({
    path: CARFAX_SANDBOX_MOUNT,
    httpOnly: true,
    secure: true,
    sameSite: 'lax' as const,
    ...(maxAgeSeconds === undefined ? {} : { maxAge: maxAgeSeconds }),
  });

  function readCookie(request: FastifyRequest, name: string): string | undefined {
    const header = request.headers.cookie;
    return header ? app.parseCookie(header)[name] : undefined;
  }

  /** The browser's id for binding the consent form to it (a forged cross-site post lacks it). */
  function browserId(request: FastifyRequest, reply: FastifyReply): string {
    const existing = readCookie(request, BROWSER_COOKIE);
    if (existing && /^[\w-]{43}$/.test(existing)) return existing;
    const id = randomBytes(32).toString('base64url');
    reply.setCookie(BROWSER_COOKIE, id, cookieOptions());
    return id;
  }

  function signRequest(params: AuthorizeParams, browser: string): string {
    const payload = Buffer.from(JSON.stringify(params)).toString('base64url');
    return `${payload}.${hmac(key, `request:${payload}:${browser}`)}`;
  }

  function openRequest(signed: string, browser: string | undefined, now: Date) {
    const [payload, signature] = signed.split('.');
    if (!payload || !signature || !browser) return null;
    if (!safeEqual(signature, hmac(key, `request:${payload}:${browser}`))) return null;
    const params = JSON.parse(
      Buffer.from(payload, 'base64url').toString('utf8'),
    ) as AuthorizeParams;
    return params.expiresAt > now.getTime() ? params : null;
  }

  function signedInUser(request: FastifyRequest, now: Date) {
    const value = readCookie(request, SESSION_COOKIE);
    const [subject, expires, signature] = (value ?? '').split('.');
    if (!subject || !expires || !signature) return null;
    if (!safeEqual(signature, hmac(key, `session:${subject}.${expires}`))) return null;
    if (Number(expires) <= now.getTime()) return null;
    return sandboxUserById(subject);
  }

  function startSession(reply: FastifyReply, subject: string, now: Date) {
    const expires = String(now.getTime() + SESSION_TTL_MS);
    const signature = hmac(key, `session:${subject}.${expires}`);
    reply.setCookie(
      SESSION_COOKIE,
      `${subject}.${expires}.${signature}`,
      cookieOptions(SESSION_TTL_MS / 1000),
    );
  }

  function html(reply: FastifyReply, status: number, body: string) {
    return reply
      .status(status)
      .header('content-security-policy', PAGE_POLICY)
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(body);
  }

  function redirectBack(reply: FastifyReply, redirectUri: string, params: Record<string, string>) {
    const url = new URL(redirectUri);
    for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
    return reply.header('cache-control', 'no-store').redirect(url.toString(), 303);
  }

  app.get(stylesheet, { config: { access: 'public' } }, async (_request, reply) =>
    reply
      .type('text/css; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .send(SANDBOX_STYLESHEET),
  );

  /** RFC 6749 §4.1.1; errors before the redirect URI is trusted are shown, never redirected (§4.1.2.1). */
  app.get(
    CARFAX_SANDBOX_PATHS.authorize,
    { config: { access: 'public' } },
    async (request, reply) => {
      const query = ZAuthorizeQuery.safeParse(request.query);
      if (!query.success)
        return html(
          reply,
          400,
          messagePage(stylesheet, 'Request not valid', 'The sign-in request could not be read.'),
        );
      const q = query.data;
      const client = q.client_id ? await findSandboxClient(app.db, q.client_id) : null;
      if (!client)
        return html(
          reply,
          400,
          messagePage(
            stylesheet,
            'Unknown application',
            'The application that sent you here is not registered with the Carfax sandbox.',
          ),
        );
      if (!q.redirect_uri || !client.redirectUris.includes(q.redirect_uri)) {
        return html(
          reply,
          400,
          messagePage(
            stylesheet,
            'Redirect not allowed',
            'The return address of this sign-in request is not registered for the application.',
          ),
        );
      }
      const state = q.state ?? '';
      if (q.response_type !== 'code') {
        return redirectBack(reply, q.redirect_uri, { error: 'unsupported_response_type', state });
      }
      if (
        !q.code_challenge ||
        q.code_challenge_method !== 'S256' ||
        !/^[\w-]{43}$/.test(q.code_challenge)
      ) {
        return redirectBack(reply, q.redirect_uri, {
          error: 'invalid_request',
          error_description: 'PKCE with S256 is required',
          state,
        });
      }
      const scope = q.scope?.trim() || CARFAX_SANDBOX_SCOPE;
      if (scope.split(/\s+/).some((item) => item !== CARFAX_SANDBOX_SCOPE)) {
        return redirectBack(reply, q.redirect_uri, { error: 'invalid_scope', state });
      }
      const now = app.now();
      const signed = signRequest(
        {
          clientId: client.clientId,
          redirectUri: q.redirect_uri,
          state,
          scope,
          codeChallenge: q.code_challenge,
          expiresAt: now.getTime() + REQUEST_TTL_MS,
        },
        browserId(request, reply),
      );
      const user = signedInUser(request, now);
      return html(
        reply,
        200,
        consentPage({
          stylesheet,
          action: CARFAX_SANDBOX_PATHS.authorize,
          request: signed,
          clientName: CLIENT_NAME,
          signedInAs: user ? user.email : null,
          error: null,
          email: '',
        }),
      );
    },
  );

  // The consent form is the sandbox's own page (a form post with its own request id and browser
  // cookie), standing in for Carfax's site: not our web app's call.
  app.post(
    CARFAX_SANDBOX_PATHS.authorize,
    { config: { access: 'public', caller: 'protocol' } },
    async (request, reply) => {
      const form = ZConsentForm.safeParse(request.body);
      const now = app.now();
      const params = form.success
        ? openRequest(form.data.request, readCookie(request, BROWSER_COOKIE), now)
        : null;
      if (!form.success || !params) {
        return html(
          reply,
          400,
          messagePage(
            stylesheet,
            'Sign-in expired',
            'This sign-in page has expired or was not opened in this browser. Please go back to DealerPass and start again.',
          ),
        );
      }
      const client = await findSandboxClient(app.db, params.clientId);
      if (!client || !client.redirectUris.includes(params.redirectUri)) {
        return html(
          reply,
          400,
          messagePage(
            stylesheet,
            'Unknown application',
            'The application is no longer registered with the Carfax sandbox.',
          ),
        );
      }
      if (form.data.decision === 'deny') {
        return redirectBack(reply, params.redirectUri, {
          error: 'access_denied',
          state: params.state,
        });
      }
      let user = signedInUser(request, now);
      if (!user) {
        user = findSandboxUser(form.data.email ?? '', form.data.password ?? '');
        if (!user) {
          return html(
            reply,
            401,
            consentPage({
              stylesheet,
              action: CARFAX_SANDBOX_PATHS.authorize,
              request: form.data.request,
              clientName: CLIENT_NAME,
              signedInAs: null,
              error: 'The email or password is not right. Use one of the sandbox test users.',
              email: form.data.email ?? '',
            }),
          );
        }
        startSession(reply, user.id, now);
      }
      const code = await issueCode(app.db, {
        clientId: client.clientId,
        subject: user.id,
        redirectUri: params.redirectUri,
        codeChallenge: params.codeChallenge,
        scope: params.scope,
        now,
      });
      request.log.info({ carfaxSandbox: { subject: user.id } }, 'Carfax sandbox consent given');
      return redirectBack(reply, params.redirectUri, { code, state: params.state });
    },
  );

  /** The client of a token or revocation request: HTTP Basic, or the body's id and secret. */
  async function clientOf(request: FastifyRequest): Promise<SandboxClient | null> {
    const header = request.headers.authorization;
    const credentials = header?.startsWith('Basic ')
      ? basicCredentials(header.slice(6))
      : {
          id: formField(request.body, 'client_id'),
          secret: formField(request.body, 'client_secret'),
        };
    if (!credentials) return null;
    return authenticateSandboxClient(app.db, credentials.id, credentials.secret);
  }

  function oauthError(reply: FastifyReply, failure: OAuthFailure) {
    if (failure.status === 401) reply.header('www-authenticate', 'Basic realm="carfax-sandbox"');
    return reply
      .status(failure.status)
      .header('cache-control', 'no-store')
      .header('pragma', 'no-cache')
      .send({
        error: failure.error,
        error_description: failure.description,
        ...(failure.code ? { code: failure.code } : {}),
      });
  }

  const invalidClient: OAuthFailure = {
    status: 401,
    error: 'invalid_client',
    description: 'client authentication failed',
  };

  // Our own server's calls (in process) are not a client to limit; anyone else is.
  const serverCalls = {
    access: 'public' as const,
    caller: 'protocol' as const,
    rateLimit: {
      max: 120,
      timeWindow: '1 minute',
      allowList: (request: FastifyRequest) =>
        request.headers[INTERNAL_HEADER] === app.identity.internalToken,
    },
  };

  app.post(CARFAX_SANDBOX_PATHS.token, { config: serverCalls }, async (request, reply) => {
    const client = await clientOf(request);
    if (!client) return oauthError(reply, invalidClient);
    const field = (name: string) => formField(request.body, name);
    const body = {
      grant_type: field('grant_type'),
      code: field('code'),
      redirect_uri: field('redirect_uri'),
      code_verifier: field('code_verifier'),
      refresh_token: field('refresh_token'),
    };
    const now = app.now();
    let result: IssuedTokens | OAuthFailure;
    if (body.grant_type === 'authorization_code') {
      if (!body.code || !body.redirect_uri || !body.code_verifier) {
        return oauthError(reply, {
          status: 400,
          error: 'invalid_request',
          description: 'code, redirect_uri and code_verifier are required',
        });
      }
      result = await redeemCode(app.db, {
        clientId: client.clientId,
        code: body.code,
        redirectUri: body.redirect_uri,
        codeVerifier: body.code_verifier,
        now,
      });
    } else if (body.grant_type === 'refresh_token') {
      if (!body.refresh_token) {
        return oauthError(reply, {
          status: 400,
          error: 'invalid_request',
          description: 'refresh_token is required',
        });
      }
      result = await refreshGrant(app.db, {
        clientId: client.clientId,
        refreshToken: body.refresh_token,
        now,
      });
    } else {
      return oauthError(reply, {
        status: 400,
        error: 'unsupported_grant_type',
        description: 'authorization_code or refresh_token',
      });
    }
    if ('error' in result) return oauthError(reply, result);
    return reply.header('cache-control', 'no-store').header('pragma', 'no-cache').send(result);
  });

  app.post(CARFAX_SANDBOX_PATHS.revoke, { config: serverCalls }, async (request, reply) => {
    const client = await clientOf(request);
    if (!client) return oauthError(reply, invalidClient);
    const token = formField(request.body, 'token');
    if (!token)
      return oauthError(reply, {
        status: 400,
        error: 'invalid_request',
        description: 'token is required',
      });
    await revokeSandboxToken(app.db, { clientId: client.clientId, token, now: app.now() });
    return reply.status(200).header('cache-control', 'no-store').send();
  });

  /** Ends the sandbox's own sign-in and returns to a registered post-logout URI. */
  app.get(CARFAX_SANDBOX_PATHS.logout, { config: { access: 'public' } }, async (request, reply) => {
    const query = request.query as Record<string, string | undefined>;
    reply.clearCookie(SESSION_COOKIE, cookieOptions());
    const client = query.client_id ? await findSandboxClient(app.db, query.client_id) : null;
    if (client && query.returnTo && client.postLogoutRedirectUris.includes(query.returnTo)) {
      return reply.header('cache-control', 'no-store').redirect(query.returnTo, 303);
    }
    return html(
      reply,
      200,
      messagePage(stylesheet, 'Signed out', 'You are signed out of the Carfax sandbox.'),
    );
  });

  /** A protected resource: who the bearer token belongs to (shows that issued tokens work). */
  app.get(
    `${CARFAX_SANDBOX_MOUNT}/api/v1/account`,
    { config: { access: 'public' } },
    async (request, reply) => {
      const header = request.headers.authorization ?? '';
      const token = header.startsWith('Bearer ') ? header.slice(7) : '';
      if (!token || !(await sandboxAccessTokenActive(app.db, token, app.now()))) {
        return reply
          .status(401)
          .header('www-authenticate', 'Bearer error="invalid_token"')
          .send({ error: 'invalid_token', code: 'UNAUTHORIZED' });
      }
      return reply.header('cache-control', 'no-store').send({ active: true });
    },
  );
};

/**
 * RFC 6749 §2.3.1: Basic credentials are the percent-encoded id and secret, base64-encoded.
 * Anything that does not decode (no colon, a bad escape) or holds text no database column can
 * store is no client: null, never a thrown error.
 */
function basicCredentials(encoded: string): { id: string; secret: string } | null {
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const split = decoded.indexOf(':');
  if (split < 0) return null;
  let credentials: { id: string; secret: string };
  try {
    credentials = {
      id: decodeURIComponent(decoded.slice(0, split)),
      secret: decodeURIComponent(decoded.slice(split + 1)),
    };
  } catch {
    return null;
  }
  return findUnstorableText(credentials) === null ? credentials : null;
}

/** A parameter of an OAuth request body: a string, or absent (any other JSON value is absent). */
function formField(body: unknown, name: string): string | undefined {
  if (body === null || typeof body !== 'object' || !Object.hasOwn(body, name)) return undefined;
  const value = (body as Record<string, unknown>)[name];
  return typeof value === 'string' ? value : undefined;
}

export default carfaxSandboxRoutes;

import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ERROR_CODES, errorMessage } from '@dealerpass/domain/messages';
import {
  ZSignInRequestSchema,
  ZStaffSignInRequestSchema,
} from '@dealerpass/domain/schemas/sign-in';
import { AppError } from '../../errors/app-error.ts';
import {
  DEALER_CLIENT_ID,
  EMBEDDED_MOUNT,
  LEGACY_SUBJECT_PREFIX,
  NONCE_PROPERTY,
  STAFF_CLIENT_ID,
  STAFF_SUBJECT_PREFIX,
} from '../../identity/provider/embedded-provider.ts';
import { INTERNAL_HEADER } from '../../plugins/identity.ts';
import { findUnstorableText } from '../../plugins/text-input.ts';
import { pageContentSecurityPolicy } from '../../plugins/security-headers.ts';
import {
  authenticateLegacy,
  authenticateWithEmail,
  signInRefusal,
} from '../../services/identity/authenticate.ts';
import { redeemSignInGrant, SIGN_IN_GRANT_COOKIE } from '../../services/identity/sign-in-grant.ts';
import { authenticateStaff } from '../../services/admin/staff/authenticate-staff.ts';

const ZUidParams = z.object({ uid: z.string().regex(/^[\w-]{10,64}$/) });

/**
 * The embedded provider at /oidc (DECISIONS R6) and its sign-in interaction: the page is the web
 * app's (`/oidc/interaction/:uid`), the two JSON endpoints beside it are ours. Registered only when
 * the embedded provider is in use. Not wrapped in fastify-plugin: the form-body parser below must
 * stay inside this scope, so the rest of the API remains JSON-only.
 */
const oidcRoutes: FastifyPluginAsyncZod = async (app) => {
  const embedded = app.identity.provider;
  if (!embedded) return;
  const provider = embedded;
  const handle = provider.callback();

  // Form bodies are read here, so that the edge check on stored text (plugins/text-input.ts) sees
  // them as it sees every other body; the provider takes the text from `req.body` (its
  // documented fallback when a body was read before it).
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 56 * 1024 },
    (request, body, done) => {
      const text = String(body);
      (request.raw as IncomingMessage & { body?: string }).body = text;
      const fields = Object.fromEntries(new URLSearchParams(text));
      const at = findUnstorableText(fields);
      if (at === null) return done(null, undefined);
      done(
        new AppError(ERROR_CODES.VALIDATION_FAILED, {
          errors: [{ source: at, message: errorMessage(ERROR_CODES.VALIDATION_FAILED) }],
        }),
      );
    },
  );

  app.route({
    method: ['GET', 'POST', 'HEAD', 'OPTIONS'],
    url: `${EMBEDDED_MOUNT}/*`,
    config: {
      // The provider's own protocol endpoints (authorize, token, JWKS, revocation, end session):
      // OAuth clients and its own form posts, protected by OAuth's state, PKCE and client auth.
      access: 'public',
      caller: 'protocol',
      // The relying party's own calls (token, JWKS, revocation) are not a client to limit.
      rateLimit: {
        max: 120,
        timeWindow: '1 minute',
        allowList: (request) => request.headers[INTERNAL_HEADER] === app.identity.internalToken,
      },
    },
    handler: async (request, reply) => {
      const raw = request.raw as IncomingMessage & {
        originalUrl?: string;
        [NONCE_PROPERTY]?: string;
      };
      // Forwarded headers are trusted only from our relying party, or from a trusted proxy; the
      // provider believes them all (provider.proxy), so a proxied request's are replaced by what
      // Fastify read under TRUST_PROXY's rule (docs/decisions/030): never a client's own entry.
      if (request.headers[INTERNAL_HEADER] !== app.identity.internalToken) {
        delete raw.headers['x-forwarded-proto'];
        delete raw.headers['x-forwarded-host'];
        delete raw.headers['x-forwarded-for'];
        if (app.config.trustProxy !== false) {
          raw.headers['x-forwarded-proto'] = request.protocol;
          raw.headers['x-forwarded-host'] = request.host;
          raw.headers['x-forwarded-for'] = request.ip;
        }
      }
      const nonce = randomBytes(16).toString('base64');
      reply.hijack();
      for (const [name, value] of Object.entries(reply.getHeaders())) {
        if (value !== undefined) reply.raw.setHeader(name, value as string | string[]);
      }
      reply.raw.setHeader('content-security-policy', pageContentSecurityPolicy(app.config, nonce));
      reply.raw.setHeader('cache-control', 'no-store');
      raw[NONCE_PROPERTY] = nonce;
      raw.originalUrl = raw.url;
      raw.url = raw.url?.slice(EMBEDDED_MOUNT.length) || '/';
      await handle(raw, reply.raw);
    },
  });

  // The sign-in page itself is the web app's, unless this browser holds the one-time grant that a
  // first password gives (R6, docs/decisions/017): then the interaction ends here, signed in.
  app.get(
    `${EMBEDDED_MOUNT}/interaction/:uid`,
    { config: { access: 'public' }, schema: { params: ZUidParams } },
    async (request, reply) => {
      const cookies = request.headers.cookie ? app.parseCookie(request.headers.cookie) : {};
      const grant = cookies[SIGN_IN_GRANT_COOKIE];
      if (!grant) return reply.sendAppPage();
      reply.clearCookie(SIGN_IN_GRANT_COOKIE, {
        path: '/',
        httpOnly: true,
        secure: true,
        sameSite: 'lax',
      });
      const details = await provider.interactionDetails(request.raw, reply.raw).catch(() => null);
      if (!details || details.prompt.name !== 'login' || clientOf(details) !== 'dealer')
        return reply.sendAppPage();
      const identityId = await redeemSignInGrant(app.db, { grant, now: app.now() });
      if (!identityId) return reply.sendAppPage();
      request.log.info('signed in at the embedded provider with the grant of a first password');
      const redirectTo = await finishSignIn(request.raw, reply.raw, details, identityId);
      reply.header('cache-control', 'no-store');
      // The provider is mounted on our origin: a path, whatever host the request named.
      const resume = new URL(redirectTo, app.config.publicUrl);
      return reply.redirect(`${resume.pathname}${resume.search}`, 303);
    },
  );

  app.get(
    `${EMBEDDED_MOUNT}/interaction/:uid/details`,
    { config: { access: 'public' }, schema: { params: ZUidParams } },
    async (request, reply) => {
      const details = await interactionOrNotFound(request.raw, reply.raw);
      reply.header('cache-control', 'no-store');
      return {
        data: {
          uid: details.uid,
          prompt: details.prompt.name,
          // Which sign-in the page shows: the dealers' or the operator console's (decision 026).
          client: clientOf(details),
          loginHint:
            typeof details.params.login_hint === 'string' ? details.params.login_hint : null,
        },
      };
    },
  );

  app.post(
    `${EMBEDDED_MOUNT}/interaction/:uid/login`,
    {
      schema: { params: ZUidParams, body: ZSignInRequestSchema },
      config: { access: 'public', rateLimit: { max: 20, timeWindow: '1 minute' } },
    },
    async (request, reply) => {
      const details = await interactionOrNotFound(request.raw, reply.raw);
      // A dealer's password never signs in to the operator console's client.
      if (clientOf(details) !== 'dealer') throw expiredInteraction();
      const now = app.now();
      const body = request.body;
      let accountId: string;
      if (body.method === 'email') {
        const result = await authenticateWithEmail(app.db, {
          email: body.email,
          password: body.password,
          now,
          captcha: { verifier: app.captcha, token: body.recaptcha, remoteIp: request.ip },
          failures: app.failureBudgets,
        });
        if (!result.ok) throw signInRefusal(result.reason);
        accountId = result.identityId;
      } else {
        const result = await authenticateLegacy(app.db, {
          username: body.username,
          password: body.password,
          now,
          captcha: { verifier: app.captcha, token: body.recaptcha, remoteIp: request.ip },
          failures: app.failureBudgets,
        });
        if (!result.ok) {
          if (result.reason === 'migrated') throw new AppError(ERROR_CODES.MIGRATED_ACCOUNT_EXISTS);
          throw signInRefusal(result.reason);
        }
        accountId = `${LEGACY_SUBJECT_PREFIX}${result.userId}`;
      }
      request.log.info({ method: body.method }, 'signed in at the embedded provider');
      const redirectTo = await finishSignIn(request.raw, reply.raw, details, accountId);
      reply.header('cache-control', 'no-store');
      return { data: { redirectTo } };
    },
  );

  /** The operator console's sign-in (R12): staff e-mail and password, for the staff client only. */
  app.post(
    `${EMBEDDED_MOUNT}/interaction/:uid/staff-login`,
    {
      schema: { params: ZUidParams, body: ZStaffSignInRequestSchema },
      config: { access: 'public', rateLimit: { max: 20, timeWindow: '1 minute' } },
    },
    async (request, reply) => {
      const details = await interactionOrNotFound(request.raw, reply.raw);
      if (clientOf(details) !== 'staff') throw expiredInteraction();
      const body = request.body;
      const result = await authenticateStaff(app.db, {
        email: body.email,
        password: body.password,
        now: app.now(),
        captcha: { verifier: app.captcha, token: body.recaptcha, remoteIp: request.ip },
        failures: app.failureBudgets,
      });
      if (!result.ok) throw signInRefusal(result.reason);
      request.log.info({ staffId: result.staffId }, 'staff signed in at the embedded provider');
      const redirectTo = await finishSignIn(
        request.raw,
        reply.raw,
        details,
        `${STAFF_SUBJECT_PREFIX}${result.staffId}`,
      );
      reply.header('cache-control', 'no-store');
      return { data: { redirectTo } };
    },
  );

  function clientOf(details: { params: Record<string, unknown> }): 'dealer' | 'staff' | 'other' {
    const clientId = details.params.client_id;
    if (clientId === STAFF_CLIENT_ID) return 'staff';
    return clientId === DEALER_CLIENT_ID ? 'dealer' : 'other';
  }

  function expiredInteraction(): AppError {
    return new AppError(ERROR_CODES.NOT_FOUND, {
      message: 'This sign-in has expired. Please start again.',
    });
  }

  /**
   * Ends the interaction signed in as `accountId`. First-party client: consent to exactly what our
   * server asked for, in the same step. Answers where the browser goes back to the provider.
   */
  async function finishSignIn(
    req: IncomingMessage,
    res: ServerResponse,
    details: Awaited<ReturnType<typeof provider.interactionDetails>>,
    accountId: string,
  ): Promise<string> {
    const grant = new provider.Grant({ accountId, clientId: String(details.params.client_id) });
    grant.addOIDCScope(String(details.params.scope ?? 'openid'));
    const grantId = await grant.save();
    return provider.interactionResult(
      req,
      res,
      { login: { accountId }, consent: { grantId } },
      { mergeWithLastSubmission: false },
    );
  }

  async function interactionOrNotFound(req: IncomingMessage, res: ServerResponse) {
    try {
      return await provider.interactionDetails(req, res);
    } catch {
      throw expiredInteraction();
    }
  }
};

export default oidcRoutes;

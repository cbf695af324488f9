import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ERROR_CODES, errorMessage } from '@dealerpass/domain/messages';
import { ZSignInRequestSchema } from '@dealerpass/domain/schemas/sign-in';
import { AppError } from '../../errors/app-error.ts';
import {
  EMBEDDED_MOUNT,
  LEGACY_SUBJECT_PREFIX,
  NONCE_PROPERTY,
} from '../../identity/provider/embedded-provider.ts';
import { INTERNAL_HEADER } from '../../plugins/identity.ts';
import { findUnstorableText } from '../../plugins/text-input.ts';
import { pageContentSecurityPolicy } from '../../plugins/security-headers.ts';
import { authenticateLegacy, authenticateWithEmail } from '../../services/identity/authenticate.ts';

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
      // Forwarded headers are trusted only from our relying party, or from a trusted proxy.
      if (
        request.headers[INTERNAL_HEADER] !== app.identity.internalToken &&
        !app.config.trustProxy
      ) {
        delete raw.headers['x-forwarded-proto'];
        delete raw.headers['x-forwarded-host'];
        delete raw.headers['x-forwarded-for'];
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

  // The sign-in page itself is the web app's.
  app.get(
    `${EMBEDDED_MOUNT}/interaction/:uid`,
    { config: { access: 'public' }, schema: { params: ZUidParams } },
    async (_request, reply) => reply.sendAppPage(),
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
      const now = app.now();
      const body = request.body;
      let accountId: string;
      if (body.method === 'email') {
        const result = await authenticateWithEmail(app.db, {
          email: body.email,
          password: body.password,
          now,
        });
        if (!result.ok) throw signInError(result.reason);
        accountId = result.identityId;
      } else {
        const result = await authenticateLegacy(app.db, {
          username: body.username,
          password: body.password,
          now,
        });
        if (!result.ok) throw signInError(result.reason);
        accountId = `${LEGACY_SUBJECT_PREFIX}${result.userId}`;
      }
      request.log.info({ method: body.method }, 'signed in at the embedded provider');

      // First-party client: consent to exactly what our server asked for, in the same step.
      const grant = new provider.Grant({ accountId, clientId: String(details.params.client_id) });
      grant.addOIDCScope(String(details.params.scope ?? 'openid'));
      const grantId = await grant.save();
      const redirectTo = await provider.interactionResult(
        request.raw,
        reply.raw,
        { login: { accountId }, consent: { grantId } },
        { mergeWithLastSubmission: false },
      );
      reply.header('cache-control', 'no-store');
      return { data: { redirectTo } };
    },
  );

  async function interactionOrNotFound(req: IncomingMessage, res: ServerResponse) {
    try {
      return await provider.interactionDetails(req, res);
    } catch {
      throw new AppError(ERROR_CODES.NOT_FOUND, {
        message: 'This sign-in has expired. Please start again.',
      });
    }
  }
};

function signInError(reason: 'invalid' | 'locked' | 'migrated'): AppError {
  if (reason === 'locked') {
    return new AppError(ERROR_CODES.RATE_LIMITED, {
      message:
        'Too many failed sign-ins for this account. Please try again in an hour or reset your password.',
    });
  }
  if (reason === 'migrated') return new AppError(ERROR_CODES.MIGRATED_ACCOUNT_EXISTS);
  const message = errorMessage(ERROR_CODES.INVALID_CREDENTIALS);
  return new AppError(ERROR_CODES.INVALID_CREDENTIALS, {
    message,
    errors: [{ source: 'password', message }],
  });
}

export default oidcRoutes;

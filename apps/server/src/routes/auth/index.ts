import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sameOriginPath } from '@dealerpass/domain/validation/same-origin-path';
import { CSRF_COOKIE } from '../../plugins/csrf.ts';
import { CLEAR_SITE_DATA } from '../../plugins/security-headers.ts';
import { LOGIN_CALLBACK_PATH, LOGOUT_CALLBACK_PATHS } from '../../plugins/identity.ts';
import { sessionOf } from '../../plugins/session.ts';
import { completeSignIn } from '../../services/session/complete-sign-in.ts';
import { startLoginTransaction } from '../../services/session/login-transactions.ts';
import {
  endSession,
  hashSessionId,
  type SessionContext,
} from '../../services/session/session-store.ts';

const LOGIN_COOKIE = '__Host-dp-login';
/** The web app's page that says the dealer is signed out (001 §2). */
const SIGNED_OUT_PAGE = '/authlogout';
const COOKIE_OPTIONS = { path: '/', httpOnly: true, secure: true, sameSite: 'lax' } as const;

/** Where a failed or refused sign-in lands (the web app explains each `err`). */
export const SIGN_IN_FAILED = '/authlogin?err=3';
export const NO_ACCOUNT = '/authlogin?err=4';

const ZLoginQuery = z.object({
  hint: z.string().max(254).optional(),
  returnTo: z.string().max(2048).optional(),
});

/** Where a sign-in lands when no usable return target came with it. */
export const DEFAULT_RETURN_TO = '/account';

/** Only a path of our own origin (the domain's `sameOriginPath`); anything else lands on /account. */
export function safeReturnTo(value: string | undefined): string {
  return (value && sameOriginPath(value)) || DEFAULT_RETURN_TO;
}

const LOGIN_PATHS: Record<string, SessionContext> = {
  '/login': 'web',
  '/app/login': 'app',
  '/af/login': 'af',
  '/ext/login': 'ext',
};

/**
 * Sign-in and sign-out, our server being the relying party (DECISIONS R6, docs/decisions/009).
 * The browser never sees a provider token: they are exchanged, kept and revoked here.
 */
const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const { rp } = app.identity;

  for (const [path, context] of Object.entries(LOGIN_PATHS)) {
    app.get(
      path,
      {
        schema: { querystring: ZLoginQuery },
        config: { access: 'public', rateLimit: { max: 30, timeWindow: '1 minute' } },
      },
      async (request, reply) => {
        const browserSecret = randomBytes(32).toString('base64url');
        const checks = await startLoginTransaction(app.db, {
          browserSecret,
          context,
          returnTo: safeReturnTo(request.query.returnTo),
          now: app.now(),
        });
        const url = await rp.authorizationUrl({ ...checks, loginHint: request.query.hint });
        reply.setCookie(LOGIN_COOKIE, browserSecret, { ...COOKIE_OPTIONS, maxAge: 600 });
        reply.header('cache-control', 'no-store');
        return reply.redirect(url, 303);
      },
    );
  }

  app.get(
    LOGIN_CALLBACK_PATH,
    { config: { access: 'public', rateLimit: { max: 30, timeWindow: '1 minute' } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      reply.clearCookie(LOGIN_COOKIE, COOKIE_OPTIONS);
      const cookies = request.headers.cookie ? app.parseCookie(request.headers.cookie) : {};
      const outcome = await completeSignIn(app.deps.signIn, {
        callbackUrl: new URL(request.url, app.config.publicUrl),
        browserSecret: cookies[LOGIN_COOKIE],
        log: request.log,
      });
      if (outcome.kind === 'refused') return reply.redirect(SIGN_IN_FAILED, 303);
      if (outcome.kind === 'no-account') return reply.redirect(NO_ACCOUNT, 303);
      app.setSessionCookie(reply, outcome.rawSessionId);
      // A new CSRF secret with the new session: the next page issues it.
      reply.clearCookie(CSRF_COOKIE, COOKIE_OPTIONS);
      // Checked again on the way out: a transaction stored before a stricter rule still lands home.
      return reply.redirect(safeReturnTo(outcome.returnTo), 303);
    },
  );

  /**
   * GET /api/auth/session: what the web app may know about its own session. The DealerPass ID
   * banner (000 §4) shows only when the sign-in did not come through a DealerPass ID.
   */
  app.get(
    '/api/auth/session',
    {
      config: { access: 'session' },
      schema: {
        operationId: 'getSession',
        summary: 'What the web app may know about its own session',
        tags: ['Session'],
        response: {
          200: z.object({
            data: z.object({
              context: z.enum(['web', 'app', 'af', 'ext']),
              loggedInViaKarId: z.boolean(),
            }),
          }),
        },
      },
    },
    async (request) => {
      const session = sessionOf(request);
      return { data: { context: session.context, loggedInViaKarId: session.viaKarId } };
    },
  );

  app.post(
    '/api/auth/logout',
    // Public: signing out without a (live) session still clears the cookie and answers.
    {
      config: { access: 'public', rateLimit: { max: 30, timeWindow: '1 minute' } },
      schema: {
        operationId: 'signOut',
        summary: 'Sign out: end the session, and where the browser goes next',
        tags: ['Session'],
        response: { 200: z.object({ data: z.object({ redirectTo: z.string() }) }) },
      },
    },
    async (request, reply) => {
      const redirectTo = await signOut(request, reply);
      // Signed out here only (no provider to visit): this is the sign-out's last answer of ours.
      if (redirectTo === SIGNED_OUT_PAGE) reply.header('clear-site-data', CLEAR_SITE_DATA);
      return { data: { redirectTo } };
    },
  );

  // The provider sends the browser here once it has ended its own session: the end of sign-out,
  // where the browser may forget the site's cookies, storage and cache (issue 27, item 9).
  for (const path of Object.values(LOGOUT_CALLBACK_PATHS)) {
    app.get(path, { config: { access: 'public' } }, async (_request, reply) =>
      reply.header('clear-site-data', CLEAR_SITE_DATA).redirect(SIGNED_OUT_PAGE, 303),
    );
  }

  /** Ends our session, revokes the provider's tokens, and returns where the browser goes next. */
  async function signOut(request: FastifyRequest, reply: FastifyReply): Promise<string> {
    const rawId = app.readSessionCookie(request);
    app.setSessionCookie(reply, null);
    if (!rawId) return SIGNED_OUT_PAGE;
    const ended = await endSession(app.db, hashSessionId(rawId), app.now(), app.keys.encryption);
    if (!ended) return SIGNED_OUT_PAGE;
    await rp
      .revoke(ended.tokens)
      .catch((error: unknown) => request.log.warn({ err: error }, 'token revocation failed'));
    request.log.info('session ended by sign-out');
    try {
      return await rp.endSessionUrl({
        idToken: ended.tokens.idToken,
        postLogoutRedirectUri: `${app.config.publicUrl}${LOGOUT_CALLBACK_PATHS[ended.context]}`,
      });
    } catch (error) {
      request.log.warn({ err: error }, 'no end-session URL; signing out locally only');
      return SIGNED_OUT_PAGE;
    }
  }
};

export default authRoutes;

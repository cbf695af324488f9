import { randomBytes } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ERROR_CODES } from '@dealerpass/domain/messages';
import {
  ZChangeStaffRoleRequestSchema,
  ZCreateEmbeddedStaffMemberRequestSchema,
  ZCreateStaffMemberRequestSchema,
  ZResetSecondFactorRequestSchema,
  ZSetStaffDisabledRequestSchema,
  ZStaffMemberSchema,
  ZStaffSessionSchema,
} from '@dealerpass/domain/admin/staff-members';
import { ZTotpCodeRequestSchema } from '@dealerpass/domain/admin/totp';
import { AppError } from '../../errors/app-error.ts';
import { CSRF_COOKIE } from '../../plugins/csrf.ts';
import { CLEAR_SITE_DATA } from '../../plugins/security-headers.ts';
import { STAFF_LOGIN_CALLBACK_PATH, STAFF_LOGOUT_CALLBACK_PATH } from '../../plugins/identity.ts';
import { staffOf } from '../../plugins/staff-session.ts';
import { startLoginTransaction } from '../../services/session/login-transactions.ts';
import { completeStaffSignIn } from '../../services/admin/staff/complete-staff-sign-in.ts';
import {
  resetSecondFactor,
  startEnrolment,
  verifySecondFactor,
  type SecondFactorDeps,
} from '../../services/admin/staff/second-factor.ts';
import { changeStaffRole } from '../../services/admin/staff/change-staff-role.ts';
import { setStaffDisabled } from '../../services/admin/staff/set-staff-disabled.ts';
import { createStaffMember, listStaffMembers } from '../../services/admin/staff/staff-members.ts';
import {
  endStaffSession,
  hashStaffSessionId,
  type StaffSession,
} from '../../services/admin/staff/staff-session-store.ts';

const LOGIN_COOKIE = '__Host-dp-staff-login';
const COOKIE_OPTIONS = { path: '/', httpOnly: true, secure: true, sameSite: 'lax' } as const;
/** Where the console lands after the provider: it asks for the second factor there. */
const CONSOLE_HOME = '/admin';
const SIGN_IN_FAILED = '/admin/signed-out?err=sign-in';
/** Marks the signed-out page once the browser has been told to clear the site's data. */
const SIGNED_OUT_MARK = 'cleared';

const sessionAnswer = (staff: StaffSession) => ({
  email: staff.email,
  name: staff.name,
  role: staff.role,
  secondFactor: staff.secondFactor,
  enrolled: staff.enrolled,
});

/**
 * The operator console's sign-in, second factor and staff members (R12, docs/decisions/026).
 * The browser signs in at the staff client of the identity provider, then proves a TOTP code
 * here; the provider's tokens stay on the server, as the dealers' do.
 */
const adminAuthRoutes: FastifyPluginAsyncZod = async (app) => {
  const rp = app.identity.staffRp;
  const external = app.config.staffIdentity.kind === 'external';
  const secondFactor: SecondFactorDeps = {
    db: app.db,
    encryptionKey: app.keys.encryption,
    now: app.now,
    failures: app.failureBudgets,
    issuer: `${app.config.company.name} console`,
  };
  const STAFF_PENDING = { access: 'staff-pending' } as const;

  app.get(
    '/admin/login',
    { config: { access: 'public', rateLimit: { max: 30, timeWindow: '1 minute' } } },
    async (_request, reply) => {
      const browserSecret = randomBytes(32).toString('base64url');
      const checks = await startLoginTransaction(app.db, {
        browserSecret,
        context: 'staff',
        returnTo: CONSOLE_HOME,
        now: app.now(),
      });
      const url = await rp.authorizationUrl(checks);
      reply.setCookie(LOGIN_COOKIE, browserSecret, { ...COOKIE_OPTIONS, maxAge: 600 });
      reply.header('cache-control', 'no-store');
      return reply.redirect(url, 303);
    },
  );

  app.get(
    STAFF_LOGIN_CALLBACK_PATH,
    { config: { access: 'public', rateLimit: { max: 30, timeWindow: '1 minute' } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      reply.clearCookie(LOGIN_COOKIE, COOKIE_OPTIONS);
      const cookies = request.headers.cookie ? app.parseCookie(request.headers.cookie) : {};
      const outcome = await completeStaffSignIn(app.deps.staffSignIn, {
        callbackUrl: new URL(request.url, app.config.publicUrl),
        browserSecret: cookies[LOGIN_COOKIE],
        log: request.log,
      });
      if (outcome.kind === 'refused') return reply.redirect(SIGN_IN_FAILED, 303);
      app.setStaffCookie(reply, outcome.rawSessionId);
      reply.clearCookie(CSRF_COOKIE, COOKIE_OPTIONS);
      return reply.redirect(CONSOLE_HOME, 303);
    },
  );

  app.get(
    '/api/admin/session',
    {
      config: STAFF_PENDING,
      schema: {
        operationId: 'getStaffSession',
        summary: 'The console’s own session: who, which role, whether the second factor is done',
        tags: ['Admin'],
        response: { 200: z.object({ data: ZStaffSessionSchema }) },
      },
    },
    async (request) => ({ data: sessionAnswer(staffOf(request)) }),
  );

  app.post(
    '/api/admin/session/enrolment',
    {
      config: { ...STAFF_PENDING, rateLimit: { max: 10, timeWindow: '1 minute' } },
      schema: {
        operationId: 'offerStaffAuthenticator',
        summary: 'Offer an authenticator secret to a member who has none (first sign-in)',
        tags: ['Admin'],
        errors: [409],
        response: {
          200: z.object({ data: z.object({ secret: z.string(), otpauthUri: z.string() }) }),
        },
      },
    },
    async (request) => ({ data: await startEnrolment(secondFactor, staffOf(request)) }),
  );

  app.post(
    '/api/admin/session/verify',
    {
      config: { ...STAFF_PENDING, rateLimit: { max: 10, timeWindow: '1 minute' } },
      bodyLimit: 1024,
      schema: {
        operationId: 'verifyStaffCode',
        summary: 'Verify a TOTP code: the session opens the console (enrols the secret if new)',
        tags: ['Admin'],
        body: ZTotpCodeRequestSchema,
        errors: [400],
        response: { 200: z.object({ data: ZStaffSessionSchema }) },
      },
    },
    async (request, reply) => {
      const staff = staffOf(request);
      const outcome = await verifySecondFactor(secondFactor, staff, request.body.code);
      if (outcome === 'locked') {
        app.setStaffCookie(reply, null);
        throw new AppError(ERROR_CODES.UNAUTHORIZED, {
          message: 'Too many wrong codes. Sign in again in an hour.',
        });
      }
      if (outcome === 'invalid') {
        throw new AppError(ERROR_CODES.TOTP_INVALID, {
          errors: [{ source: 'code', message: 'That code is not valid. Try the current one.' }],
        });
      }
      return { data: { ...sessionAnswer(staff), secondFactor: true, enrolled: true } };
    },
  );

  app.post(
    '/api/admin/logout',
    {
      config: { access: 'public', rateLimit: { max: 30, timeWindow: '1 minute' } },
      schema: {
        operationId: 'signOutStaff',
        summary: 'Sign out of the console, and where the browser goes next',
        tags: ['Admin'],
        response: { 200: z.object({ data: z.object({ redirectTo: z.string() }) }) },
      },
    },
    async (request, reply) => {
      const rawId = app.readStaffCookie(request);
      app.setStaffCookie(reply, null);
      const signedOut = STAFF_LOGOUT_CALLBACK_PATH;
      if (!rawId) return { data: { redirectTo: signedOut } };
      const tokens = await endStaffSession(
        app.db,
        hashStaffSessionId(rawId),
        app.now(),
        app.keys.encryption,
      );
      if (!tokens) return { data: { redirectTo: signedOut } };
      await rp
        .revoke(tokens)
        .catch((error: unknown) => request.log.warn({ err: error }, 'token revocation failed'));
      try {
        const redirectTo = await rp.endSessionUrl({
          idToken: tokens.idToken,
          postLogoutRedirectUri: `${app.config.publicUrl}${STAFF_LOGOUT_CALLBACK_PATH}`,
        });
        return { data: { redirectTo } };
      } catch (error) {
        request.log.warn({ err: error }, 'no end-session URL; signing out locally only');
        return { data: { redirectTo: signedOut } };
      }
    },
  );

  // Where every staff sign-out ends (the provider's redirect, or ours when only we had a session):
  // the browser forgets the site's cookies, storage and cache there, on a redirect to the page,
  // so the page's own CSRF cookie is set after the clearing (issue 27, item 9). A failed sign-in
  // lands on the page with `err` and clears nothing.
  app.get(
    STAFF_LOGOUT_CALLBACK_PATH,
    { config: { access: 'public', rateLimit: { max: 30, timeWindow: '1 minute' } } },
    async (request, reply) => {
      const query = request.query as Record<string, unknown>;
      if ('err' in query || SIGNED_OUT_MARK in query) return reply.sendAppPage();
      return reply
        .header('clear-site-data', CLEAR_SITE_DATA)
        .redirect(`${STAFF_LOGOUT_CALLBACK_PATH}?${SIGNED_OUT_MARK}`, 303);
    },
  );

  app.get(
    '/api/admin/staff',
    {
      config: { access: { staff: 'admin' } },
      schema: {
        operationId: 'listStaff',
        summary: 'Every staff member, with role and whether an authenticator is enrolled',
        tags: ['Admin'],
        response: { 200: z.object({ data: z.array(ZStaffMemberSchema) }) },
      },
    },
    async () => ({ data: await listStaffMembers(app.db) }),
  );

  app.post(
    '/api/admin/staff',
    {
      config: { access: { staff: 'admin' } },
      bodyLimit: 4 * 1024,
      schema: {
        operationId: 'addStaffMember',
        summary: 'Add a staff member (admin)',
        tags: ['Admin'],
        body: external ? ZCreateStaffMemberRequestSchema : ZCreateEmbeddedStaffMemberRequestSchema,
        errors: [400, 409],
        response: {
          201: z.object({ data: z.object({ auditId: z.number(), staffId: z.string() }) }),
        },
      },
    },
    async (request, reply) => {
      const created = await createStaffMember(app.db, {
        actor: staffOf(request),
        request: request.body,
        now: app.now(),
        embedded: !external,
      });
      return reply.status(201).send({ data: created });
    },
  );

  app.post(
    '/api/admin/staff/:staffId/reset-second-factor',
    {
      config: { access: { staff: 'admin' } },
      bodyLimit: 4 * 1024,
      schema: {
        operationId: 'resetStaffAuthenticator',
        summary: 'Forget a member’s authenticator and end their sessions (admin)',
        tags: ['Admin'],
        params: z.object({ staffId: z.uuid() }),
        body: ZResetSecondFactorRequestSchema,
        errors: [404],
        response: { 200: z.object({ data: z.object({ auditId: z.number() }) }) },
      },
    },
    async (request) => ({
      data: await resetSecondFactor(app.db, {
        actor: staffOf(request),
        staffId: request.params.staffId,
        reason: request.body.reason,
        requestKey: request.body.requestKey,
        now: app.now(),
      }),
    }),
  );

  app.post(
    '/api/admin/staff/:staffId/disabled',
    {
      config: { access: { staff: 'admin' } },
      bodyLimit: 4 * 1024,
      schema: {
        operationId: 'setStaffDisabled',
        summary: 'Disable a member (their sessions end at once; no sign-in) or enable them (admin)',
        tags: ['Admin'],
        params: z.object({ staffId: z.uuid() }),
        body: ZSetStaffDisabledRequestSchema,
        // 404: no such member; 409 (ACTION_NOT_ALLOWED, with its text): an admin disabling
        // themself, the last admin who can sign in, nothing to change, or a key another
        // action used.
        errors: [404, 409],
        response: { 200: z.object({ data: z.object({ auditId: z.number() }) }) },
      },
    },
    async (request) => ({
      data: await setStaffDisabled(app.db, {
        actor: staffOf(request),
        staffId: request.params.staffId,
        request: request.body,
        now: app.now(),
      }),
    }),
  );

  app.post(
    '/api/admin/staff/:staffId/role',
    {
      config: { access: { staff: 'admin' } },
      bodyLimit: 4 * 1024,
      schema: {
        operationId: 'setStaffRole',
        summary: 'Change a member’s role: support, billing or admin (admin)',
        tags: ['Admin'],
        params: z.object({ staffId: z.uuid() }),
        body: ZChangeStaffRoleRequestSchema,
        // 404: no such member; 409 (ACTION_NOT_ALLOWED, with its text): the last admin who can
        // sign in made support or billing, the role the member has, or a key another action used.
        errors: [404, 409],
        response: { 200: z.object({ data: z.object({ auditId: z.number() }) }) },
      },
    },
    async (request) => ({
      data: await changeStaffRole(app.db, {
        actor: staffOf(request),
        staffId: request.params.staffId,
        request: request.body,
        now: app.now(),
      }),
    }),
  );
};

export default adminAuthRoutes;

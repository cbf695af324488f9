import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ERROR_CODES, errorMessage } from '@dealerpass/domain/messages';
import {
  ZForgotPasswordRequestSchema,
  ZResetPasswordRequestSchema,
  ZSetPasswordRequestSchema,
} from '@dealerpass/domain/schemas/identity';
import { AppError } from '../../errors/app-error.ts';
import { requestPasswordReset } from '../../services/identity/request-password-reset.ts';
import { emailAccountKey } from '../../services/identity/sign-in-failures.ts';
import { setPasswordWithToken } from '../../services/identity/set-password-with-token.ts';
import {
  SIGN_IN_GRANT_COOKIE,
  SIGN_IN_GRANT_TTL_MINUTES,
} from '../../services/identity/sign-in-grant.ts';

/** Per client address: enough for a person retyping a password, too few to guess links. */
const PASSWORD_RATE_LIMIT = { max: 20, timeWindow: '10 minutes' };
const FORGOT_RATE_LIMIT = { max: 10, timeWindow: '10 minutes' };

/**
 * The DealerPass ID password links (docs/decisions/009, 001 §8): set a password from the
 * verification e-mail, reset one from the forgot-password e-mail, and ask for that e-mail.
 */
const identityRoutes: FastifyPluginAsyncZod = async (app) => {
  // The verification link sets a first password; the forgot-password link replaces one. Same rules.
  const passwordLinks = [
    {
      url: '/api/identity/password/set',
      schema: ZSetPasswordRequestSchema,
      purpose: 'set-password',
      operationId: 'setFirstPassword',
      summary: 'Set the first password from the verification e-mail’s link (and sign in)',
    },
    {
      url: '/api/identity/password/reset',
      schema: ZResetPasswordRequestSchema,
      purpose: 'reset-password',
      operationId: 'resetPassword',
      summary: 'Replace the password from the forgot-password e-mail’s link',
    },
  ] as const;
  for (const link of passwordLinks) {
    app.post(
      link.url,
      {
        schema: {
          operationId: link.operationId,
          summary: link.summary,
          tags: ['Identity'],
          body: link.schema,
          response: { 200: z.object({ data: z.object({ email: z.string() }) }) },
        },
        bodyLimit: 4 * 1024,
        config: { access: 'public', rateLimit: PASSWORD_RATE_LIMIT },
      },
      async (request, reply) => {
        // R6: a first password signs in at once, through the embedded provider's normal sign-in.
        const signIn = link.purpose === 'set-password' && app.identity.provider !== null;
        const { email, endedSessionTokens, signInGrant } = await setPasswordWithToken(app.db, {
          token: request.body.token,
          password: request.body.password,
          purpose: link.purpose,
          now: app.now(),
          encryptionKey: app.keys.encryption,
          signIn,
        });
        request.log.info({ purpose: link.purpose }, 'identity password set from an e-mailed link');
        // The link proved control of the account: failures counted in Redis are lifted too (the
        // database's were in the same transaction).
        if (app.redis) await app.failureBudgets.clear(emailAccountKey(email));
        // Issue 13.7: the sessions the new password ended lose their provider tokens too.
        for (const tokens of endedSessionTokens) {
          await app.identity.rp
            .revoke(tokens)
            .catch((error: unknown) =>
              request.log.warn(
                { err: error },
                'revoking a session ended by a password change failed',
              ),
            );
        }
        if (endedSessionTokens.length > 0) {
          request.log.info(
            { count: endedSessionTokens.length },
            'sessions ended by a password change',
          );
        }
        if (signInGrant) {
          reply.setCookie(SIGN_IN_GRANT_COOKIE, signInGrant, {
            path: '/',
            httpOnly: true,
            secure: true,
            sameSite: 'lax',
            maxAge: SIGN_IN_GRANT_TTL_MINUTES * 60,
          });
        }
        return { data: { email } };
      },
    );
  }

  app.post(
    '/api/identity/password/forgot',
    {
      schema: {
        operationId: 'sendForgotPasswordMail',
        summary: 'Send the forgot-password e-mail',
        tags: ['Identity'],
        body: ZForgotPasswordRequestSchema,
        // 404: no DealerPass ID has that address (001 §8's text).
        errors: [404],
        response: { 200: z.object({ data: z.object({ sent: z.literal(true) }) }) },
      },
      bodyLimit: 16 * 1024,
      config: { access: 'public', rateLimit: FORGOT_RATE_LIMIT },
    },
    async (request) => {
      const { found } = await requestPasswordReset(
        app.deps.passwordReset,
        request.body,
        request.ip,
        app.now(),
      );
      if (!found) {
        throw new AppError(ERROR_CODES.USERNAME_NOT_FOUND, {
          errors: [{ source: 'email', message: errorMessage(ERROR_CODES.USERNAME_NOT_FOUND) }],
        });
      }
      void app.mail.kick();
      return { data: { sent: true as const } };
    },
  );
};

export default identityRoutes;

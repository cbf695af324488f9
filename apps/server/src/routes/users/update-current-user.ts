import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ERROR_CODES } from '@dealerpass/domain/messages';
import { ZUpdateCurrentUserRequestSchema } from '@dealerpass/domain/schemas/profile';
import { AppError } from '../../errors/app-error.ts';
import { saveAutoCheckSettings } from '../../services/autocheck/save-autocheck-settings.ts';
import { refuseBlockedAccount } from '../../services/payment-history/refuse-blocked-account.ts';
import { ZCurrentUserSchema, serializeUser } from '../../services/users/serialize-user.ts';

/**
 * `PUT /api/users/current` (000 §7): validated with the form's own schema. This version applies
 * the AutoCheck settings (issue 8) through `saveAutoCheckSettings`; the profile fields
 * (alternate e-mail and phone, issue 7) join it here. Answers the user as GET does.
 */
const updateCurrentUserRoute: FastifyPluginAsyncZod = async (app) => {
  const messageVars = { company: app.config.company.name, phone: app.config.company.supportPhone };
  app.put(
    '/api/users/current',
    {
      preHandler: app.requireSession,
      bodyLimit: 16 * 1024,
      config: { rateLimit: { max: 30, timeWindow: '1 minute' } },
      schema: {
        body: ZUpdateCurrentUserRequestSchema,
        response: { 200: z.object({ data: ZCurrentUserSchema }) },
      },
    },
    async (request) => {
      if (!request.session) throw new AppError(ERROR_CODES.UNAUTHORIZED);
      const { userId } = request.session;
      await refuseBlockedAccount(app.db, userId, messageVars);
      const row = await saveAutoCheckSettings(
        {
          db: app.db,
          verifier: app.autoCheck,
          encryptionKey: app.keys.encryption,
          messageVars,
          log: request.log,
        },
        userId,
        request.body,
      );
      return { data: serializeUser(row) };
    },
  );
};

export default updateCurrentUserRoute;

import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ACCOUNT_ROUTES } from '@dealerpass/domain/account/account-routes';
import { ZUpdateCurrentUserRequestSchema } from '@dealerpass/domain/schemas/profile';
import { sessionOf } from '../../plugins/session.ts';
import { saveAutoCheckSettings } from '../../services/autocheck/save-autocheck-settings.ts';
import { updateAlternateContact } from '../../services/users/update-alternate-contact.ts';
import {
  businessToday,
  ZCurrentUserSchema,
  serializeUser,
} from '../../services/users/serialize-user.ts';

/** 000 §7: the profile save adds `verifyAutoCheckCredentials=false`; it may come as a query flag. */
const ZUpdateCurrentUserQuerySchema = z.object({
  verifyAutoCheckCredentials: z.enum(['true', 'false']).optional(),
});

/**
 * `PUT /api/users/current` (000 §5, §7; docs/decisions/014). The body is the merged profile the
 * web app sends, validated with the domain's schema (unknown keys are dropped by it); of what it
 * carries only the alternate e-mail and the alternate phone are written, and the AutoCheck
 * settings when the AutoCheck page sends them (issue 8, docs/decisions/015: verified with
 * AutoCheck first, the password sealed). Every other field (name, address, status, card,
 * subscriptions…) is ignored, never written.
 */
export function registerUpdateCurrentUser(app: FastifyInstance): void {
  app.withTypeProvider<ZodTypeProvider>().put(
    '/api/users/current',
    {
      // The query flag joins the body before validation, so the schema's AutoCheck rule sees it.
      preValidation: async (request) => {
        const flag = (request.query as { verifyAutoCheckCredentials?: unknown })
          .verifyAutoCheckCredentials;
        const body = request.body;
        if ((flag === 'false' || flag === 'true') && body && typeof body === 'object') {
          request.body = { ...body, verifyAutoCheckCredentials: flag === 'true' };
        }
      },
      bodyLimit: 16 * 1024,
      config: {
        access: { page: ACCOUNT_ROUTES.profile },
        rateLimit: { max: 30, timeWindow: '1 minute' },
      },
      schema: {
        operationId: 'updateCurrentUser',
        summary:
          'Save the alternate contact, or the AutoCheck credentials (checked with AutoCheck)',
        tags: ['Account'],
        // 409: the alternate address is in use (ALT_EMAIL_IN_USE); 503: AutoCheck unavailable.
        errors: [409, 503],
        querystring: ZUpdateCurrentUserQuerySchema,
        body: ZUpdateCurrentUserRequestSchema,
        response: { 200: z.object({ data: ZCurrentUserSchema }) },
      },
    },
    async (request) => {
      const { userId } = sessionOf(request);
      // The AutoCheck part first: it is the one that can be refused by a third party, and a
      // refusal must leave the profile untouched too. A profile save (verify=false) skips it.
      await saveAutoCheckSettings(app.deps.autoCheck, userId, request.body, request.log);
      const { altEmail, altPhone } = request.body;
      const row = await updateAlternateContact(app.db, userId, { altEmail, altPhone }, app.now());
      request.log.info('profile updated');
      return { data: serializeUser(row, businessToday(app)) };
    },
  );
}

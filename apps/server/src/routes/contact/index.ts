import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZContactUsRequestSchema } from '@dealerpass/domain/schemas/contact';
import { submitContactRequest } from '../../services/contact/submit-contact-request.ts';

/** POST /api/v2/contactUs (001 §3, §7): the same schema as the form, a captcha, a row and a mail. */
const contactRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/v2/contactUs',
    {
      schema: {
        summary: 'Send a contact request (stored, and mailed to support)',
        tags: ['Platform'],
        body: ZContactUsRequestSchema,
        response: { 201: z.object({ data: z.object({ id: z.string() }) }) },
      },
      bodyLimit: 16 * 1024,
      config: { access: 'public', rateLimit: { max: 5, timeWindow: '10 minutes' } },
    },
    async (request, reply) => {
      const result = await submitContactRequest(
        {
          db: app.db,
          captcha: app.captcha,
          mailKind: app.mail.transport.kind,
          supportAddress: app.config.mail.supportAddress,
          companyName: app.config.company.name,
        },
        request.body,
        request.ip,
      );
      void app.mail.kick();
      request.log.info({ contactRequestId: result.id }, 'contact request stored');
      return reply.status(201).send({ data: { id: result.id } });
    },
  );
};

export default contactRoutes;

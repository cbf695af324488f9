import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZClientLogRequestSchema } from '@dealerpass/domain/schemas/client-log';
import { scrubUrl } from '../../lib/scrub.ts';

/**
 * POST /api/log (001 §7): the web app's own reports (403 failures, events, debug notes) written to
 * the structured log under `client`, with anything that looks like a credential in a URL masked.
 */
const logRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/log',
    {
      schema: {
        operationId: 'writeClientLog',
        summary: 'Write a report of the web app to the server log',
        tags: ['Platform'],
        body: ZClientLogRequestSchema,
        response: { 204: z.undefined().describe('Logged') },
      },
      bodyLimit: 8 * 1024,
      config: { access: 'public', rateLimit: { max: 60, timeWindow: '1 minute' } },
    },
    async (request, reply) => {
      const entry = { ...request.body } as Record<string, unknown>;
      if (typeof entry.url === 'string') entry.url = scrubUrl(entry.url);
      request.log.info({ client: entry }, 'client log');
      return reply.status(204).send();
    },
  );
};

export default logRoutes;

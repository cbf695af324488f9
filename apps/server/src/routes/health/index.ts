import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

const ZHealthSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  database: z.object({
    engine: z.enum(['pglite', 'postgres']),
    status: z.enum(['up', 'down']),
    latencyMs: z.number().optional(),
  }),
});

/** GET /api/health: is the server up, and can it reach its database? 503 when it cannot. */
const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/health',
    {
      config: { access: 'public', rateLimit: false },
      schema: {
        summary: 'Whether the server is up and reaches its database',
        tags: ['Platform'],
        response: {
          200: ZHealthSchema,
          503: ZHealthSchema.describe('The database cannot be reached'),
        },
      },
    },
    async (_request, reply) => {
      const started = performance.now();
      try {
        await app.database.ping();
        return {
          status: 'ok' as const,
          database: {
            engine: app.database.engine,
            status: 'up' as const,
            latencyMs: Math.round(performance.now() - started),
          },
        };
      } catch (error) {
        app.log.error({ err: error }, 'database health check failed');
        return reply
          .status(503)
          .send({ status: 'degraded', database: { engine: app.database.engine, status: 'down' } });
      }
    },
  );
};

export default healthRoutes;

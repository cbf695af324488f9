import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { pendingMigrations } from '../../db/migrate.ts';

const ZHealthSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  database: z.object({
    engine: z.enum(['pglite', 'postgres']),
    status: z.enum(['up', 'down']),
    latencyMs: z.number().optional(),
  }),
});

/**
 * Health checks. GET /api/health: is the server up, and can it reach its database? 503 when it
 * cannot. For load balancers and orchestrators (R13, docs/decisions/022):
 * - GET /api/health/live: the process answers (no database work), to restart a hung process;
 * - GET /api/health/ready: the database answers, this build's migrations are applied and the
 *   server is not shutting down, to send it traffic. 503 otherwise.
 */
const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  // Set when close() begins, before in-flight requests drain: a balancer stops sending traffic.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });

  app.get(
    '/api/health',
    {
      config: { access: 'public', rateLimit: false },
      schema: {
        operationId: 'getHealth',
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

  app.get(
    '/api/health/live',
    {
      config: { access: 'public', rateLimit: false },
      schema: {
        operationId: 'getLiveness',
        summary: 'Whether the process answers (no database work)',
        tags: ['Platform'],
        response: { 200: z.object({ status: z.literal('ok') }) },
      },
    },
    async () => ({ status: 'ok' as const }),
  );

  app.get(
    '/api/health/ready',
    {
      config: { access: 'public', rateLimit: false },
      schema: {
        operationId: 'getReadiness',
        summary: 'Whether this instance should receive traffic',
        description:
          'Ready when the database answers, this build’s migrations are applied and the server is not shutting down.',
        tags: ['Platform'],
        response: {
          200: z.object({ status: z.literal('ready') }),
          503: z
            .object({
              status: z.enum(['closing', 'database-down', 'migrations-pending']),
              pending: z.number().int().optional(),
            })
            .describe('Not ready: shutting down, database unreachable or migrations pending'),
        },
      },
    },
    async (_request, reply) => {
      if (closing) return reply.status(503).send({ status: 'closing' as const });
      let pending: number;
      try {
        pending = await pendingMigrations(app.db);
      } catch (error) {
        app.log.error({ err: error }, 'readiness check: database unreachable');
        return reply.status(503).send({ status: 'database-down' as const });
      }
      if (pending > 0)
        return reply.status(503).send({ status: 'migrations-pending' as const, pending });
      return { status: 'ready' as const };
    },
  );
};

export default healthRoutes;

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { pendingMigrations } from '../../db/migrate.ts';

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
    { config: { access: 'public', rateLimit: false } },
    async (_request, reply) => {
      const started = performance.now();
      try {
        await app.database.ping();
        return {
          status: 'ok',
          database: {
            engine: app.database.engine,
            status: 'up',
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

  app.get('/api/health/live', { config: { access: 'public', rateLimit: false } }, async () => ({
    status: 'ok',
  }));

  app.get(
    '/api/health/ready',
    { config: { access: 'public', rateLimit: false } },
    async (_request, reply) => {
      if (closing) return reply.status(503).send({ status: 'closing' });
      let pending: number;
      try {
        pending = await pendingMigrations(app.db);
      } catch (error) {
        app.log.error({ err: error }, 'readiness check: database unreachable');
        return reply.status(503).send({ status: 'database-down' });
      }
      if (pending > 0) return reply.status(503).send({ status: 'migrations-pending', pending });
      return { status: 'ready' };
    },
  );
};

export default healthRoutes;

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** GET /api/health: is the server up, and can it reach its database? 503 when it cannot. */
const healthRoutes: FastifyPluginAsyncZod = async (app) => {
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
};

export default healthRoutes;

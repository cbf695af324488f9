import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/**
 * GET /metrics (issue 17, docs/decisions/023): the Prometheus text format. Registered only when
 * `config.metrics.enabled` (a production server needs METRICS_TOKEN); the token is checked by
 * route-access before anything is collected. No rate limit: a scraper calls it every few seconds.
 */
const metricsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/metrics',
    { config: { access: 'metrics-token', rateLimit: false } },
    async (_request, reply) => {
      const { contentType, body } = await app.metrics.scrape();
      return reply.type(contentType).send(body);
    },
  );
};

export default metricsRoutes;

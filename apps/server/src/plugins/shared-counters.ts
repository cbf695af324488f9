import { Redis } from 'ioredis';
import fp from 'fastify-plugin';
import {
  databaseFailureBudgets,
  redisFailureBudgets,
  sharedFailureBudgets,
} from '../services/limits/failure-budget-stores.ts';
import type { FailureBudgetStore } from '../services/limits/failure-budgets.ts';

/**
 * The counters several instances must share (R13, docs/decisions/022). With REDIS_URL: one Redis
 * connection, used by the rate limiter's store and for the failure budgets. Without it: no Redis;
 * rate limits are counted in this process. The failure budgets are always taken from the
 * database, and from Redis too when it is set, the larger count deciding (docs/decisions/029).
 */
export default fp(
  async (app) => {
    const settings = app.config.redis;
    let redis: Redis | null = null;
    if (settings) {
      redis = new Redis(settings.url, {
        // A counter that cannot be reached answers quickly with an error rather than queueing
        // requests behind a reconnect (the rate limiter's documented advice).
        connectTimeout: 2_000,
        commandTimeout: 1_000,
        maxRetriesPerRequest: 1,
        lazyConnect: true,
      });
      redis.on('error', (error: Error) => app.log.warn({ err: error }, 'redis connection error'));
      // A wrong URL or an absent Redis stops the start, as a wrong DATABASE_URL does.
      await redis.connect();
      app.addHook('onClose', async () => {
        await redis?.quit().catch(() => redis?.disconnect());
      });
    }
    app.decorate('redis', redis);
    const database = databaseFailureBudgets(app.db);
    app.decorate(
      'failureBudgets',
      redis && settings
        ? sharedFailureBudgets(database, redisFailureBudgets(redis, settings.keyPrefix), (error) =>
            app.log.error({ err: error }, 'redis: failure budget taken from the database alone'),
          )
        : database,
    );
  },
  { name: 'shared-counters', dependencies: ['config'] },
);

declare module 'fastify' {
  interface FastifyInstance {
    /** The shared Redis connection (REDIS_URL), or null. */
    redis: Redis | null;
    /** Where failure budgets are taken from (docs/decisions/029, R13). */
    failureBudgets: FailureBudgetStore;
  }
}

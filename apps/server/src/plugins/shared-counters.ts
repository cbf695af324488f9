import { Redis } from 'ioredis';
import fp from 'fastify-plugin';
import {
  databaseSignInFailures,
  redisSignInFailures,
  type SignInFailureStore,
} from '../services/identity/sign-in-failures.ts';

/**
 * The counters several instances must share (R13, docs/decisions/022). With REDIS_URL: one Redis
 * connection, used by the rate limiter's store and for sign-in failures. Without it: no Redis;
 * rate limits are counted in this process and sign-in failures in the database, as before.
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
    const database = databaseSignInFailures(app.db);
    app.decorate(
      'signInFailures',
      redis && settings
        ? redisSignInFailures(redis, settings.keyPrefix, database, (error) =>
            app.log.error({ err: error }, 'redis: failed sign-ins counted in the database instead'),
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
    /** Where failed sign-ins are counted (docs/decisions/016, R13). */
    signInFailures: SignInFailureStore;
  }
}

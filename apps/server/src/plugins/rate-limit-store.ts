import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { Redis } from 'ioredis';

type TCount = { current: number; ttl: number };
type TCallback = (error: Error | null, result?: TCount) => void;

/**
 * The per-address rate limits' counters (docs/decisions/029). Each request is counted before it
 * is compared with the limit, as every budget is. Two things differ from the plugin's own stores:
 * - the answer is a copy of the count at this request's increment. The plugin's memory store
 *   hands back its live entry, which later requests keep incrementing before this one compares
 *   it, so a burst of 60 at a limit of 30 was refused whole (issue 24, the burst tests);
 * - with Redis, a Redis that does not answer falls back to this process's count instead of
 *   serving requests unlimited (issue 24 item 7): an outage narrows the shared budget to each
 *   instance's own, never to none.
 */
export function rateLimitStore(options: {
  redis: Redis | null;
  prefix: string;
  onRedisError: (error: unknown) => void;
}): FastifyRateLimitStoreCtor {
  const windows = new Map<string, { current: number; resetAt: number }>();
  let sweptAt = 0;

  function countHere(key: string, timeWindow: number): TCount {
    const now = Date.now();
    // Windows that ended are dropped now and then, so the map holds only live addresses.
    if (now - sweptAt > 60_000) {
      sweptAt = now;
      for (const [k, w] of windows) if (w.resetAt <= now) windows.delete(k);
    }
    let entry = windows.get(key);
    if (!entry || entry.resetAt <= now) {
      entry = { current: 0, resetAt: now + timeWindow };
      windows.set(key, entry);
    }
    entry.current += 1;
    return { current: entry.current, ttl: entry.resetAt - now };
  }

  function storeFor(namespace: string): FastifyRateLimitStore {
    return {
      incr(key: string, callback: TCallback, timeWindow: number) {
        const name = `${namespace}${key}`;
        if (!options.redis) {
          callback(null, countHere(name, timeWindow));
          return;
        }
        options.redis
          .eval(INCREMENT_SCRIPT, 1, `${options.prefix}${name}`, timeWindow)
          .then((result) => {
            const [current, ttl] = result as [number, number];
            callback(null, { current: Number(current), ttl: Number(ttl) });
          })
          .catch((error: unknown) => {
            options.onRedisError(error);
            callback(null, countHere(name, timeWindow));
          });
      },
      child(routeOptions) {
        const route = (routeOptions as unknown as { routeInfo?: { method: unknown; url: string } })
          .routeInfo;
        return storeFor(route ? `${String(route.method)}${route.url}-` : namespace);
      },
    };
  }

  return class {
    constructor() {
      return storeFor('');
    }
  } as unknown as FastifyRateLimitStoreCtor;
}

/** One script, so atomic: count this request, start the window at the first, answer both. */
const INCREMENT_SCRIPT = `
local current = redis.call('INCR', KEYS[1])
if current == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {current, ttl}
`;

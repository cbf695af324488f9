import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { buildApp } from '../../apps/server/src/app.ts';
import { loadConfig } from '../../apps/server/src/config.ts';
import { openDatabase } from '../../apps/server/src/db/client.ts';
import { scratchDatabase } from '../scratch-database.ts';

/**
 * DealerPass as it runs in production, with signed-in accounts: every plugin, hook and header,
 * logging at a production level, client addresses taken from X-Forwarded-For (TRUST_PROXY=true,
 * so a benchmark can rotate them and the rate limits stay on). Seeds SESSIONS accounts, each with
 * a live web session made as the sign-in callback makes one (only the id's SHA-256 is stored), and
 * sends the parent its port and the session cookies' values.
 *
 * Environment: BENCH_DATABASE_URL (PostgreSQL: a fresh database is made on its server for the
 * run and dropped when the parent goes) or PGlite in memory; BENCH_SESSIONS (default 1).
 */
const scratch = process.env.BENCH_DATABASE_URL
  ? await scratchDatabase(process.env.BENCH_DATABASE_URL)
  : null;
const count = Number(process.env.BENCH_SESSIONS ?? 1);
const config = loadConfig({ APP_ENV: 'test', LOG_LEVEL: 'warn', TRUST_PROXY: 'true' });
let stopping: Promise<void> | null = null;
const database = await openDatabase(
  scratch
    ? {
        databaseUrl: scratch.url,
        // The scratch database is dropped (with force) as the run ends: its connections are told so.
        onConnectionError: (error) => {
          if (!stopping) console.warn(`database connection lost: ${error.message}`);
        },
      }
    : { dataDir: null },
);
const app = await buildApp({
  config,
  database,
  secret: randomBytes(32),
  webRoot: null,
  backgroundIntervalMs: 0,
});

const rawIds = Array.from({ length: count }, () => randomBytes(32).toString('base64url'));
const hashes = rawIds.map((rawId) => createHash('sha256').update(rawId).digest('base64url'));
await database.db.execute(sql`
  with made as (
    insert into users (dealerpass_user_id, email, first_name, last_name, dealership, phone,
      address1, city, state, zip, subscriptions, account_status, card_brand, card_last4,
      card_expiration, next_bill_date)
    select 'bench' || i || '@example.com', 'bench' || i || '@example.com', 'Casey', 'Dealer',
      'Casey Motors ' || i, '3135550100', '1 Main St', 'Detroit', 'MI', '48201',
      array['NADA', 'MMR', 'CF', 'AC'], 'active', 'visa', '1111', '1239', '2026-12-15'
    from generate_series(1, ${count}::int) as i
    returning id, dealerpass_user_id)
  insert into sessions (id_hash, user_id, context, via_kar_id, last_seen_at, absolute_expires_at)
  select h.id_hash, made.id, 'web', true, now(), now() + interval '12 hours'
  from unnest(${sql.param(hashes)}::text[]) with ordinality as h(id_hash, i)
  join made on made.dealerpass_user_id = 'bench' || h.i || '@example.com'`);
await database.db.execute(sql`analyze`);

await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
process.send?.({ port: typeof address === 'object' && address ? address.port : 0, rawIds });
function stop(): Promise<void> {
  stopping ??= (async () => {
    // Requests cut off as the run ends (their database is going) are not the benchmark's errors.
    app.log.level = 'fatal';
    await app.close();
    await scratch?.drop();
    process.exit(0);
  })();
  return stopping;
}
process.on('disconnect', () => void stop());
process.on('SIGTERM', () => void stop());

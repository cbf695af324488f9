import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { buildApp } from '../../apps/server/src/app.ts';
import { loadConfig } from '../../apps/server/src/config.ts';
import { openDatabase } from '../../apps/server/src/db/client.ts';
const database = await openDatabase({ dataDir: null });
const app = await buildApp({ config: loadConfig({ APP_ENV: 'test', LOG_LEVEL: 'warn', TRUST_PROXY: 'true' }), database, secret: randomBytes(32), webRoot: null, backgroundIntervalMs: 0 });
const raw = randomBytes(32).toString('base64url');
const hash = createHash('sha256').update(raw).digest('base64url');
await database.db.execute(sql`insert into users (dealerpass_user_id, email, first_name, last_name, dealership, phone, address1, city, state, zip) values ('a','a','a','a','a','a','a','a','a','a')`);
await database.db.execute(sql`insert into sessions (id_hash, user_id, context, via_kar_id, last_seen_at, absolute_expires_at) select ${hash}, id, 'web', true, now(), now() + interval '1 hour' from users`);
await app.ready();
const client = (database.db as any).$client;
const counts = new Map<string, number>();
for (const m of ['query', 'exec', 'execProtocol', 'execProtocolRaw', 'transaction', 'syncToFs']) {
  const orig = client[m].bind(client);
  client[m] = (...a: any[]) => { const k = m + ' ' + String(a[0]).slice(0, 60); counts.set(k, (counts.get(k) ?? 0) + 1); return orig(...a); };
}
for (let i = 0; i < 100; i++) {
  const r = await app.inject({ url: '/api/users/current', headers: { cookie: `__Host-dp-session=${raw}`, 'x-forwarded-for': `10.0.0.${i}` } });
  if (r.statusCode !== 200) console.log(r.statusCode, r.body);
}
console.log(counts);
await app.close();

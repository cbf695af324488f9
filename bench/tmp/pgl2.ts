import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { openDatabase } from '/work/wt-hotpath/apps/server/src/db/client.ts';
import { resolveSession } from '/work/wt-hotpath/apps/server/src/services/session/session-store.ts';
const h = await openDatabase({ dataDir: null });
const raw = randomBytes(32).toString('base64url');
const hash = createHash('sha256').update(raw).digest('base64url');
await h.db.execute(sql`insert into users (dealerpass_user_id, email, first_name, last_name, dealership, phone, address1, city, state, zip) values ('a','a','a','a','a','a','a','a','a','a')`);
await h.db.execute(sql`insert into sessions (id_hash, user_id, context, via_kar_id, last_seen_at, absolute_expires_at) select ${hash}, id, 'web', true, now(), now() + interval '1 hour' from users`);
const n = 3000;
for (let r = 0; r < 3; r++) {
  const t = performance.now();
  for (let i = 0; i < n; i++) await resolveSession(h.db, raw, new Date());
  console.log('resolveSession', Math.round((n / (performance.now() - t)) * 1000), '/s');
}

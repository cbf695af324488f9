import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { openDatabase } from '/work/wt-hotpath/apps/server/src/db/client.ts';
const h = await openDatabase({ dataDir: null });
const client = (h.db as any).$client;
const raw = randomBytes(32).toString('base64url');
const hash = createHash('sha256').update(raw).digest('base64url');
await h.db.execute(sql`insert into users (dealerpass_user_id, email, first_name, last_name, dealership, phone, address1, city, state, zip) values ('a','a','a','a','a','a','a','a','a','a')`);
await h.db.execute(sql`insert into sessions (id_hash, user_id, context, via_kar_id, last_seen_at, absolute_expires_at) select ${hash}, id, 'web', true, now(), now() + interval '1 hour' from users`);
const text = `select row_to_json(f) as row from (select s.*, u.*, coalesce((select sum(e.amount_cents) from balance_entries e where e.user_id = u.id), 0)::int as b from sessions s join users u on u.id = s.user_id where s.id_hash = $1) f`;
const n = 3000;
for (let r = 0; r < 3; r++) {
  let t = performance.now();
  for (let i = 0; i < n; i++) await client.query(text, [hash]);
  console.log('query', Math.round((n / (performance.now() - t)) * 1000), '/s');
  t = performance.now();
  const inl = text.replace('$1', `'${hash}'`);
  for (let i = 0; i < n; i++) await client.exec(inl);
  console.log('exec', Math.round((n / (performance.now() - t)) * 1000), '/s');
}

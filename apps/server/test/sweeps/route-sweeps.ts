import { sql } from 'drizzle-orm';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import type { RouteTableEntry } from '../../src/plugins/route-access.ts';
import type { TestApp } from '../support/helper.ts';

/**
 * What the route-table sweeps share (docs/decisions/016): the routes come from `app.routeTable`,
 * never from a list kept here, so a route added later is swept without anyone remembering to.
 */

/** The routes the sweeps cover: everything but HEAD twins of GET routes and the static files. */
export function sweptRoutes(t: TestApp): RouteTableEntry[] {
  return t.app.routeTable.filter((route) => route.method !== 'HEAD' && route.method !== 'OPTIONS');
}

/** A concrete path for a route pattern, each `:param` (and a trailing `*`) filled in. */
export function concretePath(url: string, value = 'sweep'): string {
  return url.replace(/:[A-Za-z_]\w*/g, value).replace(/\*$/, value);
}

let address = 0;
/**
 * Each swept request from its own loopback address: the sweeps send thousands of requests, and
 * the per-address rate limits (kept as they are) would otherwise answer 429 instead of the route.
 */
export function freshAddress(): string {
  address += 1;
  return `127.${(address >> 16) & 255}.${(address >> 8) & 255}.${address & 255 || 1}`;
}

export function inject(t: TestApp, options: InjectOptions): Promise<LightMyRequestResponse> {
  return t.app.inject({ remoteAddress: freshAddress(), ...options });
}

/**
 * The number of rows in every table of the database, read from the catalogue (so a table added
 * later is counted too). Compared before and after refused requests: nothing may be written.
 */
export async function rowCounts(t: TestApp): Promise<Record<string, number>> {
  const tables = await t.app.db.execute<{ table_name: string }>(
    sql`select table_name from information_schema.tables
        where table_schema = current_schema() and table_type = 'BASE TABLE'
        order by table_name`,
  );
  const names = rowsOf<{ table_name: string }>(tables).map((row) => row.table_name);
  if (names.length === 0) throw new Error('no tables found in the catalogue');
  const counts: Record<string, number> = {};
  for (const name of names) {
    const result = await t.app.db.execute<{ n: number | string }>(
      sql`select count(*) as n from ${sql.identifier(name)}`,
    );
    counts[name] = Number(rowsOf<{ n: number | string }>(result)[0]?.n ?? 0);
  }
  return counts;
}

function rowsOf<T>(result: unknown): T[] {
  if (Array.isArray(result)) return result as T[];
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}

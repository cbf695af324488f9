import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../src/db/client.ts';
import { MIGRATIONS_FOLDER } from '../../src/db/migrate.ts';
import { adminQuery } from './admin-query.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The migrated PostgreSQL database every test database is cloned from (TEST_DATABASE_URL). */
    templateDatabase: string;
    /** A file holding a migrated PGlite data folder every embedded test database starts from. */
    pgliteDumpFile: string;
  }
}

/**
 * Migrates once per run, before any test file starts (docs/decisions/033): on PostgreSQL into a
 * template database each test database is then created from (`CREATE DATABASE … TEMPLATE`), on
 * PGlite into a dump of its data folder each embedded database is loaded from. A test database
 * then costs a copy instead of the 16+ migrations (2.5–3 s on PGlite, 0.3–0.6 s on PostgreSQL).
 *
 * The PostgreSQL template is named by the migrations' hash and this run: several runs (and other
 * people's) may share one server, and each drops only its own template at the end, which no
 * other run is cloning. The `server-pglite` project always takes the PGlite path.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (adminUrl && project.name !== 'server-pglite') {
    const name = `dp_template_${migrationsHash()}_${randomBytes(4).toString('hex')}`;
    await adminQuery(adminUrl, `create database ${name}`);
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    const database = await openDatabase({ databaseUrl: url.toString() });
    // CREATE DATABASE … TEMPLATE refuses a source with open connections.
    await database.close();
    project.provide('templateDatabase', name);
    return () => adminQuery(adminUrl, `drop database if exists ${name} with (force)`);
  }
  // The same migrator as openDatabase's embedded path, on a client whose data folder is dumped.
  const client = new PGlite();
  await migratePglite(drizzlePglite(client), { migrationsFolder: MIGRATIONS_FOLDER });
  const dump = await (await client.dumpDataDir('none')).arrayBuffer();
  await client.close();
  const dir = mkdtempSync(join(tmpdir(), 'dp-pglite-template-'));
  const file = join(dir, `${migrationsHash()}.tar`);
  writeFileSync(file, Buffer.from(dump));
  project.provide('pgliteDumpFile', file);
  return async () => rmSync(dir, { recursive: true, force: true });
}

/** The migrations' content: a changed or added migration is a new template. */
function migrationsHash(): string {
  const hash = createHash('sha256');
  for (const file of readdirSync(MIGRATIONS_FOLDER)
    .filter((name) => name.endsWith('.sql'))
    .sort())
    hash.update(file).update(readFileSync(join(MIGRATIONS_FOLDER, file)));
  return hash.digest('hex').slice(0, 12);
}

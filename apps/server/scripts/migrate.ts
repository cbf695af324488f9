import { ConfigError, loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/client.ts';
import { pendingMigrations, shippedMigrations } from '../src/db/migrate.ts';
import { loadEnvFileIfPresent } from '../src/lib/env-file.ts';

/**
 * `npm run db:migrate`: applies pending migrations to the configured database, then exits, for
 * deployments that migrate before they roll out new instances (R13). It takes the same advisory
 * lock as a starting server, so it is safe while older instances run or new ones start.
 */
async function main(): Promise<void> {
  loadEnvFileIfPresent();
  const config = loadConfig();
  const started = performance.now();
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    const pending = await pendingMigrations(database.db);
    if (pending > 0) throw new Error(`${pending} migrations still pending after migrating`);
    console.log(
      `database migrated (${database.engine}, ${shippedMigrations().length} migrations, ${Math.round(performance.now() - started)} ms)`,
    );
  } finally {
    await database.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});

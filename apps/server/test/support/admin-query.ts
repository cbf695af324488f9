import pg from 'pg';

/**
 * One statement on a PostgreSQL server's maintenance connection (`CREATE DATABASE`, `DROP
 * DATABASE`), on a client of its own that is closed after: the test runs' template databases
 * (global-setup.ts) and the browser-test servers' databases (e2e/start-server.ts).
 */
export async function adminQuery(adminUrl: string, statement: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(statement);
  } finally {
    await admin.end();
  }
}

import { fileURLToPath } from 'node:url';
import { ConfigError, loadConfig } from './config.ts';
import { buildApp } from './app.ts';
import { openDatabase } from './db/client.ts';
import { loadEnvFileIfPresent } from './lib/env-file.ts';
import { deriveKeys, resolveSecret } from './lib/keys.ts';
import { checkSecretKey } from './services/keys/check-secret-key.ts';
import { findDemoData, type DemoDataFound } from './services/demo/find-demo-data.ts';
import { readTestAccounts, type TTestAccountsFile } from './services/demo/read-test-accounts.ts';
import { seedDemoData } from './services/demo/seed-demo-data.ts';
import { storeReceiptParts } from './services/receipts/stored-receipt.ts';
import { seedDemoPromotions } from './services/demo/seed-demo-promotions.ts';
import { seedDemoStaff } from './services/demo/seed-demo-staff.ts';

/** pino-pretty is a development dependency: absent from a production install, and then not used. */
async function hasPinoPretty(): Promise<boolean> {
  try {
    // eslint-disable-next-line import/no-extraneous-dependencies -- optional, probed at run time
    await import('pino-pretty');
    return true;
  } catch {
    return false;
  }
}

/** Starts DealerPass: configuration, database (with migrations), the app, and a graceful stop. */
async function main(): Promise<void> {
  // A `.env` in the working directory, when present (README, "Configuration").
  const envFile = loadEnvFileIfPresent();
  // `npm run dev`: the web app from its sources under Vite, development settings by default.
  const webDev = process.argv.includes('--web-dev');
  if (webDev) process.env.APP_ENV ??= 'development';
  let config;
  let testAccounts: TTestAccountsFile | undefined;
  try {
    config = loadConfig();
    // The tests' own accounts (APP_ENV=test only, docs/decisions/065), checked before anything
    // starts: an entry without the test-only form stops the server here.
    if (config.testAccountsFile) testAccounts = readTestAccounts(config.testAccountsFile);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(78); // EX_CONFIG
    }
    throw error;
  }

  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  const secret = await resolveSecret(config.secretKey, config.dataDir);
  // Issue 27, item 10: a database sealed with another secret is a setting to fix, said in one line.
  if (!(await checkSecretKey(database.db, deriveKeys(secret).encryption))) {
    console.error(secretMismatch(config));
    await database.close();
    process.exit(78); // EX_CONFIG
  }
  // The parts this version's receipts are stored with, before any receipt is (decision 066).
  await storeReceiptParts(database.db);
  if (config.seedDemoData) {
    const seeded = await seedDemoData(database.db, {
      now: new Date(),
      encryptionKey: deriveKeys(secret).encryption,
      cards: config.payments.kind === 'sandbox',
      company: config.company,
      timeZone: config.billing.timeZone,
      testAccounts,
      // The overview's 14 months (issue 29); the browser tests keep to their own accounts.
      history: config.env !== 'test',
    });
    if (seeded.seeded)
      console.warn(`Seeded ${seeded.accounts} demo accounts (see README, "Demo accounts").`);
    const promotions = await seedDemoPromotions(database.db, new Date());
    if (promotions > 0)
      console.warn(
        `Seeded ${promotions} demo promotion codes (see README, "Demo promotion codes").`,
      );
    // Their authenticator secrets are public (README): never on a production server.
    if (config.env !== 'production') {
      const staff = await seedDemoStaff(database.db, {
        now: new Date(),
        encryptionKey: deriveKeys(secret).encryption,
        testAccounts,
      });
      if (staff > 0)
        console.warn(`Seeded ${staff} demo staff members (see README, "Operator console").`);
    }
  }
  // R17 (docs/decisions/030): demo sign-ins are public; a production server does not run with
  // them unless told to, and then says so at every start.
  const demoData = config.env === 'production' ? await findDemoData(database.db) : null;
  const demoFound = demoData !== null && demoData.accounts.length + demoData.staff.length > 0;
  if (demoData && demoFound && !config.seedDemoData) {
    console.error(demoDataRefusal(demoData));
    await database.close();
    process.exit(78); // EX_CONFIG
  }
  const app = await buildApp({
    config,
    database,
    secret,
    webRoot: fileURLToPath(new URL('../../web/dist', import.meta.url)),
    webDev,
    prettyLogs:
      process.stdout.isTTY === true &&
      (config.env === 'demo' || config.env === 'development') &&
      (await hasPinoPretty()),
  });

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    // Hard stop if in-flight requests do not finish in time.
    setTimeout(() => process.exit(1), 10_000).unref();
    await app.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));

  await app.listen({ host: config.host, port: config.port });
  app.log.info(
    { url: config.publicUrl, database: database.engine, sandboxes: config.sandboxes },
    `DealerPass is running on ${config.publicUrl}`,
  );
  if (envFile) app.log.info({ envFile }, 'settings read from .env');
  if (demoData && demoFound) {
    app.log.warn(
      { demoAccounts: demoData.accounts, demoStaff: demoData.staff },
      'SEED_DEMO_DATA is set: this production server runs with the demo accounts and staff members, whose passwords and authenticator secrets are public',
    );
  }
}

/** What the server says when its secret does not open the database's sealed data (item 10). */
function secretMismatch(config: {
  secretKey: string | undefined;
  dataDir: string;
  databaseUrl: string | undefined;
}): string {
  const database = config.databaseUrl
    ? 'the database at DATABASE_URL'
    : `the data folder ${config.dataDir}`;
  const setting = config.secretKey
    ? 'SECRET_KEY'
    : `the secret in ${config.dataDir}/secret.key (no SECRET_KEY set)`;
  return `Refusing to start: ${setting} does not match the one ${database} was first started with (its sealed data cannot be opened). Start with the original SECRET_KEY (or the original ${config.dataDir}/secret.key), or with an empty database. See README, "Running in production".`;
}

/** What a production server with demo data says instead of starting (R17). */
function demoDataRefusal(found: DemoDataFound): string {
  const lines = ['Refusing to start: this production database holds demo data (R17).'];
  if (found.accounts.length > 0)
    lines.push(`  demo accounts (public password): ${found.accounts.join(', ')}`);
  if (found.staff.length > 0)
    lines.push(
      `  demo staff members (public password and authenticator secret): ${found.staff.join(', ')}`,
    );
  lines.push(
    'Delete them from the database, or set SEED_DEMO_DATA=true to run with them anyway (a warning is then logged at every start). See README, "Running in production".',
  );
  return lines.join('\n');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

import { createPaymentGateway } from '../src/adapters/payments/create-payment-gateway.ts';
import { ConfigError, loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/client.ts';
import { loadEnvFileIfPresent } from '../src/lib/env-file.ts';
import { createPriceBook } from '../src/services/prices/price-book.ts';
import { runBilling } from '../src/services/billing/run-billing.ts';

/**
 * `npm run billing:run`: one billing run now, against the configured database, then exit.
 * Safe beside running servers on PostgreSQL (rows are claimed with SKIP LOCKED). PGlite allows
 * one process per data folder: with the embedded database the server runs billing by itself
 * (BILLING_RUN_INTERVAL_MINUTES), and this command needs the server stopped.
 */
async function main(): Promise<void> {
  loadEnvFileIfPresent();
  const config = loadConfig();
  // --batch-size=N: accounts claimed per transaction (smaller batches spread work across instances).
  const batchArgument = process.argv.find((arg) => arg.startsWith('--batch-size='));
  const batchSize = batchArgument ? Number(batchArgument.slice('--batch-size='.length)) : undefined;
  if (batchSize !== undefined && !(Number.isInteger(batchSize) && batchSize > 0)) {
    throw new ConfigError('--batch-size must be a positive whole number');
  }
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    const started = performance.now();
    const result = await runBilling(
      {
        db: database.db,
        payments: createPaymentGateway({
          config: config.payments,
          db: database.db,
          now: () => new Date(),
        }),
        now: () => new Date(),
        timeZone: config.billing.timeZone,
        company: { name: config.company.name, supportPhone: config.company.supportPhone },
        mailKind: config.mail.smtpUrl ? 'smtp' : 'mailbox',
        prices: await createPriceBook(database.db),
        log: { warn: (details, message) => console.warn(message, details) },
      },
      batchSize === undefined ? {} : { batchSize },
    );
    console.log(
      `billing run: ${result.charged} charged, ${result.declined} declined, ${result.deactivated} cancellations ended, ${result.retryLater} to retry (${Math.round(performance.now() - started)} ms)`,
    );
  } finally {
    await database.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});

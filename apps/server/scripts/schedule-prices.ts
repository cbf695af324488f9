import { ZSchedulePriceChangeRequestSchema } from '@dealerpass/domain/billing/price-change';
import { formatCurrency } from '@dealerpass/domain/money';
import { ConfigError, loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/client.ts';
import { loadEnvFileIfPresent } from '../src/lib/env-file.ts';
import { createPriceBook } from '../src/services/prices/price-book.ts';
import {
  listPriceChanges,
  schedulePriceChange,
} from '../src/services/prices/schedule-price-change.ts';

const USAGE = `usage:
  npm run prices:schedule -- --date=YYYY-MM-DD ITEM=CENTS [ITEM=CENTS …]
  npm run prices:schedule -- --list
ITEM is a base code (NADA, MMR, CF…), SIMULCAST or PLATFORM_FEE; CENTS a whole number of cents.
The date is a business date at least 30 days from today (DECISIONS R11); every account whose
monthly total changes is e-mailed once. With PGlite, stop the server first (one process per folder).`;

/** `npm run prices:schedule`: schedules a price change (R11) or lists the table, then exits. */
async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const list = args.includes('--list');
  const date = args.find((arg) => arg.startsWith('--date='))?.slice('--date='.length);
  const prices = args
    .filter((arg) => !arg.startsWith('--'))
    .map((arg) => {
      const [item, cents] = arg.split('=');
      return { item, cents: Number(cents) };
    });
  if (!list && (!date || prices.length === 0)) throw new ConfigError(USAGE);
  loadEnvFileIfPresent();
  const config = loadConfig();
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    if (list) {
      for (const row of await listPriceChanges(database.db)) {
        console.log(
          `${row.effectiveFrom?.toISOString() ?? 'opening'.padEnd(24)}  ${row.item.padEnd(12)} ${formatCurrency(row.cents).padStart(10)}  (${row.scheduledBy})`,
        );
      }
      return;
    }
    const request = ZSchedulePriceChangeRequestSchema.safeParse({ effectiveDate: date, prices });
    if (!request.success) {
      throw new ConfigError(
        `${request.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('\n')}\n\n${USAGE}`,
      );
    }
    const scheduled = await schedulePriceChange(
      {
        db: database.db,
        now: () => new Date(),
        timeZone: config.billing.timeZone,
        mailKind: config.mail.smtpUrl ? 'smtp' : 'mailbox',
        company: { name: config.company.name, supportPhone: config.company.supportPhone },
        prices: await createPriceBook(database.db),
        invoicing: config.invoicing,
      },
      request.data,
      'command',
    );
    console.log(
      `scheduled from ${scheduled.effectiveFrom} (${scheduled.effectiveDate}): ${scheduled.rows.map((row) => `${row.item} ${formatCurrency(row.cents)}`).join(', ')}; ${scheduled.notified} accounts e-mailed`,
    );
  } finally {
    await database.close();
  }
}

main().catch((error: unknown) => {
  console.error(
    error instanceof ConfigError || (error instanceof Error && error.name === 'AppError')
      ? error.message
      : error,
  );
  process.exit(1);
});

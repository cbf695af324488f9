/**
 * The API test files that also run on PGlite when the whole suite runs on PostgreSQL (the
 * `server-pglite` project, docs/decisions/033): they prove the embedded default, which `npm start`
 * uses, end to end. Without TEST_DATABASE_URL every file runs on PGlite anyway.
 */
export const PGLITE_SMOKE = [
  // A fresh embedded database migrates, and has nothing pending after.
  'apps/server/test/services/migrations-concurrent.test.ts',
  // Sign-up from the first page to an active account.
  'apps/server/test/routes/signup.test.ts',
  // The billing run: charges, retries, the ledger.
  'apps/server/test/services/billing-run.test.ts',
  // A receipt, read back from its PDF.
  'apps/server/test/services/receipts-pdf.test.ts',
  // A receipt stored without its shared parts and read back, through PGlite's bytea codec.
  'apps/server/test/services/stored-receipt.test.ts',
  // The route-table sweeps' first pass (the fuzz sweep at FUZZ_RUNS=20 per route here).
  'apps/server/test/sweeps/sweep-access.test.ts',
  'apps/server/test/sweeps/sweep-csrf.test.ts',
  'apps/server/test/sweeps/sweep-fuzz.test.ts',
];

import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * Loads `.env` from the directory the command was started in, when there is one (README,
 * "Configuration"). Variables already set in the environment win over the file; without a file
 * nothing changes. Returns the file loaded, or null. `--no-env-file` on the command line skips it:
 * the tests that start a server or a script pass it, so a developer's .env cannot change them.
 */
export function loadEnvFileIfPresent(directory: string = process.cwd()): string | null {
  if (process.argv.includes('--no-env-file')) return null;
  const file = resolve(directory, '.env');
  if (!existsSync(file)) return null;
  process.loadEnvFile(file);
  return file;
}

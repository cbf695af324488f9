/**
 * `npm run bench:insight` (issue 29): the overview's answer time (insight.ts) and, when it is
 * there, the finance export's rows per second (finance-export.ts, built beside it).
 */
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

let status = 0;
for (const file of ['insight.ts', 'finance-export.ts']) {
  const path = new URL(file, import.meta.url);
  if (!existsSync(path)) continue;
  const run = spawnSync(process.execPath, [path.pathname], { stdio: 'inherit' });
  status ||= run.status ?? 1;
}
process.exit(status);

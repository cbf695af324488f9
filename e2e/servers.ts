/**
 * The browser tests' servers (docs/decisions/033): one per Playwright worker, each on its own
 * port and with its own embedded database, so two workers never share a server's state (rate
 * limits, the demo staff's spent codes, seeded accounts). Worker n talks to E2E_PORT + n.
 */
export const FIRST_PORT = Number(process.env.E2E_PORT ?? 3100);
export const WORKERS = Number(process.env.E2E_WORKERS ?? 2);

export function serverUrl(parallelIndex: number): string {
  return `http://localhost:${FIRST_PORT + parallelIndex}`;
}

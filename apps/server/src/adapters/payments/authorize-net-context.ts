import { createHash } from 'node:crypto';
import type { Database } from '../../db/client.ts';
import type { AnetCall } from './authorize-net-api.ts';
import type { AuthorizeNetConfig } from './payments-config.ts';

/** What every part of the Authorize.Net gateway works with: its API, our store, the clock. */
export interface AuthorizeNet {
  call: AnetCall;
  db: Database;
  now: () => Date;
  validationMode: AuthorizeNetConfig['validationMode'];
}

/** The SHA-256 of a value's JSON, in hex: request hashes, invoice numbers, customer ids. */
export function hashOf(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value)).digest('hex');
}

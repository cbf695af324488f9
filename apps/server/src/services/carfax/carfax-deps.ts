import type { FastifyBaseLogger } from 'fastify';
import type { IMessageVars } from '@dealerpass/domain/messages';
import type { CarfaxClient } from '../../adapters/carfax/carfax-oauth-client.ts';
import type { Database } from '../../db/client.ts';

/** What the Carfax services need from the server: `app.carfax.deps(log)` (plugins/integrations.ts). */
export interface CarfaxDeps {
  db: Database;
  client: CarfaxClient;
  /** The server's encryption key (DECISIONS R7). */
  encryptionKey: Buffer;
  now: () => Date;
  loginCallbackUrl: string;
  logoutCallbackUrl: string;
  messageVars: IMessageVars;
  log: FastifyBaseLogger;
}

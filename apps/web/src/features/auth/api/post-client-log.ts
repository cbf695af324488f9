import { CLIENT_LOG_LIMITS } from '@dealerpass/domain/forms/client-log';
import type { TClientLogRequest } from '@dealerpass/domain/schemas/client-log';
import { request } from '../../../lib/api-client.ts';

export const CLIENT_LOG_ENDPOINT = '/api/log';

/** POST /api/log (001 §7): a client report such as a 403 session failure; answers 204. */
export async function postClientLog(entry: TClientLogRequest): Promise<void> {
  await request(CLIENT_LOG_ENDPOINT, {
    method: 'POST',
    body: {
      ...entry,
      url: entry.url.slice(0, CLIENT_LOG_LIMITS.url),
      ...(entry.message === undefined
        ? {}
        : { message: entry.message.slice(0, CLIENT_LOG_LIMITS.message) }),
    },
  });
}

import { CLIENT_LOG_LIMITS } from '@dealerpass/domain/forms/client-log';
import { request } from '../../../lib/api-client.ts';

/** POST /api/log with a debug note (000 §7: the AutoCheck auto-purchase change). */
export async function postDebugNote(message: string, url: string): Promise<void> {
  await request('/api/log', {
    method: 'POST',
    body: { message, url: url.slice(0, CLIENT_LOG_LIMITS.url) },
  });
}

import type { TAutoCheckFields } from '@dealerpass/domain/schemas/autocheck';
import { request } from '../../../lib/api-client.ts';

/** PUT /api/users/current with the AutoCheck values (000 §7); answers the user. */
export async function updateAutoCheck(values: TAutoCheckFields): Promise<void> {
  await request('/api/users/current', { method: 'PUT', body: values });
}

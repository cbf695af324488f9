import type { TContactUsRequest } from '@dealerpass/domain/schemas/contact';
import { request } from '../../../lib/api-client.ts';

export const CONTACT_ENDPOINT = '/api/v2/contactUs';

/** POST /api/v2/contactUs (001 §7); the server answers `{ data: { id } }`. */
export async function submitContact(values: TContactUsRequest): Promise<{ id: string }> {
  const response = await request<{ data: { id: string } }>(CONTACT_ENDPOINT, {
    method: 'POST',
    body: values,
  });
  return response.data.data;
}

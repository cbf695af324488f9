import type {
  ISignupLeadResponse,
  TSignupLeadRequest,
} from '@dealerpass/domain/schemas/signup-lead';
import { request } from '../../../lib/api-client.ts';

export const LEAD_ENDPOINT = '/api/signup/contact';

/** POST /api/signup/contact (001 §7): the lead; `data.data.id` is its id. */
export async function createLead(body: TSignupLeadRequest): Promise<string> {
  const response = await request<ISignupLeadResponse>(LEAD_ENDPOINT, { method: 'POST', body });
  return response.data.data.id;
}

import type {
  TSignupStep1SaveRequest,
  TSignupStep2SaveRequest,
} from '@dealerpass/domain/schemas/signup-progress';
import { request } from '../../../lib/api-client.ts';

type TSaveInput<T> = { [K in keyof T]?: T[K] };

/** PATCH /api/signup/detail/update/{leadID}/{1|2} (001 §3, §7): a partial save. */
export async function saveProgress(
  leadID: string,
  save:
    | { step: 1; body: TSaveInput<TSignupStep1SaveRequest> }
    | { step: 2; body: TSaveInput<TSignupStep2SaveRequest> },
): Promise<void> {
  await request(`/api/signup/detail/update/${encodeURIComponent(leadID)}/${save.step}`, {
    method: 'PATCH',
    body: save.body,
  });
}

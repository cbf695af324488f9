import { CONFIG_ENV_PATH, type IEnvConfig } from '@dealerpass/domain/integrations/carfax';
import { request } from '../../../lib/api-client.ts';

/** GET /api/v2/config/env (000 §7): 200 is the configuration; anything else is a failure. */
export async function getEnvConfig(signal?: AbortSignal): Promise<IEnvConfig> {
  const response = await request<{ data: IEnvConfig }>(CONFIG_ENV_PATH, { signal });
  if (response.status !== 200) throw new Error('configuration unavailable');
  return response.data.data;
}

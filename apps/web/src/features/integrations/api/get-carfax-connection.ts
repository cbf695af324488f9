import { queryOptions } from '@tanstack/react-query';
import type { IEnvConfig } from '@dealerpass/domain/integrations/carfax';
import { getCarfaxStatus, type TCarfaxStatus } from './get-carfax-status.ts';
import { getEnvConfig } from './get-env-config.ts';
import { refreshCarfaxTokens } from './refresh-carfax-tokens.ts';

export interface ICarfaxConnectionView {
  config: IEnvConfig;
  status: TCarfaxStatus;
}

/** Which of the two loads failed: each has its own text on the page (000 §4, §7). */
export class CarfaxLoadError extends Error {
  readonly stage: 'config' | 'status';

  constructor(stage: 'config' | 'status') {
    super(`Carfax ${stage} unavailable`);
    this.name = 'CarfaxLoadError';
    this.stage = stage;
  }
}

/**
 * The configuration, then the token status; an expired access token is renewed at once when the
 * refresh token still works, else the status is read again.
 */
export async function getCarfaxConnection(signal?: AbortSignal): Promise<ICarfaxConnectionView> {
  let config: IEnvConfig;
  try {
    config = await getEnvConfig(signal);
  } catch {
    throw new CarfaxLoadError('config');
  }
  try {
    let status = await getCarfaxStatus(signal);
    if (status.kind === 'expired') {
      try {
        status = { kind: 'connected', connection: await refreshCarfaxTokens() };
      } catch {
        status = await getCarfaxStatus(signal);
      }
    }
    return { config, status };
  } catch {
    throw new CarfaxLoadError('status');
  }
}

/** The Carfax page's view; leaving the page cancels its requests. */
export const getCarfaxConnectionQueryOptions = () =>
  queryOptions({
    queryKey: ['carfax-connection'],
    queryFn: ({ signal }) => getCarfaxConnection(signal),
  });

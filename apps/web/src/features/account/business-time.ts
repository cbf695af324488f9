import { DEFAULT_BUSINESS_TIME_ZONE } from '@dealerpass/domain/time/calendar-date';
import { runtimeConfig } from '../../lib/runtime-config.ts';

/** The zone of bill dates and the history years (DECISIONS R4), as the server publishes it. */
export function businessTimeZone(): string {
  return runtimeConfig().businessTimeZone ?? DEFAULT_BUSINESS_TIME_ZONE;
}

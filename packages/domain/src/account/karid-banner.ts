/**
 * The DealerPass ID reminder banner (000 §4, §9; DECISIONS R1, R6): whether it shows, its
 * level and whether it can be closed.
 */
import { DAY_MS } from '../time/calendar-date.ts';

export const BANNER_ALERT_DAYS = 14;
export const BANNER_URGENT_DAYS = 2;
/** A dismissal re-shows after one day. */
export const BANNER_REDISPLAY_MS = DAY_MS;
/** The local-storage key of the last dismissal (000 §4). */
export const BANNER_DISMISSED_STORAGE_KEY = 'karIdBannerDismissedAt';

export type TBannerLevel = 'reminder' | 'alert' | 'urgent';

export interface IBannerInput {
  now: Date;
  /** programDate, the deadline (000 §3); no deadline, no banner. */
  deadline: Date | null | undefined;
  lastDismissedAt: Date | null | undefined;
  /** The session came through DealerPass ID. */
  loggedInViaKarId: boolean;
}

export interface IBannerState {
  visible: boolean;
  level: TBannerLevel;
  closable: boolean;
  /** Days left, rounded up: 1.2 days left count as 2. Negative once the deadline passed. */
  daysRemaining: number;
}

export function daysRemaining(now: Date, deadline: Date): number {
  return Math.ceil((deadline.getTime() - now.getTime()) / DAY_MS);
}

export function karIdBanner(input: IBannerInput): IBannerState {
  const { now, deadline, lastDismissedAt, loggedInViaKarId } = input;
  if (!deadline || Number.isNaN(deadline.getTime())) {
    return { visible: false, level: 'reminder', closable: false, daysRemaining: 0 };
  }
  const days = daysRemaining(now, deadline);
  const level: TBannerLevel =
    days <= BANNER_URGENT_DAYS ? 'urgent' : days <= BANNER_ALERT_DAYS ? 'alert' : 'reminder';
  const dismissedLongAgo =
    !lastDismissedAt || now.getTime() - lastDismissedAt.getTime() >= BANNER_REDISPLAY_MS;
  const visible = !loggedInViaKarId && (dismissedLongAgo || days <= BANNER_URGENT_DAYS);
  return {
    visible,
    level,
    // 000 §4: it can be closed when 3 to 14 days remain.
    closable: days > BANNER_URGENT_DAYS && days <= BANNER_ALERT_DAYS,
    daysRemaining: days,
  };
}

import { useEffect, useState } from 'react';
import { nextPriceChangeAfter } from '@dealerpass/domain/prices';
import { priceTable } from './price-table.ts';

/** setTimeout fires at once for anything longer (a signed 32-bit count of milliseconds). */
const MAX_TIMER_MS = 2 ** 31 - 1;
/** Dates shown beside prices (the "as of" day, the next charge date) follow within a minute. */
const DATE_REFRESH_MS = 60_000;

/**
 * The instant a screen shows prices for (R3): read when it renders, and read again the moment a
 * price or the fee takes effect, so the total on screen is the one the server would charge
 * then. Also read again within a minute (dates beside the price) and when the tab becomes
 * visible (a background tab's timers are held back).
 */
export function usePriceClock(): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const change = nextPriceChangeAfter(now, priceTable());
    const untilChange = change === null ? Infinity : change.getTime() - Date.now();
    const delay = Math.min(MAX_TIMER_MS, DATE_REFRESH_MS, Math.max(0, untilChange));
    const timer = setTimeout(() => setNow(new Date()), delay);
    const onVisible = () => {
      if (document.visibilityState === 'visible') setNow(new Date());
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      clearTimeout(timer);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [now]);
  return now;
}

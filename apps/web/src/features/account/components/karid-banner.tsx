import { useState } from 'react';
import { Link } from '../../../lib/router/router.tsx';
import { ACCOUNT_ROUTES } from '@dealerpass/domain/account/account-routes';
import {
  BANNER_DISMISSED_STORAGE_KEY,
  karIdBanner,
  type TBannerLevel,
} from '@dealerpass/domain/account/karid-banner';
import { useLoggedInViaKarId } from '../api/get-sign-in-method.ts';
import { useCurrentUser } from '../current-user.tsx';

function readDismissedAt(): Date | null {
  try {
    const raw = window.localStorage.getItem(BANNER_DISMISSED_STORAGE_KEY);
    const time = raw === null ? NaN : Number(raw);
    return Number.isFinite(time) ? new Date(time) : null;
  } catch {
    return null;
  }
}

function storeDismissedAt(now: Date): void {
  try {
    window.localStorage.setItem(BANNER_DISMISSED_STORAGE_KEY, String(now.getTime()));
  } catch {
    // storage disabled: the banner simply comes back on the next visit
  }
}

const HEADINGS: Record<TBannerLevel, string> = {
  reminder: 'Set up your DealerPass ID',
  alert: 'Your DealerPass ID deadline is coming up',
  urgent: 'Set up your DealerPass ID now',
};

function daysText(days: number): string {
  if (days <= 0) return 'The deadline to set up your DealerPass ID has passed.';
  return `You have ${days} ${days === 1 ? 'day' : 'days'} left to set up your DealerPass ID.`;
}

/**
 * The DealerPass ID reminder (000 §4, §9; DECISIONS R6): for accounts that do not sign in with a
 * DealerPass ID and have a deadline. Reminder, alert or urgent by the days left; closable only
 * from 3 to 14 days; a close is remembered in local storage and shown again after a day.
 */
export function KarIdBanner({ now = () => new Date() }: { now?: () => Date }) {
  const { user } = useCurrentUser();
  const [dismissedAt, setDismissedAt] = useState<Date | null>(readDismissedAt);
  const [at] = useState(now);
  const hasDeadline = Boolean(user.programDate);
  // How this session signed in (the server's record); until it is known, or if it cannot be
  // read, an account with a DealerPass ID is taken to have used it.
  const viaKarId = useLoggedInViaKarId(hasDeadline);
  const state = karIdBanner({
    now: at,
    deadline: user.programDate ? new Date(user.programDate) : null,
    lastDismissedAt: dismissedAt,
    loggedInViaKarId: viaKarId ?? Boolean(user.karId),
  });
  if (!state.visible) return null;
  const close = () => {
    const when = now();
    storeDismissedAt(when);
    setDismissedAt(when);
  };
  return (
    <section
      className={`karid-banner karid-banner--${state.level}`}
      aria-labelledby="karid-banner-title"
      data-testid="karid-banner"
      data-level={state.level}
    >
      <div>
        <h2 id="karid-banner-title" className="karid-banner__title">
          {HEADINGS[state.level]}
        </h2>
        <p className="karid-banner__text">
          {daysText(state.daysRemaining)}{' '}
          <Link to={ACCOUNT_ROUTES.karIdConnect}>Create or link your DealerPass ID</Link>
        </p>
      </div>
      {state.closable ? (
        <button
          type="button"
          className="button button--secondary karid-banner__close"
          onClick={close}
        >
          Remind me later
        </button>
      ) : null}
    </section>
  );
}

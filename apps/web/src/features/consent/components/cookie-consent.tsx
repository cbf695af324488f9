import { useEffect, useState } from 'react';
import { Link } from '../../../lib/router/router.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { saveConsent, useConsent } from '../consent-store.ts';

/** Opens the preferences dialog from anywhere (the footer's Manage Cookies button). */
export const OPEN_COOKIE_PREFERENCES = 'dealerpass:open-cookie-preferences';

/**
 * While the fixed banner shows, the page reserves its height at the bottom (global.css reads the
 * variable for the body's padding and the scroll padding), so the end of any page, such as the
 * sign-up's terms box and captcha, can be scrolled clear of it; and a field that takes focus
 * under the banner is scrolled above it (WCAG 2.4.11), which the browser's own focus scrolling
 * does not do for a field that is already on screen.
 */
function useReservedSpace(banner: HTMLElement | null) {
  useEffect(() => {
    if (!banner) return;
    const root = document.documentElement;
    const reserve = () => {
      const gap = window.innerHeight - banner.getBoundingClientRect().bottom;
      root.style.setProperty(
        '--cookie-banner-space',
        `${Math.ceil(banner.offsetHeight + gap * 2)}px`,
      );
    };
    // Checked on focus and again whenever the page's height changes (a message that appears on
    // blur can push the newly focused field under the banner).
    const keepFocusClear = () => {
      const field = document.activeElement;
      if (!field || field === document.body || banner.contains(field)) return;
      const overlap = field.getBoundingClientRect().bottom - banner.getBoundingClientRect().top;
      if (overlap > 0) window.scrollBy({ top: overlap + 16, behavior: 'instant' });
    };
    reserve();
    const observer = new ResizeObserver(() => {
      reserve();
      keepFocusClear();
    });
    observer.observe(banner);
    observer.observe(document.body);
    window.addEventListener('resize', reserve);
    document.addEventListener('focusin', keepFocusClear);
    return () => {
      observer.disconnect();
      window.removeEventListener('resize', reserve);
      document.removeEventListener('focusin', keepFocusClear);
      root.style.removeProperty('--cookie-banner-space');
    };
  }, [banner]);
}

/**
 * The cookie banner on a first visit and the Manage Cookies dialog. Until the visitor decides,
 * nothing non-essential is loaded.
 */
export function CookieConsent() {
  const consent = useConsent();
  const [open, setOpen] = useState(false);
  const [functional, setFunctional] = useState(false);
  const [analytics, setAnalytics] = useState(false);
  const [banner, setBanner] = useState<HTMLElement | null>(null);
  useReservedSpace(banner);

  useEffect(() => {
    const openDialog = () => {
      setFunctional(consent?.functional ?? false);
      setAnalytics(consent?.analytics ?? false);
      setOpen(true);
    };
    window.addEventListener(OPEN_COOKIE_PREFERENCES, openDialog);
    return () => window.removeEventListener(OPEN_COOKIE_PREFERENCES, openDialog);
  }, [consent]);

  // After a decision the banner (or the dialog opened from it) is gone with the control that had
  // the focus: the page's content takes it, and the status below says the choice was saved.
  const [saved, setSaved] = useState(0);
  useEffect(() => {
    if (saved === 0) return;
    // After the dialog has given the focus back to its opener, when that opener still exists.
    const timer = window.setTimeout(() => {
      const active = document.activeElement;
      if (active === null || active === document.body) document.getElementById('main')?.focus();
    }, 0);
    return () => window.clearTimeout(timer);
  }, [saved]);

  const decide = (choice: { functional: boolean; analytics: boolean }) => {
    saveConsent(choice);
    setOpen(false);
    setSaved((count) => count + 1);
  };

  return (
    <>
      <p className="visually-hidden" role="status" data-testid="cookie-status">
        {saved > 0 ? 'Your cookie choices have been saved.' : ''}
      </p>
      {consent === null && !open ? (
        <section className="cookie-banner" aria-labelledby="cookie-banner-title" ref={setBanner}>
          <h2 id="cookie-banner-title" className="cookie-banner__title">
            Cookies on DealerPass
          </h2>
          <p>
            We use essential cookies to keep you signed in and to protect forms. With your
            permission we also use cookies for live chat and to understand how the site is used. See
            our <Link to="/terms#privacy">Privacy Notice</Link>.
          </p>
          <div className="cookie-banner__actions">
            <Button onClick={() => decide({ functional: true, analytics: true })}>
              Accept all
            </Button>
            <Button
              variant="secondary"
              onClick={() => decide({ functional: false, analytics: false })}
            >
              Essential only
            </Button>
            <Button
              variant="link"
              onClick={() => window.dispatchEvent(new Event(OPEN_COOKIE_PREFERENCES))}
            >
              Choose cookies
            </Button>
          </div>
        </section>
      ) : null}
      <Dialog
        open={open}
        title="Manage Cookies"
        onClose={() => setOpen(false)}
        footer={
          <>
            <Button onClick={() => decide({ functional, analytics })}>Save choices</Button>
            <Button variant="secondary" onClick={() => setOpen(false)}>
              Cancel
            </Button>
          </>
        }
      >
        <fieldset className="consent-options">
          <legend className="visually-hidden">Cookie categories</legend>
          <div className="consent-option">
            <input
              id="consent-essential"
              type="checkbox"
              checked
              disabled
              aria-describedby="consent-essential-desc"
            />
            <label htmlFor="consent-essential">Essential</label>
            <p id="consent-essential-desc">Sign-in, security and form protection. Always on.</p>
          </div>
          <div className="consent-option">
            <input
              id="consent-functional"
              type="checkbox"
              checked={functional}
              onChange={(event) => setFunctional(event.target.checked)}
              aria-describedby="consent-functional-desc"
            />
            <label htmlFor="consent-functional">Functional</label>
            <p id="consent-functional-desc">Live chat with our support team.</p>
          </div>
          <div className="consent-option">
            <input
              id="consent-analytics"
              type="checkbox"
              checked={analytics}
              onChange={(event) => setAnalytics(event.target.checked)}
              aria-describedby="consent-analytics-desc"
            />
            <label htmlFor="consent-analytics">Analytics</label>
            <p id="consent-analytics-desc">Anonymous statistics about how pages are used.</p>
          </div>
        </fieldset>
      </Dialog>
    </>
  );
}

import { useEffect, useRef, type RefObject } from 'react';
import { useLocation } from '../lib/router/router.tsx';

/** How long to wait for a lazily loaded page to render the element an anchor points at. */
const ANCHOR_WAIT_MS = 3000;

/**
 * What every rendered navigation does: scroll to the top or to the anchored element, and move
 * focus to the new content so screen-reader users hear the change (not on the first load, where
 * the browser starts at the top of the document anyway). The history-change event is emitted by
 * the history itself (app-history.ts).
 */
export function useNavigationEffects(main: RefObject<HTMLElement | null>): void {
  const location = useLocation();
  const first = useRef(true);

  useEffect(() => {
    const isFirst = first.current;
    first.current = false;

    if (!location.hash) {
      if (isFirst) return;
      window.scrollTo(0, 0);
      main.current?.focus({ preventScroll: true });
      return;
    }
    const id = decodeURIComponent(location.hash.slice(1));
    const started = performance.now();
    let frame = 0;
    const seek = () => {
      const target = document.getElementById(id);
      if (target) {
        target.scrollIntoView({ block: 'start' });
        target.focus({ preventScroll: true });
      } else if (performance.now() - started < ANCHOR_WAIT_MS) {
        frame = requestAnimationFrame(seek);
      }
    };
    seek();
    return () => cancelAnimationFrame(frame);
  }, [location.pathname, location.search, location.hash, location.key, main]);
}

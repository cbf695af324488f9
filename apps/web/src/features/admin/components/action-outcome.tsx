import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import type { IActionOutcome } from './action-dialog.tsx';

/**
 * The last action's outcome on a console page, as the server answered it (issue 25): kept on the
 * page (a toast goes away), announced (a status, or an alert when it is no success), green only
 * for a success, and focused: the button that opened the action may be gone after it (a full
 * refund, a chargeback, a paid retry, a reset authenticator, a disabled code), and focus must
 * not fall to <body>.
 */
export function useActionOutcome(): {
  report: (outcome: IActionOutcome) => void;
  message: ReactNode;
} {
  const [outcome, setOutcome] = useState<(IActionOutcome & { id: number }) | null>(null);
  const ref = useRef<HTMLParagraphElement>(null);
  const next = useRef(0);
  useEffect(() => {
    if (outcome) ref.current?.focus();
  }, [outcome]);
  const report = useCallback((done: IActionOutcome) => {
    next.current += 1;
    setOutcome({ ...done, id: next.current });
  }, []);
  const message = outcome ? (
    <p
      key={outcome.id}
      ref={ref}
      tabIndex={-1}
      role={outcome.tone === 'success' ? 'status' : 'alert'}
      className={`admin-outcome admin-outcome--${outcome.tone}`}
      data-testid="admin-outcome"
    >
      {outcome.text}
    </p>
  ) : null;
  return { report, message };
}

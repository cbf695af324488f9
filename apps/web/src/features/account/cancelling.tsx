import { createContext, useContext, useMemo, useState, type ReactNode } from 'react';
import { useLocation } from '../../lib/router/router.tsx';
import { ACCOUNT_ROUTES } from '@dealerpass/domain/account/account-routes';

/**
 * 000 §2, §4: the cancel page is reachable only after the user started cancelling (the Cancel
 * Subscription link), and leaving it resets that. Kept in memory for the account area only: a
 * reload or a typed URL does not count as starting.
 */
interface ICancellingContext {
  cancelling: boolean;
  setCancelling: (value: boolean) => void;
}

const CancellingContext = createContext<ICancellingContext | null>(null);

export function CancellingProvider({ children }: { children: ReactNode }) {
  const [cancelling, setCancelling] = useState(false);
  const { pathname } = useLocation();
  // Moving to any page other than the cancel page ends the cancelling state (000 §4 step 5),
  // adjusted while rendering so the guard never sees a stale value.
  const [lastPath, setLastPath] = useState(pathname);
  if (pathname !== lastPath) {
    setLastPath(pathname);
    if (pathname.replace(/\/+$/, '') !== ACCOUNT_ROUTES.cancel && cancelling) setCancelling(false);
  }
  const value = useMemo(() => ({ cancelling, setCancelling }), [cancelling]);
  return <CancellingContext.Provider value={value}>{children}</CancellingContext.Provider>;
}

export function useCancelling(): ICancellingContext {
  const value = useContext(CancellingContext);
  if (!value) throw new Error('useCancelling needs the account layout above it');
  return value;
}

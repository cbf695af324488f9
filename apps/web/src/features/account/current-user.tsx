import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
  type ReactNode,
} from 'react';
import { ApiError } from '../../lib/api-client.ts';
import { getCurrentUser } from './api/get-current-user.ts';
import type { ICurrentUser } from './current-user-types.ts';

export type { ICurrentUser } from './current-user-types.ts';

export type TCurrentUserState =
  | { status: 'loading' }
  | { status: 'ready'; user: ICurrentUser }
  | { status: 'error'; error: unknown };

export interface ICurrentUserContext {
  user: ICurrentUser;
  /** Loads the user again (after a change); the page keeps showing the old one meanwhile. */
  refetch: () => Promise<ICurrentUser>;
}

const CurrentUserContext = createContext<ICurrentUserContext | null>(null);

/**
 * Loads the signed-in user once for the account area (000 §7 GET /api/users/current). The
 * layout reads the state: loading, ready, or the error (401: not signed in).
 */
export function useCurrentUserLoader(): {
  state: TCurrentUserState;
  refetch: () => Promise<ICurrentUser>;
  retry: () => void;
} {
  const [state, setState] = useState<TCurrentUserState>({ status: 'loading' });

  useEffect(() => {
    const controller = new AbortController();
    getCurrentUser(controller.signal).then(
      (user) => setState({ status: 'ready', user }),
      (error: unknown) => {
        if (!controller.signal.aborted) setState({ status: 'error', error });
      },
    );
    return () => controller.abort();
  }, []);

  const refetch = useCallback(async () => {
    try {
      const user = await getCurrentUser();
      setState({ status: 'ready', user });
      return user;
    } catch (error) {
      // Without a session the layout must take over (sign in again); other failures are the caller's.
      if (error instanceof ApiError && error.status === 401) setState({ status: 'error', error });
      throw error;
    }
  }, []);

  const retry = useCallback(() => {
    setState({ status: 'loading' });
    refetch().catch((error: unknown) => setState({ status: 'error', error }));
  }, [refetch]);

  return { state, refetch, retry };
}

export function CurrentUserProvider({
  user,
  refetch,
  children,
}: ICurrentUserContext & { children: ReactNode }) {
  const value = useMemo(() => ({ user, refetch }), [user, refetch]);
  return <CurrentUserContext.Provider value={value}>{children}</CurrentUserContext.Provider>;
}

/** The signed-in user and a refetch, inside the account area. */
export function useCurrentUser(): ICurrentUserContext {
  const value = useContext(CurrentUserContext);
  if (!value) throw new Error('useCurrentUser needs the account layout above it');
  return value;
}

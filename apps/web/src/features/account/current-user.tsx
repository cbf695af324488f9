import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useMemo, type ReactNode } from 'react';
import { ApiError } from '../../lib/api-client.ts';
import { getCurrentUserQueryOptions } from './api/get-current-user.ts';
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
  const queryClient = useQueryClient();
  const query = useQuery(getCurrentUserQueryOptions());

  // A failed reload keeps the user on the page; only a lost session (401) makes the layout take
  // over (sign in again). Other failures of a reload are the caller's.
  const sessionLost = query.error instanceof ApiError && query.error.status === 401;
  const state: TCurrentUserState =
    query.data !== undefined && !sessionLost
      ? { status: 'ready', user: query.data }
      : query.isError
        ? { status: 'error', error: query.error }
        : { status: 'loading' };

  const refetch = useCallback(
    () => queryClient.fetchQuery(getCurrentUserQueryOptions()),
    [queryClient],
  );

  const retry = useCallback(() => {
    void queryClient.resetQueries({ queryKey: getCurrentUserQueryOptions().queryKey });
  }, [queryClient]);

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

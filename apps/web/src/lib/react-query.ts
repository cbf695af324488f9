import { QueryClient } from '@tanstack/react-query';

/**
 * The account area's query client. Only the account layout imports this module, so TanStack Query
 * stays in the account chunk and out of the public first load (docs/decisions/006).
 *
 * Each view loads afresh, as the hand-written loaders did: nothing is kept once no component
 * shows it, no automatic retry (a failure shows its error state and a Try again), and no refetch
 * when the window regains focus or the network comes back.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { gcTime: 0, retry: false, refetchOnWindowFocus: false, refetchOnReconnect: false },
    },
  });
}

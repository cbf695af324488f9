import type { ReactNode } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import { failureMessage } from '../../lib/error-text.ts';
import './query-state.css';

interface QueryStateProps<T> {
  query: UseQueryResult<T>;
  /** Said while loading, e.g. "Loading promotions…". */
  loading: string;
  /** What failed, e.g. "The promotions could not be loaded." */
  failed: string;
  /** Shown instead of `children` when the data is empty (decided by `isEmpty`). */
  empty?: ReactNode;
  isEmpty?: (data: T) => boolean;
  children: (data: T) => ReactNode;
}

/**
 * Every query view's three states besides its content: loading (announced), failed (announced,
 * with Try again) and empty. The console's lists always go through it, so none is forgotten.
 */
export function QueryState<T>({
  query,
  loading,
  failed,
  empty,
  isEmpty,
  children,
}: QueryStateProps<T>) {
  if (query.isPending) return <Loading text={loading} />;
  if (query.isError) {
    return <LoadFailed text={failed} error={query.error} onRetry={() => void query.refetch()} />;
  }
  if (empty !== undefined && isEmpty?.(query.data)) {
    return <p className="query-state__empty">{empty}</p>;
  }
  return <>{children(query.data)}</>;
}

export function Loading({ text }: { text: string }) {
  return (
    <div className="page-loading" role="status">
      <span className="spinner" aria-hidden="true" />
      <span>{text}</span>
    </div>
  );
}

export function LoadFailed({
  text,
  error,
  onRetry,
}: {
  text: string;
  error: unknown;
  onRetry: () => void;
}) {
  return (
    <div className="query-state__problem" role="alert">
      <p>
        <strong>{text}</strong> {failureMessage(error)}
      </p>
      <button type="button" className="button button--secondary" onClick={onRetry}>
        Try again
      </button>
    </div>
  );
}

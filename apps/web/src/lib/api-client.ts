import { takeEarlyGet } from './early-request.ts';
import { requestHeaders } from './request-headers.ts';

/** A field error as the server sends it (the `errors` list of an error body). */
export interface ApiFieldError {
  source: string;
  message: string;
  details?: string;
}

/** What went wrong, as a code: 401 → UNAUTHORIZED, 500 → INTERNAL_SERVER_ERROR, 503 → SERVICE_UNAVAILABLE (001 §7). */
export class ApiError extends Error {
  override name = 'ApiError';
  readonly status: number;
  readonly code: string;
  readonly errors: ApiFieldError[];
  /** The parsed body of the failed response, as sent. */
  readonly body: unknown;

  constructor(status: number, body: unknown) {
    const parsed = (typeof body === 'object' && body !== null ? body : {}) as {
      code?: unknown;
      message?: unknown;
      errors?: unknown;
    };
    super(
      typeof parsed.message === 'string' ? parsed.message : `Request failed with status ${status}`,
    );
    this.status = status;
    this.code = codeForStatus(status, typeof parsed.code === 'string' ? parsed.code : undefined);
    this.errors = Array.isArray(parsed.errors) ? (parsed.errors as ApiFieldError[]) : [];
    this.body = body;
  }
}

export const SERVICE_UNAVAILABLE_STATUS = 503;

export function codeForStatus(status: number, serverCode?: string): string {
  if (status === 401) return 'UNAUTHORIZED';
  if (status === 500) return 'INTERNAL_SERVER_ERROR';
  if (status === SERVICE_UNAVAILABLE_STATUS) return 'SERVICE_UNAVAILABLE';
  if (status === 0) return 'NETWORK_ERROR';
  return serverCode ?? 'UNSPECIFIED_ERROR';
}

/** The response as callers see it: `response.data` is the body, so the server's `{ data }` is `response.data.data`. */
export interface ApiResponse<T> {
  status: number;
  data: T;
  headers: Headers;
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  signal?: AbortSignal;
  responseType?: 'json' | 'blob';
  /** Extra request headers (e.g. a test's own header); they cannot replace the defaults. */
  headers?: Record<string, string>;
}

export const MISSING_ENDPOINT = 'You must provide an endpoint to create an HTTP request';

/** Listeners for failed requests (the session layer watches 403s here). */
type FailureListener = (error: ApiError, endpoint: string) => void;
const failureListeners = new Set<FailureListener>();
export function onApiFailure(listener: FailureListener): () => void {
  failureListeners.add(listener);
  return () => failureListeners.delete(listener);
}

/**
 * The one HTTP client of the web app (001 §7): JSON with accept, no-cache and content type, the
 * CSRF token and referrer origin from the page's meta tags, the three trace headers, and cookies.
 */
export async function request<T = unknown>(
  endpoint: string,
  options: RequestOptions = {},
): Promise<ApiResponse<T>> {
  if (!endpoint) throw new Error(MISSING_ENDPOINT);
  // A plain GET the page sent while its code loaded (main.tsx) is answered by that response,
  // read here as any other: failures reach the listeners now, not when it was sent.
  const plainGet =
    (options.method ?? 'GET') === 'GET' && !options.headers && options.responseType !== 'blob';
  const early = plainGet ? takeEarlyGet(endpoint) : undefined;
  let response: Response;
  try {
    response = await (early ??
      fetch(endpoint, {
        method: options.method ?? 'GET',
        headers: requestHeaders(options.headers),
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        credentials: 'include',
        signal: options.signal,
      }));
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
    const error = new ApiError(0, { message: 'The server could not be reached.' });
    failureListeners.forEach((listener) => listener(error, endpoint));
    throw error;
  }
  if (!response.ok) {
    const body = await readBody(response);
    const error = new ApiError(response.status, body);
    failureListeners.forEach((listener) => listener(error, endpoint));
    throw error;
  }
  const data = options.responseType === 'blob' ? await response.blob() : await readBody(response);
  return { status: response.status, data: data as T, headers: response.headers };
}

async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204) return null;
  const text = await response.text();
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

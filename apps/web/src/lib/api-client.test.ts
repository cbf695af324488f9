// vitest-isolate: the page id is kept for the page's life (trace.ts), so this file needs a
// fresh module to see it first written (vitest.config.ts).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, MISSING_ENDPOINT, codeForStatus, onApiFailure, request } from './api-client.ts';
import { startEarlyGet } from './early-request.ts';
import { TRACE_KEYS, TRACE_LIMIT } from './trace.ts';

function jsonResponse(status: number, body: unknown) {
  return new Response(body === null ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

describe('request (001 §7 HTTP conventions)', () => {
  const fetchMock = vi.fn<typeof fetch>();

  beforeEach(() => {
    document.head.innerHTML =
      '<meta name="csrf-token" content="token-123"><meta name="referrer-origin" content="https://dealerpass.example">';
    localStorage.clear();
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    fetchMock.mockReset();
  });

  it('refuses to run without an endpoint', async () => {
    await expect(request('')).rejects.toThrow(MISSING_ENDPOINT);
    expect(MISSING_ENDPOINT).toBe('You must provide an endpoint to create an HTTP request');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('sends JSON with the specified headers, the CSRF token, the referrer origin, trace ids and cookies', async () => {
    fetchMock.mockResolvedValue(jsonResponse(201, { data: { id: 'abc' } }));
    const response = await request<{ data: { id: string } }>('/api/v2/contactUs', {
      method: 'POST',
      body: { a: 1 },
    });

    expect(response.data.data.id).toBe('abc');
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/v2/contactUs');
    expect(init?.method).toBe('POST');
    expect(init?.credentials).toBe('include');
    expect(init?.body).toBe('{"a":1}');
    const headers = init?.headers as Record<string, string>;
    expect(headers).toMatchObject({
      accept: 'application/json',
      'cache-control': 'no-cache',
      'content-type': 'application/json',
      'x-csrf-token': 'token-123',
      'x-referrer-origin': 'https://dealerpass.example',
    });
    for (const [header, key, name] of [
      ['x-trace-page-id', TRACE_KEYS.page, 'web-page'],
      ['x-trace-session-id', TRACE_KEYS.session, 'web-session'],
      ['x-trace-user-id', TRACE_KEYS.user, 'web-user'],
    ] as const) {
      const value = headers[header]!;
      const match = new RegExp(`^${name}-(\\d+)$`).exec(value);
      expect(match, header).not.toBeNull();
      expect(Number(match![1])).toBeLessThan(TRACE_LIMIT);
      expect(localStorage.getItem(key)).toBe(value);
    }
  });

  it('keeps the session and user trace ids across requests', async () => {
    fetchMock.mockImplementation(async () => jsonResponse(200, { data: null }));
    await request('/api/a');
    await request('/api/b');
    const first = fetchMock.mock.calls[0]![1]?.headers as Record<string, string>;
    const second = fetchMock.mock.calls[1]![1]?.headers as Record<string, string>;
    expect(second['x-trace-session-id']).toBe(first['x-trace-session-id']);
    expect(second['x-trace-user-id']).toBe(first['x-trace-user-id']);
    expect(second['x-trace-page-id']).toBe(first['x-trace-page-id']);
  });

  it.each([
    [401, 'UNAUTHORIZED'],
    [500, 'INTERNAL_SERVER_ERROR'],
    [503, 'SERVICE_UNAVAILABLE'],
  ])('maps HTTP %i to %s', async (status, code) => {
    fetchMock.mockResolvedValue(jsonResponse(status, { code: 'SOMETHING_ELSE', message: 'x' }));
    const error = await request('/api/x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe(code);
    expect((error as ApiError).status).toBe(status);
  });

  it('keeps the server’s code and field errors for other failures, and tells listeners', async () => {
    const seen: string[] = [];
    const stop = onApiFailure((error, endpoint) => seen.push(`${endpoint} ${error.status}`));
    fetchMock.mockResolvedValue(
      jsonResponse(400, {
        statusCode: 400,
        code: 'VALIDATION_FAILED',
        message: 'm',
        errors: [{ source: 'email', message: 'Invalid email address.' }],
      }),
    );
    const error = (await request('/api/x', { method: 'POST', body: {} }).catch(
      (e: unknown) => e,
    )) as ApiError;
    stop();
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.errors).toEqual([{ source: 'email', message: 'Invalid email address.' }]);
    expect(seen).toEqual(['/api/x 400']);
  });

  it('turns a network failure into an ApiError with status 0', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    const error = (await request('/api/x').catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(0);
    expect(codeForStatus(0)).toBe('NETWORK_ERROR');
  });

  it('answers the first plain GET of an endpoint with the early response, read only then', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse(403, 'duplicateSession'));
    startEarlyGet('/api/users/current');
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/users/current');
    expect(init?.credentials).toBe('include');
    expect(init?.headers).toMatchObject({ 'x-csrf-token': 'token-123' });
    // The failure reaches a listener installed after the request was sent, when it is taken.
    const seen: string[] = [];
    const stop = onApiFailure((error, endpoint) => seen.push(`${endpoint} ${error.status}`));
    const error = (await request('/api/users/current').catch((e: unknown) => e)) as ApiError;
    expect(error.status).toBe(403);
    expect(seen).toEqual(['/api/users/current 403']);
    // Taken once: the next call sends its own request.
    fetchMock.mockResolvedValueOnce(jsonResponse(200, { data: { id: 'u' } }));
    expect((await request('/api/users/current')).data).toEqual({ data: { id: 'u' } });
    expect(fetchMock).toHaveBeenCalledTimes(2);
    stop();
  });

  it('leaves an early response to plain GETs: a POST to the endpoint sends its own', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse(200, { early: true }));
    startEarlyGet('/api/x');
    fetchMock.mockResolvedValueOnce(jsonResponse(200, { posted: true }));
    expect((await request('/api/x', { method: 'POST', body: {} })).data).toEqual({ posted: true });
    expect((await request('/api/x')).data).toEqual({ early: true });
  });

  it('reads empty bodies as null', async () => {
    fetchMock.mockResolvedValue(new Response(null, { status: 204 }));
    expect((await request('/api/log', { method: 'POST', body: {} })).data).toBeNull();
  });
});

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, request } from '../../../lib/api-client.ts';
import {
  classifyApiFailure,
  handleSessionFailure,
  installSessionFailureHandler,
  type ISessionFailureEffects,
} from './session-failure.ts';

function effects(pathname = '/account/billing'): ISessionFailureEffects & {
  calls: string[];
} {
  const calls: string[] = [];
  return {
    calls,
    pathname: () => pathname,
    href: () => `https://dealerpass.example${pathname}`,
    postLog: vi.fn(async (entry) => {
      calls.push(`log ${JSON.stringify(entry)}`);
    }),
    logout: vi.fn(async () => {
      calls.push('logout');
    }),
    loadPage: vi.fn((url: string) => {
      calls.push(`load ${url}`);
    }),
  };
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('classifyApiFailure (001 §4)', () => {
  it.each([
    ['invalidToken', '/account', { logout: false, redirectTo: '/authlogin?err=2', err: 2 }],
    ['duplicateSession', '/account', { logout: true, redirectTo: '/authlogin?err=1', err: 1 }],
    ['AFduplicateSession', '/af/x', { logout: true, redirectTo: '/af/login?err=1', err: 1 }],
    ['ExtduplicateSession', '/ext/x', { logout: true, redirectTo: '/ext/login?err=1', err: 1 }],
    ['invalidToken', '/app/home', { logout: false, redirectTo: '/app/login?err=2', err: 2 }],
  ])('403 %s on %s is a session failure', (body, path, action) => {
    expect(classifyApiFailure(new ApiError(403, body), path)).toEqual({ kind: 'session', action });
  });

  it('403 ACCOUNT_BLOCKED is a blocked account', () => {
    const error = new ApiError(403, { code: 'ACCOUNT_BLOCKED', message: 'blocked' });
    expect(classifyApiFailure(error, '/account')).toEqual({ kind: 'blocked' });
  });

  it.each([
    [401, { code: 'UNAUTHORIZED' }],
    [403, { code: 'CSRF_FAILED' }],
    [403, 'somethingElse'],
    [400, 'invalidToken'],
    [500, null],
  ])('%i %j is left to the caller', (status, body) => {
    expect(classifyApiFailure(new ApiError(status, body), '/account')).toBeNull();
  });
});

describe('handleSessionFailure', () => {
  it('invalidToken: reports to the client log, then loads the login page with err=2', async () => {
    const fx = effects();
    await handleSessionFailure(
      new ApiError(403, 'invalidToken'),
      '/api/users/current',
      { logout: false, redirectTo: '/authlogin?err=2', err: 2 },
      fx,
    );
    expect(fx.postLog).toHaveBeenCalledWith({
      err: 'invalidToken',
      message: '403 invalidToken from /api/users/current',
      url: 'https://dealerpass.example/account/billing',
    });
    expect(fx.logout).not.toHaveBeenCalled();
    expect(fx.calls.map((call) => call.split(' ')[0])).toEqual(['log', 'load']);
    expect(fx.loadPage).toHaveBeenCalledWith('/authlogin?err=2');
  });

  it('duplicateSession: reports, logs out, then loads the login page with err=1', async () => {
    const fx = effects();
    await handleSessionFailure(
      new ApiError(403, 'duplicateSession'),
      '/api/users/current',
      { logout: true, redirectTo: '/authlogin?err=1', err: 1 },
      fx,
    );
    expect(fx.calls.map((call) => call.split(' ')[0])).toEqual(['log', 'logout', 'load']);
    expect(fx.loadPage).toHaveBeenCalledWith('/authlogin?err=1');
  });

  it('still reaches the login page when the report and the logout fail', async () => {
    const fx = effects();
    fx.postLog = vi.fn().mockRejectedValue(new ApiError(500, null));
    fx.logout = vi.fn().mockRejectedValue(new ApiError(403, 'duplicateSession'));
    await handleSessionFailure(
      new ApiError(403, 'duplicateSession'),
      '/api/x',
      { logout: true, redirectTo: '/authlogin?err=1', err: 1 },
      fx,
    );
    expect(fx.logout).toHaveBeenCalledOnce();
    expect(fx.loadPage).toHaveBeenCalledWith('/authlogin?err=1');
  });
});

describe('installSessionFailureHandler with the real HTTP client', () => {
  const fetchMock = vi.fn<typeof fetch>();
  let uninstall: (() => void) | null = null;

  beforeEach(() => {
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => {
    uninstall?.();
    uninstall = null;
    vi.unstubAllGlobals();
    fetchMock.mockReset();
  });

  const respond = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), {
      status,
      headers: { 'content-type': 'application/json' },
    });

  it('handles the first session failure once, however many calls fail after it', async () => {
    const fx = effects('/account');
    uninstall = installSessionFailureHandler({ effects: fx });
    fetchMock.mockImplementation(async () => respond(403, 'duplicateSession'));

    await Promise.allSettled([request('/api/users/current'), request('/api/users/paymentHistory')]);
    await flush();

    expect(fx.postLog).toHaveBeenCalledOnce();
    expect(fx.logout).toHaveBeenCalledOnce();
    expect(fx.loadPage).toHaveBeenCalledOnce();
    expect(fx.loadPage).toHaveBeenCalledWith('/authlogin?err=1');
  });

  it('sends the report and the logout through the HTTP client when no effects are given', async () => {
    const loaded: string[] = [];
    uninstall = installSessionFailureHandler({
      effects: { loadPage: (url) => loaded.push(url) },
    });
    fetchMock.mockImplementation(async (input) => {
      const url = String(input);
      if (url === '/api/log') return new Response(null, { status: 204 });
      if (url === '/api/auth/logout') return respond(200, { data: { redirectTo: '/authlogout' } });
      return respond(403, 'duplicateSession');
    });

    await request('/api/users/current').catch(() => undefined);
    await flush();

    const calls = fetchMock.mock.calls.map(([url, init]) => `${init?.method} ${String(url)}`);
    expect(calls).toEqual(['GET /api/users/current', 'POST /api/log', 'POST /api/auth/logout']);
    const logBody = JSON.parse(String(fetchMock.mock.calls[1]![1]?.body)) as Record<
      string,
      unknown
    >;
    expect(logBody).toMatchObject({ err: 'duplicateSession', url: window.location.href });
    expect(loaded).toEqual(['/authlogin?err=1']);
  });

  it('tells the layout about a blocked account and ignores other failures', async () => {
    const fx = effects('/account');
    const onBlocked = vi.fn();
    uninstall = installSessionFailureHandler({ effects: fx, onBlocked });
    fetchMock.mockResolvedValueOnce(respond(403, { code: 'ACCOUNT_BLOCKED', message: 'x' }));
    fetchMock.mockResolvedValueOnce(respond(400, { code: 'VALIDATION_FAILED', message: 'x' }));
    fetchMock.mockResolvedValueOnce(respond(401, { code: 'UNAUTHORIZED' }));

    for (const url of ['/api/users/paymentHistory', '/api/users/current', '/api/users/current']) {
      await request(url).catch(() => undefined);
    }
    await flush();

    expect(onBlocked).toHaveBeenCalledOnce();
    expect(fx.postLog).not.toHaveBeenCalled();
    expect(fx.loadPage).not.toHaveBeenCalled();
  });

  it('stops watching once uninstalled', async () => {
    const fx = effects('/account');
    installSessionFailureHandler({ effects: fx })();
    fetchMock.mockResolvedValue(respond(403, 'invalidToken'));
    await request('/api/users/current').catch(() => undefined);
    await flush();
    expect(fx.loadPage).not.toHaveBeenCalled();
  });
});

import type { LightMyRequestResponse } from 'fastify';
import { balanceEntries, users } from '../../src/db/schema.ts';
import { createIdentity } from '../../src/services/identity/create-identity.ts';
import { createSession, type ProviderTokens } from '../../src/services/session/session-store.ts';
import { CSRF_COOKIE } from '../../src/plugins/csrf.ts';
import type { TestApp } from '../support/helper.ts';

interface StoredCookie {
  name: string;
  value: string;
  path: string;
}

/** A browser's cookie jar for inject(): honours Path and Max-Age=0, nothing more is needed here. */
export class CookieJar {
  private cookies = new Map<string, StoredCookie>();

  take(response: LightMyRequestResponse): void {
    for (const cookie of response.cookies) {
      const path = cookie.path ?? '/';
      const key = `${cookie.name};${path}`;
      if (cookie.maxAge === 0 || (cookie.expires && cookie.expires.getTime() <= Date.now()))
        this.cookies.delete(key);
      else this.cookies.set(key, { name: cookie.name, value: cookie.value, path });
    }
  }

  header(url: string): string {
    const path = new URL(url, 'http://localhost').pathname;
    return [...this.cookies.values()]
      .filter(
        (cookie) =>
          path === cookie.path ||
          path.startsWith(cookie.path.endsWith('/') ? cookie.path : `${cookie.path}/`),
      )
      .map((cookie) => `${cookie.name}=${cookie.value}`)
      .join('; ');
  }

  get(name: string): string | undefined {
    return [...this.cookies.values()].find((cookie) => cookie.name === name)?.value;
  }

  set(name: string, value: string, path = '/'): void {
    this.cookies.set(`${name};${path}`, { name, value, path });
  }
}

/** A browser that follows redirects on our origin and keeps its cookies. */
export class TestBrowserSession {
  readonly jar = new CookieJar();
  readonly t: TestApp;
  csrfToken = '';
  constructor(t: TestApp) {
    this.t = t;
  }

  async get(
    url: string,
    extraHeaders: Record<string, string> = {},
  ): Promise<LightMyRequestResponse> {
    const response = await this.t.app.inject({
      method: 'GET',
      url,
      headers: { cookie: this.jar.header(url), ...extraHeaders },
    });
    this.jar.take(response);
    const token = /<meta name="csrf-token" content="([^"]+)">/.exec(response.body)?.[1];
    if (token) this.csrfToken = token;
    return response;
  }

  async send(
    method: 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    payload?: unknown,
  ): Promise<LightMyRequestResponse> {
    const response = await this.t.app.inject({
      method,
      url,
      headers: {
        cookie: this.jar.header(url),
        'x-csrf-token': this.csrfToken,
        ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
    });
    this.jar.take(response);
    return response;
  }

  /** Follows 30x redirects that stay on our origin; returns the last response and its URL. */
  async follow(
    start: string,
    limit = 10,
  ): Promise<{ response: LightMyRequestResponse; url: string }> {
    let url = start;
    for (let i = 0; i < limit; i++) {
      const response = await this.get(url);
      const location = response.headers.location;
      if (response.statusCode < 300 || response.statusCode >= 400 || typeof location !== 'string')
        return { response, url };
      const next = new URL(location, this.t.app.config.publicUrl);
      if (next.origin !== new URL(this.t.app.config.publicUrl).origin)
        return { response, url: next.href };
      url = `${next.pathname}${next.search}`;
    }
    throw new Error(`more than ${limit} redirects from ${start}`);
  }

  /** Loads a page so this browser has a CSRF cookie and token. */
  async open(path = '/home'): Promise<void> {
    await this.get(path);
    if (!this.jar.get(CSRF_COOKIE)) throw new Error('no CSRF cookie');
  }

  /**
   * Signs in through the embedded provider exactly as a browser does: /login → provider →
   * our sign-in page → credentials → provider → callback → session. Returns where it landed.
   */
  async signIn(
    credentials:
      | { method: 'email'; email: string; password: string }
      | { method: 'legacy'; username: string; password: string },
    returnTo?: string,
  ) {
    await this.open();
    const { url: interactionUrl } = await this.follow(
      `/login${returnTo ? `?returnTo=${encodeURIComponent(returnTo)}` : ''}`,
    );
    const uid = /^\/oidc\/interaction\/([\w-]+)$/.exec(interactionUrl)?.[1];
    if (!uid) throw new Error(`expected the sign-in page, got ${interactionUrl}`);
    await this.get(interactionUrl); // the page: fresh CSRF token
    const login = await this.send('POST', `/oidc/interaction/${uid}/login`, credentials);
    if (login.statusCode !== 200) return { login, landed: null };
    const redirectTo = new URL(login.json().data.redirectTo as string);
    const { url: landed } = await this.follow(`${redirectTo.pathname}${redirectTo.search}`);
    return { login, landed };
  }
}

export const TEST_PASSWORD = 'Str0ng!Passw0rd';

/**
 * A balance the account starts with (a migrated one, say): its opening entry. The balance is
 * never a column of its own (services/billing/account-balance.ts).
 */
export async function addOpeningBalance(t: TestApp, userId: string, cents: number) {
  await t.app.db
    .insert(balanceEntries)
    .values({ userId, kind: 'opening', amountCents: cents, source: `opening:${userId}` });
}

/** A DealerPass account with a DealerPass ID, ready to sign in. */
export async function createAccount(
  t: TestApp,
  overrides: Partial<typeof users.$inferInsert> & {
    email: string;
    password?: string;
    withIdentity?: boolean;
  },
) {
  const { password = TEST_PASSWORD, withIdentity = true, ...fields } = overrides;
  return t.app.db.transaction(async (tx) => {
    const identity = withIdentity
      ? await createIdentity(tx, { email: fields.email, password })
      : null;
    const [user] = await tx
      .insert(users)
      .values({
        dealerpassUserId: fields.email,
        firstName: 'Casey',
        lastName: 'Dealer',
        dealership: 'Casey Motors',
        phone: '3135550100',
        address1: '1 Main St',
        city: 'Detroit',
        state: 'MI',
        zip: '48201',
        subscriptions: ['NADA', 'MMR', 'CF', 'AC'],
        karId: identity?.id ?? null,
        ...fields,
      })
      .returning();
    if (!user) throw new Error('no user');
    return { user, identityId: identity?.id ?? null };
  });
}

/**
 * A web session of the account, as the sign-in callback makes one (by default through its
 * DealerPass ID, holding no provider tokens). Returns the session cookie's value.
 */
export async function sessionFor(
  t: TestApp,
  userId: string,
  now: Date = new Date(),
  options: { viaKarId?: boolean; tokens?: ProviderTokens } = {},
): Promise<string> {
  const { rawId } = await createSession(t.app.db, {
    userId,
    context: 'web',
    viaKarId: options.viaKarId ?? true,
    tokens: options.tokens ?? {},
    now,
    encryptionKey: t.app.keys.encryption,
  });
  return rawId;
}

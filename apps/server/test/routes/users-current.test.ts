import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count, eq } from 'drizzle-orm';
import { identities, sessions, users } from '../../src/db/schema.ts';
import { seal } from '../../src/lib/secret-box.ts';
import { SESSION_COOKIE } from '../../src/plugins/session.ts';
import { authenticateWithEmail } from '../../src/services/identity/authenticate.ts';
import { createIdentity } from '../../src/services/identity/create-identity.ts';
import { hashPassword } from '../../src/services/identity/passwords.ts';
import {
  emailAccountKey,
  CAPTCHA_AFTER_FAILURES,
} from '../../src/services/identity/sign-in-failures.ts';
import { hashSessionId } from '../../src/services/session/session-store.ts';
import { attemptsTaken, spendAttempts } from '../factories/failure-budget-fixtures.ts';
import { buildTestApp, type TestApp, type TestBrowser } from '../support/helper.ts';
import { addOpeningBalance, sessionFor } from '../factories/sign-in.ts';

/**
 * Every field of 000 §3, minus the secrets (R7), plus whether the AutoCheck password is set and
 * the day a pending cancellation takes effect (decision 058).
 */
const USER_FIELDS = [
  'dealerpassUserId',
  'karId',
  'email',
  'altEmail',
  'firstName',
  'lastName',
  'dealership',
  'phone',
  'phoneCountryCode',
  'altPhone',
  'altPhoneCountryCode',
  'auctionAccessId',
  'dealershipAuctionAccessId',
  'address1',
  'address2',
  'city',
  'state',
  'zip',
  'country',
  'billingFirstName',
  'billingLastName',
  'billingCountry',
  'billingAddress1',
  'billingAddress2',
  'billingCity',
  'billingState',
  'billingZip',
  'creditCardNumber',
  'creditCardType',
  'creditCardExpiration',
  'subscriptions',
  'subscriptionStatus',
  'subscriptionStatusDescription',
  'nextBillDate',
  'cancellationTakesEffect',
  'currentBalance',
  'accountStatus',
  'accountStatusDetails',
  'programDate',
  'preferences',
  'autoCheckId',
  'autoCheckEnabled',
  'autoCheckAutoPurchase',
  'autoCheckPasswdSet',
].sort();

const NEW_PASSWORD = 'Brand!New2026';
const AUTOCHECK_SECRET = 'ac-secret-Passw0rd';
const LEGACY_PASSWORD = 'Legacy!Pass1';

const clock = new Date('2026-03-02T15:00:00Z');
let nextAddress = 1;
const freshIp = () => `10.5.0.${nextAddress++}`;

let t: TestApp;
let browser: TestBrowser;
beforeAll(async () => {
  t = await buildTestApp({
    now: () => clock,
  });
  browser = await t.browser();
});
afterAll(() => t.close());

let userCounter = 0;
async function insertUser({
  balanceCents,
  ...values
}: Partial<typeof users.$inferInsert> & { balanceCents?: number } = {}) {
  userCounter += 1;
  const [row] = await t.app.db
    .insert(users)
    .values({
      dealerpassUserId: `user${userCounter}@example.com`,
      email: `user${userCounter}@example.com`,
      firstName: 'Morgan',
      lastName: 'Reyes',
      dealership: 'Reyes Auto Group',
      phone: '3135550142',
      address1: '400 Woodward Ave',
      city: 'Detroit',
      state: 'MI',
      zip: '48226',
      ...values,
    })
    .returning();
  if (!row) throw new Error('no user');
  if (balanceCents !== undefined) await addOpeningBalance(t, row.id, balanceCents);
  return row;
}

/** A signed-in browser for a user: the session cookie as the sign-in would set it, plus CSRF. */
async function signedIn(userId: string, viaKarId = false) {
  const rawId = await sessionFor(t, userId, clock, {
    viaKarId,
    tokens: { idToken: 'id-token-secret', refreshToken: 'refresh-token-secret' },
  });
  const cookie = `${browser.cookie}; ${SESSION_COOKIE}=${rawId}`;
  return {
    rawId,
    idHash: hashSessionId(rawId),
    request: (method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>) =>
      t.app.inject({
        method,
        url,
        remoteAddress: freshIp(),
        headers: {
          cookie,
          'x-csrf-token': browser.token,
          ...(payload ? { 'content-type': 'application/json' } : {}),
        },
        ...(payload ? { payload } : {}),
      }),
  };
}

describe('GET /api/users/current', () => {
  it('answers 401 without a session cookie and 403 "invalidToken" for an unknown one', async () => {
    const none = await t.app.inject({ method: 'GET', url: '/api/users/current' });
    expect(none.statusCode).toBe(401);
    expect(none.json().code).toBe('UNAUTHORIZED');
    const unknown = await t.app.inject({
      method: 'GET',
      url: '/api/users/current',
      headers: { cookie: `${SESSION_COOKIE}=${'x'.repeat(43)}` },
    });
    expect(unknown.statusCode).toBe(403);
    expect(unknown.json()).toBe('invalidToken');
  });

  it('returns every 000 §3 field with the specified names and values, and no secret', async () => {
    const identity = await createIdentity(t.app.db, {
      email: 'full.record@example.com',
      password: NEW_PASSWORD,
    });
    const legacyPasswordHash = await hashPassword(LEGACY_PASSWORD);
    const user = await insertUser({
      dealerpassUserId: 'full.record@example.com',
      karId: identity.id,
      email: 'full.record@example.com',
      altEmail: 'owner@reyesauto.example.com',
      phoneCountryCode: 'US',
      altPhone: '3135550199',
      altPhoneCountryCode: 'US',
      auctionAccessId: '100234567',
      dealershipAuctionAccessId: '5012345',
      address2: 'Suite 210',
      billingFirstName: 'Morgan',
      billingLastName: 'Reyes',
      billingCountry: 'US',
      billingAddress1: '400 Woodward Ave',
      billingAddress2: 'Suite 210',
      billingCity: 'Detroit',
      billingState: 'MI',
      billingZip: '48226',
      cardBrand: 'visa',
      cardLast4: '1111',
      cardExpiration: '0929',
      subscriptions: ['NADA', 'MMR', 'CF', 'AC'],
      accountStatus: 'active',
      nextBillDate: '2026-03-15',
      balanceCents: 4250,
      programDate: new Date('2026-04-01T04:00:00Z'),
      preferences: { defaultSubscription: 'NADA', searchZip: '48226' },
      autoCheckId: 'AC-778812',
      autoCheckEnabled: true,
      autoCheckAutoPurchase: true,
      legacyUsername: 'mreyes',
      legacyPasswordHash,
    });
    await t.app.db
      .update(users)
      .set({ autoCheckPasswordEnc: seal(t.app.keys.encryption, AUTOCHECK_SECRET, user.id) })
      .where(eq(users.id, user.id));
    const session = await signedIn(user.id);

    const response = await session.request('GET', '/api/users/current');
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const body = response.json();
    expect(Object.keys(body)).toEqual(['data']);
    expect(Object.keys(body.data).sort()).toEqual(USER_FIELDS);
    expect(body.data).toEqual({
      dealerpassUserId: 'full.record@example.com',
      karId: identity.id,
      email: 'full.record@example.com',
      altEmail: 'owner@reyesauto.example.com',
      firstName: 'Morgan',
      lastName: 'Reyes',
      dealership: 'Reyes Auto Group',
      phone: '3135550142',
      phoneCountryCode: 'US',
      altPhone: '3135550199',
      altPhoneCountryCode: 'US',
      auctionAccessId: '100234567',
      dealershipAuctionAccessId: '5012345',
      address1: '400 Woodward Ave',
      address2: 'Suite 210',
      city: 'Detroit',
      state: 'MI',
      zip: '48226',
      country: 'US',
      billingFirstName: 'Morgan',
      billingLastName: 'Reyes',
      billingCountry: 'US',
      billingAddress1: '400 Woodward Ave',
      billingAddress2: 'Suite 210',
      billingCity: 'Detroit',
      billingState: 'MI',
      billingZip: '48226',
      creditCardNumber: '************1111',
      creditCardType: 'visa',
      creditCardExpiration: '0929',
      subscriptions: ['NADA', 'MMR', 'CF', 'AC'],
      subscriptionStatus: 'active',
      subscriptionStatusDescription: 'Active',
      nextBillDate: '2026-03-15',
      // Not pending cancel: no day a cancellation takes effect (decision 058).
      cancellationTakesEffect: null,
      currentBalance: 42.5,
      accountStatus: 'active',
      accountStatusDetails: '',
      programDate: '2026-04-01T04:00:00.000Z',
      preferences: { defaultSubscription: 'NADA', searchZip: '48226' },
      autoCheckId: 'AC-778812',
      autoCheckEnabled: true,
      autoCheckAutoPurchase: true,
      autoCheckPasswdSet: true,
    });

    const text = response.body;
    for (const forbidden of [
      'autoCheckPasswd"',
      'autoCheckPasswordEnc',
      'creditCardCode',
      'legacyPasswordHash',
      'legacyUsername',
      'passwordHash',
      'tokensEnc',
      '$argon2',
      AUTOCHECK_SECRET,
      'id-token-secret',
      'refresh-token-secret',
      session.rawId,
      session.idHash,
      user.id,
    ]) {
      expect(text).not.toContain(forbidden);
    }
    // No value that looks like a hash or a sealed secret (v1.<iv>.<tag>.<body>).
    expect(text).not.toMatch(/v1\.[\w-]{16}\.[\w-]{22}\./);
    expect(text).not.toMatch(/[A-Za-z0-9_-]{43}/);
  });

  it.each([
    ['0', '0'],
    [null, null],
    ['', ''],
  ])('turns AuctionACCESS ids of %j into empty strings', async (userId, dealershipId) => {
    const user = await insertUser({
      auctionAccessId: userId,
      dealershipAuctionAccessId: dealershipId,
    });
    const body = (await (await signedIn(user.id)).request('GET', '/api/users/current')).json();
    expect(body.data.auctionAccessId).toBe('');
    expect(body.data.dealershipAuctionAccessId).toBe('');
  });

  it('fills the optional and empty fields of a minimal account', async () => {
    const user = await insertUser();
    const body = (await (await signedIn(user.id)).request('GET', '/api/users/current')).json();
    expect(body.data).toMatchObject({
      karId: '',
      altEmail: '',
      address2: '',
      billingFirstName: '',
      creditCardNumber: '',
      creditCardType: '',
      creditCardExpiration: '',
      subscriptions: [],
      nextBillDate: null,
      currentBalance: 0,
      programDate: null,
      preferences: {},
      autoCheckId: '',
      autoCheckPasswdSet: false,
    });
  });

  it('gives a blocked account its record, a complimentary one its details, a credit its sign', async () => {
    const blocked = await insertUser({ accountStatus: 'blocked' });
    const body = (await (await signedIn(blocked.id)).request('GET', '/api/users/current')).json();
    expect(body.data).toMatchObject({
      accountStatus: 'blocked',
      subscriptionStatus: 'blocked',
      subscriptionStatusDescription: 'Blocked',
    });

    const comp = await insertUser({
      accountStatus: 'pending cancel',
      complimentary: true,
      balanceCents: -1999,
    });
    const compBody = (await (await signedIn(comp.id)).request('GET', '/api/users/current')).json();
    expect(compBody.data).toMatchObject({
      subscriptionStatusDescription: 'Pending Cancel',
      accountStatusDetails: 'complimentary',
      currentBalance: -19.99,
    });
  });

  it('returns only the session’s own user', async () => {
    const first = await insertUser({ dealership: 'First Dealer' });
    const second = await insertUser({ dealership: 'Second Dealer' });
    const a = (await (await signedIn(first.id)).request('GET', '/api/users/current')).json();
    const b = (await (await signedIn(second.id)).request('GET', '/api/users/current')).json();
    expect(a.data.dealership).toBe('First Dealer');
    expect(b.data.dealership).toBe('Second Dealer');
  });
});

describe('POST /api/users/current/karid', () => {
  async function migratedUser(values: Partial<typeof users.$inferInsert> = {}) {
    const user = await insertUser({
      legacyUsername: `legacy${userCounter + 1}`,
      legacyPasswordHash: await hashPassword(LEGACY_PASSWORD),
      programDate: new Date('2026-03-12T15:00:00Z'),
      ...values,
    });
    const session = await signedIn(user.id, false);
    return { user, session };
  }

  async function stateOf(userId: string, idHash: string) {
    const [user] = await t.app.db
      .select({ karId: users.karId })
      .from(users)
      .where(eq(users.id, userId));
    const [session] = await t.app.db
      .select({ viaKarId: sessions.viaKarId })
      .from(sessions)
      .where(eq(sessions.idHash, idHash));
    const [identityCount] = await t.app.db.select({ n: count() }).from(identities);
    return {
      karId: user?.karId ?? null,
      viaKarId: session?.viaKarId,
      identities: identityCount?.n,
    };
  }

  it('creates a DealerPass ID, links it and marks the session as a DealerPass ID session', async () => {
    const { user, session } = await migratedUser();
    const response = await session.request('POST', '/api/users/current/karid', {
      mode: 'create',
      email: 'New.Owner@Example.com',
      password: NEW_PASSWORD,
      confirmPassword: NEW_PASSWORD,
    });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(Object.keys(body.data).sort()).toEqual(USER_FIELDS);
    expect(body.data.karId).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.data.dealerpassUserId).toBe(user.dealerpassUserId);

    const state = await stateOf(user.id, session.idHash);
    expect(state).toMatchObject({ karId: body.data.karId, viaKarId: true });
    const signIn = await authenticateWithEmail(t.app.db, {
      email: 'new.owner@example.com',
      password: NEW_PASSWORD,
      now: clock,
    });
    expect(signIn).toMatchObject({ ok: true, identityId: body.data.karId });

    const current = (await session.request('GET', '/api/users/current')).json();
    expect(current.data.karId).toBe(body.data.karId);
  });

  it('links an existing DealerPass ID with its e-mail and password', async () => {
    const identity = await createIdentity(t.app.db, {
      email: 'existing.id@example.com',
      password: NEW_PASSWORD,
    });
    const { user, session } = await migratedUser();
    const response = await session.request('POST', '/api/users/current/karid', {
      mode: 'link',
      email: 'EXISTING.ID@example.com',
      password: NEW_PASSWORD,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().data.karId).toBe(identity.id);
    expect(await stateOf(user.id, session.idHash)).toMatchObject({
      karId: identity.id,
      viaKarId: true,
    });
  });

  it('refuses an e-mail that already has a DealerPass ID when creating (409), changing nothing', async () => {
    await createIdentity(t.app.db, { email: 'in.use@example.com', password: NEW_PASSWORD });
    const { user, session } = await migratedUser();
    const before = await stateOf(user.id, session.idHash);
    const response = await session.request('POST', '/api/users/current/karid', {
      mode: 'create',
      email: 'in.use@example.com',
      password: NEW_PASSWORD,
      confirmPassword: NEW_PASSWORD,
    });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ code: 'EMAIL_IN_USE' });
    expect(await stateOf(user.id, session.idHash)).toEqual(before);
  });

  it('refuses a DealerPass ID that belongs to another account (409)', async () => {
    const identity = await createIdentity(t.app.db, {
      email: 'someone.else@example.com',
      password: NEW_PASSWORD,
    });
    await insertUser({ karId: identity.id });
    const { user, session } = await migratedUser();
    const before = await stateOf(user.id, session.idHash);
    const response = await session.request('POST', '/api/users/current/karid', {
      mode: 'link',
      email: 'someone.else@example.com',
      password: NEW_PASSWORD,
    });
    expect(response.statusCode).toBe(409);
    expect(response.json().code).toBe('EMAIL_IN_USE');
    expect(await stateOf(user.id, session.idHash)).toEqual(before);
  });

  it('refuses an account that already has a DealerPass ID (409)', async () => {
    const identity = await createIdentity(t.app.db, {
      email: 'already.linked@example.com',
      password: NEW_PASSWORD,
    });
    const user = await insertUser({ karId: identity.id });
    const session = await signedIn(user.id, true);
    for (const payload of [
      {
        mode: 'create',
        email: 'second.id@example.com',
        password: NEW_PASSWORD,
        confirmPassword: NEW_PASSWORD,
      },
      { mode: 'link', email: 'already.linked@example.com', password: NEW_PASSWORD },
    ]) {
      const response = await session.request('POST', '/api/users/current/karid', payload);
      expect(response.statusCode).toBe(409);
      expect(response.json()).toMatchObject({
        code: 'MIGRATED_ACCOUNT_EXISTS',
        message:
          'This username is associated with an existing migrated DealerPass ID. Please log in with your DealerPass ID.',
      });
    }
    const [identityCount] = await t.app.db
      .select({ n: count() })
      .from(identities)
      .where(eq(identities.email, 'second.id@example.com'));
    expect(identityCount?.n).toBe(0);
  });

  it('refuses a wrong password when linking and counts the failure', async () => {
    await createIdentity(t.app.db, { email: 'wrong.pass@example.com', password: NEW_PASSWORD });
    const { user, session } = await migratedUser();
    const before = await stateOf(user.id, session.idHash);
    const response = await session.request('POST', '/api/users/current/karid', {
      mode: 'link',
      email: 'wrong.pass@example.com',
      password: 'Not!ThePass1',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      code: 'INVALID_CREDENTIALS',
      message: 'Invalid credentials. Please try again.',
    });
    expect(await stateOf(user.id, session.idHash)).toEqual(before);
    expect(await attemptsTaken(t, emailAccountKey('wrong.pass@example.com'))).toBe(1);
  });

  it('asks for a captcha once the DealerPass ID has had repeated failures, and links with one', async () => {
    await createIdentity(t.app.db, { email: 'locked.id@example.com', password: NEW_PASSWORD });
    await spendAttempts(t, emailAccountKey('locked.id@example.com'), clock, CAPTCHA_AFTER_FAILURES);
    const { session } = await migratedUser();
    const response = await session.request('POST', '/api/users/current/karid', {
      mode: 'link',
      email: 'locked.id@example.com',
      password: NEW_PASSWORD,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      code: 'SIGN_IN_CAPTCHA_REQUIRED',
      errors: [{ source: 'recaptcha' }],
    });
    const linked = await session.request('POST', '/api/users/current/karid', {
      mode: 'link',
      email: 'locked.id@example.com',
      password: NEW_PASSWORD,
      recaptcha: await t.solveCaptcha(),
    });
    expect(linked.statusCode).toBe(200);
  });

  it('refuses the company e-mail domain for a new DealerPass ID', async () => {
    const { session } = await migratedUser();
    const response = await session.request('POST', '/api/users/current/karid', {
      mode: 'create',
      email: 'staff@dealerpass.example',
      password: NEW_PASSWORD,
      confirmPassword: NEW_PASSWORD,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      code: 'COMPANY_EMAIL_DOMAIN',
      message: 'Cannot create user with DealerPass email domain.',
    });
  });

  it('refuses a blocked account', async () => {
    const { user, session } = await migratedUser({ accountStatus: 'blocked' });
    const response = await session.request('POST', '/api/users/current/karid', {
      mode: 'create',
      email: 'blocked.user@example.com',
      password: NEW_PASSWORD,
      confirmPassword: NEW_PASSWORD,
    });
    expect(response.statusCode).toBe(403);
    expect(response.json().code).toBe('ACCOUNT_BLOCKED');
    expect((await stateOf(user.id, session.idHash)).karId).toBeNull();
  });

  it('validates with the spec’s texts', async () => {
    const { session } = await migratedUser();
    const response = await session.request('POST', '/api/users/current/karid', {
      mode: 'create',
      email: 'not-an-email',
      password: 'weak',
      confirmPassword: 'weaker',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toEqual(
      expect.arrayContaining([
        { source: 'email', message: 'Email not valid.' },
        { source: 'password', message: 'Password does not meet requirements.' },
        { source: 'confirmPassword', message: 'Confirm password does not meet requirements' },
      ]),
    );
  });

  it('needs a session', async () => {
    const response = await browser.request({
      method: 'POST',
      url: '/api/users/current/karid',
      payload: { mode: 'link', email: 'x@example.com', password: 'x' },
      remoteAddress: freshIp(),
    });
    expect(response.statusCode).toBe(401);
  });
});

describe('GET /api/users/userIdTaken/:email and alternateEmailTaken/:email', () => {
  beforeAll(async () => {
    await createIdentity(t.app.db, { email: 'has.id@example.com' });
    await insertUser({
      dealerpassUserId: 'dealer.user@example.com',
      email: 'dealer.user@example.com',
      altEmail: 'alt.taken@example.com',
    });
  });

  const taken = async (kind: 'userIdTaken' | 'alternateEmailTaken', email: string) => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/users/${kind}/${encodeURIComponent(email)}`,
      remoteAddress: freshIp(),
    });
    expect(response.statusCode).toBe(200);
    return response.json();
  };

  it('says whether an address is a user id or a DealerPass ID, in any case', async () => {
    expect(await taken('userIdTaken', 'has.id@example.com')).toEqual({ data: true });
    expect(await taken('userIdTaken', 'Dealer.User@Example.com')).toEqual({ data: true });
    expect(await taken('userIdTaken', 'fresh+tag@example.com')).toEqual({ data: false });
    expect(await taken('userIdTaken', 'alt.taken@example.com')).toEqual({ data: false });
  });

  it('says whether an alternate address is in use anywhere', async () => {
    expect(await taken('alternateEmailTaken', 'ALT.TAKEN@example.com')).toEqual({ data: true });
    expect(await taken('alternateEmailTaken', 'dealer.user@example.com')).toEqual({ data: true });
    expect(await taken('alternateEmailTaken', 'has.id@example.com')).toEqual({ data: true });
    expect(await taken('alternateEmailTaken', 'nobody.yet@example.com')).toEqual({ data: false });
  });

  it('refuses what is not an e-mail', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/users/userIdTaken/not-an-email',
      remoteAddress: freshIp(),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toEqual([{ source: 'email', message: 'Email not valid.' }]);
  });

  it('is limited per client', async () => {
    const remoteAddress = freshIp();
    let last = 0;
    for (let i = 0; i < 31; i += 1) {
      const response = await t.app.inject({
        method: 'GET',
        url: '/api/users/alternateEmailTaken/probe%40example.com',
        remoteAddress,
      });
      last = response.statusCode;
    }
    expect(last).toBe(429);
  });
});

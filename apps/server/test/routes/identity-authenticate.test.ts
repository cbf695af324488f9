import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { errorMessage } from '@dealerpass/domain/messages';
import { failureBudgets, identities, identityTokens, users } from '../../src/db/schema.ts';
import { AppError } from '../../src/errors/app-error.ts';
import {
  authenticateLegacy,
  authenticateWithEmail,
} from '../../src/services/identity/authenticate.ts';
import { createIdentity } from '../../src/services/identity/create-identity.ts';
import {
  consumeIdentityToken,
  hashIdentityToken,
  issueIdentityToken,
} from '../../src/services/identity/identity-tokens.ts';
import {
  hashPassword,
  verifyDummyPassword,
  verifyPassword,
} from '../../src/services/identity/passwords.ts';
import {
  CAPTCHA_AFTER_FAILURES,
  emailAccountKey,
  legacyAccountKey,
} from '../../src/services/identity/sign-in-failures.ts';
import { attemptsTaken, spendAttempts } from '../factories/failure-budget-fixtures.ts';
import { buildTestApp, type TestApp } from '../support/helper.ts';

const PASSWORD = 'Corr3ct!Horse';
const T0 = new Date('2026-03-02T15:00:00Z');
const minutesAfter = (minutes: number, from = T0) => new Date(from.getTime() + minutes * 60_000);

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const failuresOf = (accountKey: string) => attemptsTaken(t, accountKey);

async function insertUser(
  values: Partial<typeof users.$inferInsert> & { dealerpassUserId: string },
) {
  const [row] = await t.app.db
    .insert(users)
    .values({
      email: `${values.dealerpassUserId}@example.com`,
      firstName: 'Lee',
      lastName: 'Legacy',
      dealership: 'Legacy Motors',
      phone: '3135550100',
      address1: '1 Main St',
      city: 'Detroit',
      state: 'MI',
      zip: '48201',
      ...values,
    })
    .returning({ id: users.id });
  if (!row) throw new Error('no user');
  return row.id;
}

async function expectAppError(promise: Promise<unknown>, code: string, status: number) {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).code).toBe(code);
  expect((error as AppError).statusCode).toBe(status);
  expect((error as AppError).message).toBe(errorMessage(code));
}

describe('passwords', () => {
  it('hashes with Argon2id, memory-hard parameters and a random salt', async () => {
    const first = await hashPassword(PASSWORD);
    const second = await hashPassword(PASSWORD);
    expect(first).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(first).not.toBe(second);
    expect(first).not.toContain(PASSWORD);
  });

  it('verifies the right password only', async () => {
    const hash = await hashPassword(PASSWORD);
    expect(await verifyPassword(hash, PASSWORD)).toBe(true);
    expect(await verifyPassword(hash, 'corr3ct!horse')).toBe(false);
    expect(await verifyPassword(hash, '')).toBe(false);
  });

  it('treats a malformed hash as a mismatch', async () => {
    expect(await verifyPassword('not-a-hash', PASSWORD)).toBe(false);
    expect(await verifyDummyPassword(PASSWORD)).toBe(false);
  });
});

describe('createIdentity', () => {
  it('stores the e-mail lower-cased and the password hashed', async () => {
    const identity = await createIdentity(t.app.db, {
      email: '  New.Person@Example.COM ',
      password: PASSWORD,
    });
    expect(identity.email).toBe('new.person@example.com');
    const [row] = await t.app.db.select().from(identities).where(eq(identities.id, identity.id));
    expect(row?.passwordHash).toMatch(/^\$argon2id\$/);
    expect(row?.emailVerified).toBe(false);
  });

  it('leaves the password unset when none is given', async () => {
    const identity = await createIdentity(t.app.db, { email: 'no.password@example.com' });
    const [row] = await t.app.db.select().from(identities).where(eq(identities.id, identity.id));
    expect(row?.passwordHash).toBeNull();
  });

  it('refuses an e-mail that already has an account, in any case', async () => {
    await createIdentity(t.app.db, { email: 'taken@example.com' });
    await expectAppError(
      createIdentity(t.app.db, { email: 'TAKEN@example.com', password: PASSWORD }),
      'EMAIL_IN_USE',
      409,
    );
  });
});

describe('authenticateWithEmail', () => {
  let identityId: string;
  beforeAll(async () => {
    ({ id: identityId } = await createIdentity(t.app.db, {
      email: 'dana@example.com',
      password: PASSWORD,
    }));
  });

  it('accepts the right password with the e-mail in any case', async () => {
    const result = await authenticateWithEmail(t.app.db, {
      email: ' Dana@EXAMPLE.com',
      password: PASSWORD,
      now: T0,
    });
    expect(result).toEqual({ ok: true, identityId, email: 'dana@example.com' });
  });

  it('answers invalid for a wrong password, an unknown e-mail and an unset password, counting each', async () => {
    for (const [email, password] of [
      ['dana@example.com', 'Wrong!Pass1'],
      ['nobody@example.com', PASSWORD],
      ['no.password@example.com', PASSWORD],
    ] as const) {
      const before = await failuresOf(emailAccountKey(email));
      const result = await authenticateWithEmail(t.app.db, { email, password, now: T0 });
      expect(result).toEqual({ ok: false, reason: 'invalid' });
      expect(await failuresOf(emailAccountKey(email))).toBe(before + 1);
    }
  });

  it('after five failures within an hour asks for a captcha with each attempt, even with the right password', async () => {
    const email = 'lockout@example.com';
    await createIdentity(t.app.db, { email, password: PASSWORD });
    for (let attempt = 1; attempt <= CAPTCHA_AFTER_FAILURES; attempt += 1) {
      const result = await authenticateWithEmail(t.app.db, {
        email,
        password: `Wrong!Pass${attempt}`,
        now: minutesAfter(attempt * 0.5),
      });
      expect(result).toEqual({ ok: false, reason: 'invalid' });
    }
    // Without a captcha the next attempt is refused before the password is looked at.
    const noCaptcha = await authenticateWithEmail(t.app.db, {
      email: 'LOCKOUT@example.com',
      password: PASSWORD,
      now: minutesAfter(5),
    });
    expect(noCaptcha).toEqual({ ok: false, reason: 'captcha' });
    // The refused attempt was taken from the budget too: taken before anything is checked
    // (docs/decisions/029).
    expect(await failuresOf(emailAccountKey(email))).toBe(CAPTCHA_AFTER_FAILURES + 1);
    // A solved captcha carries one attempt: a wrong password spends it.
    const first = { verifier: t.app.captcha, token: await t.solveCaptcha(), remoteIp: '127.0.0.1' };
    expect(
      await authenticateWithEmail(t.app.db, {
        email,
        password: 'Wrong!PassX',
        now: minutesAfter(6),
        captcha: first,
      }),
    ).toEqual({ ok: false, reason: 'invalid' });
    expect(
      await authenticateWithEmail(t.app.db, {
        email,
        password: PASSWORD,
        now: minutesAfter(7),
        captcha: first,
      }),
    ).toEqual({ ok: false, reason: 'captcha' });
    // A fresh one lets the right password in at once: there is no lock for an attacker to cause.
    const withCaptcha = await authenticateWithEmail(t.app.db, {
      email,
      password: PASSWORD,
      now: minutesAfter(8),
      captcha: { verifier: t.app.captcha, token: await t.solveCaptcha(), remoteIp: '127.0.0.1' },
    });
    expect(withCaptcha.ok).toBe(true);
    // Once the owner is in, the failures are forgotten: the next sign-in needs no captcha.
    expect(await failuresOf(emailAccountKey(email))).toBe(0);
    const next = await authenticateWithEmail(t.app.db, {
      email,
      password: PASSWORD,
      now: minutesAfter(9),
    });
    expect(next.ok).toBe(true);
  });

  it('stops asking for a captcha an hour after the failures', async () => {
    const key = emailAccountKey('an.hour@example.com');
    await createIdentity(t.app.db, { email: 'an.hour@example.com', password: PASSWORD });
    await spendAttempts(t, key, T0, CAPTCHA_AFTER_FAILURES);
    const later = await authenticateWithEmail(t.app.db, {
      email: 'an.hour@example.com',
      password: PASSWORD,
      now: minutesAfter(61),
    });
    expect(later.ok).toBe(true);
  });

  it('lets the owner in with a captcha after a hundred failures from an attacker', async () => {
    const email = 'targeted@example.com';
    await createIdentity(t.app.db, { email, password: PASSWORD });
    await spendAttempts(t, emailAccountKey(email), T0, 100);
    const result = await authenticateWithEmail(t.app.db, {
      email,
      password: PASSWORD,
      now: minutesAfter(1),
      captcha: { verifier: t.app.captcha, token: await t.solveCaptcha(), remoteIp: '127.0.0.1' },
    });
    expect(result.ok).toBe(true);
  });

  it('asks an unknown e-mail for a captcha exactly like a known one', async () => {
    const key = emailAccountKey('ghost@example.com');
    await spendAttempts(t, key, T0, CAPTCHA_AFTER_FAILURES);
    const result = await authenticateWithEmail(t.app.db, {
      email: 'ghost@example.com',
      password: PASSWORD,
      now: minutesAfter(59),
    });
    expect(result).toEqual({ ok: false, reason: 'captcha' });
  });
});

describe('authenticateLegacy', () => {
  let legacyUserId: string;
  let migratedUserId: string;
  beforeAll(async () => {
    const legacyPasswordHash = await hashPassword(PASSWORD);
    legacyUserId = await insertUser({
      dealerpassUserId: 'lee.legacy',
      legacyUsername: 'lee.legacy',
      legacyPasswordHash,
    });
    const { id: karId } = await createIdentity(t.app.db, {
      email: 'moved@example.com',
      password: PASSWORD,
    });
    migratedUserId = await insertUser({
      dealerpassUserId: 'mo.moved',
      legacyUsername: 'mo.moved',
      legacyPasswordHash,
      karId,
    });
    await insertUser({ dealerpassUserId: 'no.legacy.hash', legacyUsername: 'no.legacy.hash' });
  });

  it('accepts the legacy username in any case with its password', async () => {
    expect(
      await authenticateLegacy(t.app.db, { username: 'Lee.Legacy', password: PASSWORD, now: T0 }),
    ).toEqual({ ok: true, userId: legacyUserId });
  });

  it('answers invalid for a wrong password, an unknown username or no legacy password', async () => {
    for (const [username, password] of [
      ['lee.legacy', 'Wrong!Pass1'],
      ['nobody', PASSWORD],
      ['no.legacy.hash', PASSWORD],
      ['', PASSWORD],
    ] as const) {
      const before = await failuresOf(legacyAccountKey(username));
      expect(await authenticateLegacy(t.app.db, { username, password, now: T0 })).toEqual({
        ok: false,
        reason: 'invalid',
      });
      expect(await failuresOf(legacyAccountKey(username))).toBe(before + 1);
    }
  });

  it('answers migrated once the account has a DealerPass ID, but only to the right password', async () => {
    expect(migratedUserId).toBeTruthy();
    expect(
      await authenticateLegacy(t.app.db, { username: 'MO.MOVED', password: PASSWORD, now: T0 }),
    ).toEqual({ ok: false, reason: 'migrated' });
    expect(
      await authenticateLegacy(t.app.db, {
        username: 'mo.moved',
        password: 'Wrong!Pass1',
        now: T0,
      }),
    ).toEqual({ ok: false, reason: 'invalid' });
    expect(errorMessage('MIGRATED_ACCOUNT_EXISTS')).toBe(
      'This username is associated with an existing migrated DealerPass ID. Please log in with your DealerPass ID.',
    );
  });

  it('asks for a captcha after five failures within the hour, and not an hour later', async () => {
    const key = legacyAccountKey('lee.legacy');
    await t.app.db.delete(failureBudgets).where(eq(failureBudgets.budgetKey, key));
    await spendAttempts(t, key, T0, CAPTCHA_AFTER_FAILURES);
    expect(
      await authenticateLegacy(t.app.db, {
        username: 'lee.legacy',
        password: PASSWORD,
        now: minutesAfter(30),
      }),
    ).toEqual({ ok: false, reason: 'captcha' });
    expect(
      await authenticateLegacy(t.app.db, {
        username: 'lee.legacy',
        password: PASSWORD,
        now: minutesAfter(31),
        captcha: { verifier: t.app.captcha, token: await t.solveCaptcha(), remoteIp: '127.0.0.1' },
      }),
    ).toEqual({ ok: true, userId: legacyUserId });
    expect(
      await authenticateLegacy(t.app.db, {
        username: 'lee.legacy',
        password: PASSWORD,
        now: minutesAfter(61),
      }),
    ).toEqual({ ok: true, userId: legacyUserId });
  });
});

describe('identity tokens', () => {
  let identityId: string;
  beforeAll(async () => {
    ({ id: identityId } = await createIdentity(t.app.db, { email: 'token.owner@example.com' }));
  });

  const issue = (purpose: 'set-password' | 'reset-password' = 'reset-password', now = T0) =>
    issueIdentityToken(t.app.db, { identityId, purpose, now, ttlMinutes: 60 });
  const consume = (
    token: string,
    now = T0,
    purpose: 'set-password' | 'reset-password' = 'reset-password',
  ) => t.app.db.transaction((tx) => consumeIdentityToken(tx, { token, purpose, now }));

  it('returns 32 random bytes in base64url and stores only their SHA-256', async () => {
    const token = await issue();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const rows = await t.app.db
      .select()
      .from(identityTokens)
      .where(eq(identityTokens.identityId, identityId));
    expect(rows.map((r) => r.tokenHash)).toContain(hashIdentityToken(token));
    expect(JSON.stringify(rows)).not.toContain(token);
  });

  it('is spent once', async () => {
    const token = await issue();
    expect(await consume(token, minutesAfter(5))).toEqual({
      identityId,
      email: 'token.owner@example.com',
    });
    await expectAppError(consume(token, minutesAfter(6)), 'RESET_INVALID', 400);
  });

  it('expires after its lifetime', async () => {
    const token = await issue();
    await expectAppError(consume(token, minutesAfter(60)), 'TEMPORARY_PASSWORD_EXPIRED', 400);
    expect(errorMessage('TEMPORARY_PASSWORD_EXPIRED')).toBe(
      'Temporary password has expired.  Please reset again.',
    );
    // Still usable within its hour: the failed attempt spent nothing.
    expect((await consume(token, minutesAfter(59))).identityId).toBe(identityId);
  });

  it('is withdrawn by a newer token of the same purpose, not of another', async () => {
    const older = await issue('reset-password');
    const setLink = await issue('set-password');
    const newer = await issue('reset-password', minutesAfter(1));
    await expectAppError(consume(older, minutesAfter(2)), 'RESET_INVALID', 400);
    expect((await consume(newer, minutesAfter(2))).identityId).toBe(identityId);
    expect((await consume(setLink, minutesAfter(2), 'set-password')).identityId).toBe(identityId);
  });

  it('refuses an unknown token and one of the other purpose', async () => {
    await expectAppError(consume('A'.repeat(43)), 'RESET_INVALID', 400);
    const token = await issue('set-password');
    await expectAppError(consume(token, T0, 'reset-password'), 'RESET_INVALID', 400);
    const [row] = await t.app.db
      .select({ usedAt: identityTokens.usedAt })
      .from(identityTokens)
      .where(
        and(
          eq(identityTokens.tokenHash, hashIdentityToken(token)),
          eq(identityTokens.purpose, 'set-password'),
        ),
      );
    expect(row?.usedAt).toBeNull();
  });
});

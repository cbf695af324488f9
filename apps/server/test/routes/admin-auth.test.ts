import { and, eq, inArray, isNull, ne } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staffAudit, staffSessions, staffUsers } from '../../src/db/schema.ts';
import { totpCode, totpStep } from '../../src/lib/totp.ts';
import { STAFF_SESSION_COOKIE } from '../../src/plugins/staff-session.ts';
import { SESSION_COOKIE } from '../../src/plugins/session.ts';
import {
  hashStaffSessionId,
  STAFF_SESSION_IDLE_MS,
} from '../../src/services/admin/staff/staff-session-store.ts';
import { buildTestApp, type TestApp } from '../support/helper.ts';
import { createAccount, TEST_PASSWORD, TestBrowserSession } from '../factories/sign-in.ts';
import {
  createStaffUser,
  STAFF_TEST_PASSWORD,
  staffSessionFor,
} from '../factories/staff-sign-in.ts';

/**
 * The operator console's sign-in (R12, docs/decisions/026): the staff client of the embedded
 * provider, then a TOTP second factor enrolled at the first sign-in and required at every one.
 */
describe('staff sign-in and second factor', () => {
  let t: TestApp;
  let now = new Date('2026-11-26T15:00:00Z');
  beforeAll(async () => {
    t = await buildTestApp({ now: () => now });
  });
  afterAll(() => t.close());

  /** /admin/login → provider → the staff sign-in → callback: the browser holds a staff session. */
  async function signInAtProvider(browser: TestBrowserSession, email: string, password: string) {
    await browser.open();
    const { url } = await browser.follow('/admin/login');
    const uid = /^\/oidc\/interaction\/([\w-]+)$/.exec(url)?.[1];
    if (!uid) throw new Error(`expected the sign-in page, got ${url}`);
    const details = await browser.get(`/oidc/interaction/${uid}/details`);
    expect(details.json().data.client).toBe('staff');
    await browser.get(url);
    const login = await browser.send('POST', `/oidc/interaction/${uid}/staff-login`, {
      email,
      password,
    });
    if (login.statusCode !== 200) return { login, landed: null, uid };
    const redirectTo = new URL(login.json().data.redirectTo as string);
    const { url: landed } = await browser.follow(`${redirectTo.pathname}${redirectTo.search}`);
    return { login, landed, uid };
  }

  it('enrols an authenticator at the first sign-in, then asks for a code at every sign-in', async () => {
    const staff = await createStaffUser(t, { role: 'support', email: 'first@staff.test' });
    const browser = new TestBrowserSession(t);
    const { landed } = await signInAtProvider(browser, 'First@Staff.test', STAFF_TEST_PASSWORD);
    expect(landed).toBe('/admin');
    expect(browser.jar.get(STAFF_SESSION_COOKIE)).toBeTruthy();

    const session = await browser.get('/api/admin/session');
    expect(session.json().data).toMatchObject({
      email: 'first@staff.test',
      role: 'support',
      secondFactor: false,
      enrolled: false,
    });
    // Nothing of the console opens before the second factor.
    const blocked = await browser.get('/api/admin/staff');
    expect([401, 403]).toContain(blocked.statusCode);

    const enrolment = await browser.send('POST', '/api/admin/session/enrolment', {});
    expect(enrolment.statusCode).toBe(200);
    const { secret, otpauthUri } = enrolment.json().data as { secret: string; otpauthUri: string };
    expect(otpauthUri).toContain(`secret=${secret}`);
    expect(otpauthUri.startsWith('otpauth://totp/')).toBe(true);

    const wrong = await browser.send('POST', '/api/admin/session/verify', { code: '000000' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().code).toBe('TOTP_INVALID');

    const verified = await browser.send('POST', '/api/admin/session/verify', {
      code: totpCode(secret, now),
    });
    expect(verified.statusCode).toBe(200);
    expect(verified.json().data).toMatchObject({ secondFactor: true, enrolled: true });
    const [stored] = await t.app.db.select().from(staffUsers).where(eq(staffUsers.id, staff.id));
    expect(stored?.totpEnrolledAt).not.toBeNull();
    // The secret is sealed at rest, never stored as it was shown.
    expect(stored?.totpSecretEnc).toBeTruthy();
    expect(stored?.totpSecretEnc).not.toContain(secret);
    const audit = await t.app.db.select().from(staffAudit).where(eq(staffAudit.staffId, staff.id));
    expect(audit.map((row) => row.action)).toEqual(['enrolSecondFactor']);

    // The next sign-in: no new secret is offered, the enrolled one's code is required, once.
    now = new Date(now.getTime() + 5 * 60_000);
    const second = new TestBrowserSession(t);
    await signInAtProvider(second, 'first@staff.test', STAFF_TEST_PASSWORD);
    expect((await second.get('/api/admin/session')).json().data).toMatchObject({
      secondFactor: false,
      enrolled: true,
    });
    expect((await second.send('POST', '/api/admin/session/enrolment', {})).statusCode).toBe(409);
    const code = totpCode(secret, now);
    expect((await second.send('POST', '/api/admin/session/verify', { code })).statusCode).toBe(200);
    // The same code again (a replay in a third browser) is refused: each time step once.
    const third = new TestBrowserSession(t);
    await signInAtProvider(third, 'first@staff.test', STAFF_TEST_PASSWORD);
    const replay = await third.send('POST', '/api/admin/session/verify', { code });
    expect(replay.statusCode).toBe(400);
  });

  it('refuses a dealer at the staff client and a staff member at the dealer client', async () => {
    await createAccount(t, { email: 'dealer.at.staff@example.com' });
    const browser = new TestBrowserSession(t);
    const { login } = await signInAtProvider(browser, 'dealer.at.staff@example.com', TEST_PASSWORD);
    expect(login.statusCode).toBe(400);
    expect(browser.jar.get(STAFF_SESSION_COOKIE)).toBeUndefined();

    await createStaffUser(t, { role: 'admin', email: 'admin.at.dealer@staff.test' });
    const dealerBrowser = new TestBrowserSession(t);
    const dealerSide = await dealerBrowser.signIn({
      method: 'email',
      email: 'admin.at.dealer@staff.test',
      password: STAFF_TEST_PASSWORD,
    });
    expect(dealerSide.login.statusCode).toBe(400);
    expect(dealerBrowser.jar.get(SESSION_COOKIE)).toBeUndefined();

    // The staff login endpoint refuses a dealer client's interaction, whatever the credentials.
    await dealerBrowser.open();
    const { url } = await dealerBrowser.follow('/login');
    const uid = /^\/oidc\/interaction\/([\w-]+)$/.exec(url)?.[1];
    await dealerBrowser.get(url);
    const crossed = await dealerBrowser.send('POST', `/oidc/interaction/${uid}/staff-login`, {
      email: 'admin.at.dealer@staff.test',
      password: STAFF_TEST_PASSWORD,
    });
    expect(crossed.statusCode).toBe(404);
  });

  it('refuses a disabled member and a wrong password alike', async () => {
    const staff = await createStaffUser(t, { role: 'billing', email: 'gone@staff.test' });
    await t.app.db.update(staffUsers).set({ disabledAt: now }).where(eq(staffUsers.id, staff.id));
    for (const password of [STAFF_TEST_PASSWORD, 'Wrong!Passw0rd']) {
      const { login } = await signInAtProvider(
        new TestBrowserSession(t),
        'gone@staff.test',
        password,
      );
      expect(login.statusCode).toBe(400);
      expect(login.json().code).toBe('INVALID_CREDENTIALS');
    }
  });

  it('ends the session after five wrong codes', async () => {
    const { cookie } = await staffSessionFor(t, 'support', { secondFactor: false, now });
    const browser = await t.browser();
    const send = (code: string) =>
      browser.request({
        method: 'POST',
        url: '/api/admin/session/verify',
        headers: { cookie: `${browser.cookie}; ${cookie}` },
        payload: { code },
      });
    // Not enrolled yet and no secret offered: every code is wrong.
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push((await send('123456')).statusCode);
    expect(answers).toEqual([400, 400, 400, 400, 401]);
    const after = await browser.request({
      method: 'GET',
      url: '/api/admin/session',
      headers: { cookie: `${browser.cookie}; ${cookie}` },
    });
    expect(after.statusCode).toBe(401);
  });

  it('ends a staff session after 15 idle minutes and after 8 hours', async () => {
    const { cookie, rawId } = await staffSessionFor(t, 'support', { now });
    const get = () =>
      t.app.inject({ method: 'GET', url: '/api/admin/session', headers: { cookie } });
    expect((await get()).statusCode).toBe(200);
    const start = now;
    now = new Date(start.getTime() + STAFF_SESSION_IDLE_MS + 1000);
    expect((await get()).statusCode).toBe(401);
    const [row] = await t.app.db
      .select()
      .from(staffSessions)
      .where(eq(staffSessions.idHash, hashStaffSessionId(rawId)));
    expect(row?.endReason).toBe('expired');

    // Active every 10 minutes, still ended at 8 hours.
    const busy = await staffSessionFor(t, 'support', { now });
    const busyStart = now;
    let last = 200;
    for (let minutes = 10; minutes <= 8 * 60 + 10; minutes += 10) {
      now = new Date(busyStart.getTime() + minutes * 60_000);
      last = (
        await t.app.inject({
          method: 'GET',
          url: '/api/admin/session',
          headers: { cookie: busy.cookie },
        })
      ).statusCode;
      if (minutes < 8 * 60) expect(last).toBe(200);
    }
    expect(last).toBe(401);
  });

  it('signs out: the session ends and the provider session is ended', async () => {
    const { cookie, rawId } = await staffSessionFor(t, 'admin', { now });
    const browser = await t.browser();
    const out = await browser.request({
      method: 'POST',
      url: '/api/admin/logout',
      headers: { cookie: `${browser.cookie}; ${cookie}` },
    });
    expect(out.statusCode).toBe(200);
    expect(out.json().data.redirectTo).toBeTruthy();
    const [row] = await t.app.db
      .select()
      .from(staffSessions)
      .where(eq(staffSessions.idHash, hashStaffSessionId(rawId)));
    expect(row?.endReason).toBe('logout');
  });

  it('lets an admin add a member and reset a member’s authenticator, audited, once per key', async () => {
    const admin = await staffSessionFor(t, 'admin', { now });
    const browser = await t.browser();
    const as = (cookie: string, method: 'GET' | 'POST', url: string, payload?: object) =>
      browser.request({
        method,
        url,
        headers: { cookie: `${browser.cookie}; ${cookie}` },
        ...(payload === undefined ? {} : { payload }),
      });
    const requestKey = crypto.randomUUID();
    const body = {
      email: 'New.Member@staff.test',
      name: 'New Member',
      role: 'support',
      password: 'Member!Passw0rd',
      requestKey,
    };
    // With the embedded provider the first password is required, by the documented schema
    // (docs/decisions/053), with the page's words.
    const { password: _password, ...withoutPassword } = body;
    const noPassword = await as(admin.cookie, 'POST', '/api/admin/staff', withoutPassword);
    expect(noPassword.statusCode).toBe(400);
    expect(noPassword.json().errors).toEqual([
      { source: 'password', message: 'A first password is required.' },
    ]);
    const created = await as(admin.cookie, 'POST', '/api/admin/staff', body);
    expect(created.statusCode).toBe(201);
    const again = await as(admin.cookie, 'POST', '/api/admin/staff', body);
    expect(again.statusCode).toBe(201);
    expect(again.json().data).toEqual(created.json().data);
    const duplicate = await as(admin.cookie, 'POST', '/api/admin/staff', {
      ...body,
      requestKey: crypto.randomUUID(),
    });
    expect(duplicate.statusCode).toBe(409);

    const list = await as(admin.cookie, 'GET', '/api/admin/staff');
    const member = (list.json().data as { email: string; id: string }[]).find(
      (row) => row.email === 'new.member@staff.test',
    );
    expect(member).toBeDefined();
    expect(JSON.stringify(list.json())).not.toMatch(/password|secret|\$argon2/i);

    // The member enrols, then an admin resets it: the member's sessions end.
    const memberSession = await staffSessionFor(t, 'support', {
      now,
      email: 'reset.me@staff.test',
    });
    const reset = await as(
      admin.cookie,
      'POST',
      `/api/admin/staff/${memberSession.staff.id}/reset-second-factor`,
      { reason: 'lost phone', requestKey: crypto.randomUUID() },
    );
    expect(reset.statusCode).toBe(200);
    const [after] = await t.app.db
      .select()
      .from(staffUsers)
      .where(eq(staffUsers.id, memberSession.staff.id));
    expect(after?.totpEnrolledAt).toBeNull();
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: '/api/admin/session',
          headers: { cookie: memberSession.cookie },
        })
      ).statusCode,
    ).toBe(401);
    const actions = await t.app.db
      .select({ action: staffAudit.action, reason: staffAudit.reason })
      .from(staffAudit)
      .where(eq(staffAudit.staffId, admin.staff.id));
    expect(actions).toEqual([
      { action: 'createStaff', reason: null },
      { action: 'resetStaffSecondFactor', reason: 'lost phone' },
    ]);

    // Support and billing may not manage staff.
    for (const role of ['support', 'billing'] as const) {
      const other = await staffSessionFor(t, role, { now });
      const refused = await as(other.cookie, 'GET', '/api/admin/staff');
      expect(refused.statusCode).toBe(403);
      expect(refused.json().code).toBe('STAFF_ROLE_REQUIRED');
    }
  });

  it('lets an admin change a member’s role and disable or enable them, audited; never themself or the last admin (issue 25 item 17)', async () => {
    const admin = await staffSessionFor(t, 'admin', { now });
    const browser = await t.browser();
    const as = (cookie: string, url: string, payload: object) =>
      browser.request({
        method: 'POST',
        url,
        headers: { cookie: `${browser.cookie}; ${cookie}` },
        payload,
      });
    const member = await staffSessionFor(t, 'support', { now, email: 'moving.on@staff.test' });
    const memberSession = () =>
      t.app.inject({
        method: 'GET',
        url: '/api/admin/session',
        headers: { cookie: member.cookie },
      });
    const roleUrl = `/api/admin/staff/${member.staff.id}/role`;
    const disabledUrl = `/api/admin/staff/${member.staff.id}/disabled`;

    // The role: the member's open session has the new one at its next request.
    const roleKey = crypto.randomUUID();
    const role = { role: 'billing', reason: 'Moved to the billing team', requestKey: roleKey };
    expect((await as(admin.cookie, roleUrl, role)).statusCode).toBe(200);
    expect((await memberSession()).json().data.role).toBe('billing');
    const repeat = await as(admin.cookie, roleUrl, role);
    expect(repeat.statusCode).toBe(200);
    const same = await as(admin.cookie, roleUrl, { ...role, requestKey: crypto.randomUUID() });
    expect(same.statusCode).toBe(409);
    expect(same.json().message).toBe('This member already has that role.');

    // Disabled: the session ends at once, and the member cannot sign in.
    const disable = { disabled: true, reason: 'Left the company', requestKey: crypto.randomUUID() };
    expect((await as(admin.cookie, disabledUrl, disable)).statusCode).toBe(200);
    expect((await memberSession()).statusCode).toBe(401);
    const [ended] = await t.app.db
      .select()
      .from(staffSessions)
      .where(eq(staffSessions.staffId, member.staff.id));
    expect(ended).toMatchObject({ endReason: 'disabled' });
    const { login } = await signInAtProvider(
      new TestBrowserSession(t),
      'moving.on@staff.test',
      STAFF_TEST_PASSWORD,
    );
    expect(login.statusCode).toBe(400);
    const list = await browser.request({
      method: 'GET',
      url: '/api/admin/staff',
      headers: { cookie: `${browser.cookie}; ${admin.cookie}` },
    });
    expect(
      (list.json().data as { id: string; disabled: boolean; role: string }[]).find(
        (row) => row.id === member.staff.id,
      ),
    ).toMatchObject({ disabled: true, role: 'billing' });
    const enable = { disabled: false, reason: 'Came back', requestKey: crypto.randomUUID() };
    expect((await as(admin.cookie, disabledUrl, enable)).statusCode).toBe(200);
    const { login: back } = await signInAtProvider(
      new TestBrowserSession(t),
      'moving.on@staff.test',
      STAFF_TEST_PASSWORD,
    );
    expect(back.statusCode).toBe(200);

    // Audited with before and after and the reason.
    const audit = await t.app.db
      .select()
      .from(staffAudit)
      .where(eq(staffAudit.staffId, admin.staff.id))
      .orderBy(staffAudit.id);
    expect(audit.map((row) => [row.action, row.before, row.after, row.reason])).toEqual([
      [
        'changeStaffRole',
        expect.objectContaining({ staffId: member.staff.id, role: 'support' }),
        expect.objectContaining({ staffId: member.staff.id, role: 'billing' }),
        'Moved to the billing team',
      ],
      [
        'disableStaff',
        expect.objectContaining({ disabled: false }),
        expect.objectContaining({ disabled: true }),
        'Left the company',
      ],
      [
        'enableStaff',
        expect.objectContaining({ disabled: true }),
        expect.objectContaining({ disabled: false }),
        'Came back',
      ],
    ]);

    // An admin does not disable themself.
    const self = await as(admin.cookie, `/api/admin/staff/${admin.staff.id}/disabled`, {
      disabled: true,
      reason: 'Testing',
      requestKey: crypto.randomUUID(),
    });
    expect(self.statusCode).toBe(409);
    expect(self.json().message).toBe('You cannot disable your own staff account.');

    // The last admin who can sign in stays one: the others disabled for this part.
    const others = await t.app.db
      .update(staffUsers)
      .set({ disabledAt: now })
      .where(
        and(
          eq(staffUsers.role, 'admin'),
          isNull(staffUsers.disabledAt),
          ne(staffUsers.id, admin.staff.id),
        ),
      )
      .returning({ id: staffUsers.id });
    try {
      const demoted = await as(admin.cookie, `/api/admin/staff/${admin.staff.id}/role`, {
        role: 'billing',
        reason: 'Testing',
        requestKey: crypto.randomUUID(),
      });
      expect(demoted.statusCode).toBe(409);
      expect(demoted.json().message).toMatch(/at least one admin/);
      const second = await staffSessionFor(t, 'admin', { now });
      // Two admins: one may demote the other, but then not be demoted by anyone.
      const first = await as(second.cookie, `/api/admin/staff/${admin.staff.id}/role`, {
        role: 'support',
        reason: 'Testing',
        requestKey: crypto.randomUUID(),
      });
      expect(first.statusCode).toBe(200);
      const last = await as(second.cookie, `/api/admin/staff/${second.staff.id}/role`, {
        role: 'support',
        reason: 'Testing',
        requestKey: crypto.randomUUID(),
      });
      expect(last.statusCode).toBe(409);
    } finally {
      if (others.length > 0) {
        await t.app.db
          .update(staffUsers)
          .set({ disabledAt: null })
          .where(
            inArray(
              staffUsers.id,
              others.map((row) => row.id),
            ),
          );
      }
    }

    // Only admins manage staff.
    const billing = await staffSessionFor(t, 'billing', { now });
    const refused = await as(billing.cookie, disabledUrl, {
      ...disable,
      requestKey: crypto.randomUUID(),
    });
    expect(refused.statusCode).toBe(403);
  });

  it('keeps the audit append-only in the database itself', async () => {
    const [row] = await t.app.db.select().from(staffAudit).limit(1);
    expect(row).toBeDefined();
    await expect(
      t.app.db.update(staffAudit).set({ reason: 'edited' }).where(eq(staffAudit.id, row!.id)),
    ).rejects.toThrow();
    await expect(t.app.db.delete(staffAudit).where(eq(staffAudit.id, row!.id))).rejects.toThrow();
  });

  it('computes RFC 6238 codes (the RFC’s SHA-1 test vector, 6 digits)', () => {
    // RFC 6238 appendix B: secret "12345678901234567890", T = 59 s → 94287082 (8 digits).
    const secret = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';
    expect(totpStep(new Date(59_000))).toBe(1);
    expect(totpCode(secret, new Date(59_000))).toBe('287082');
    expect(totpCode(secret, new Date(1_111_111_109_000))).toBe('081804');
  });
});

import type { PGlite } from '@electric-sql/pglite';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Database } from '../../src/db/client.ts';
import { attachPgliteRunner, countStatements, runPrepared } from '../../src/db/prepared.ts';
import { users } from '../../src/db/schema.ts';
import { SESSION_COOKIE } from '../../src/plugins/session.ts';
import { buildTestApp, type TestApp, type TestBrowser } from '../support/helper.ts';
import { addOpeningBalance, createAccount, sessionFor } from '../factories/sign-in.ts';

/**
 * On PGlite the session statement's answer is used again while no other statement has run
 * (db/prepared.ts, docs/decisions/027). Every change a request can make, or a job, or a staff
 * action, is a statement: each must show on the very next request. Run on PostgreSQL too, where
 * nothing is kept: the same answers.
 */
describe('the signed-in row, read again after every change', () => {
  let offsetMs = 0;
  let t: TestApp;
  let browser: TestBrowser;
  beforeAll(async () => {
    t = await buildTestApp({ now: () => new Date(Date.now() + offsetMs) });
    browser = await t.browser();
  });
  afterAll(() => t.close());

  const current = (rawId: string) =>
    t.app.inject({
      method: 'GET',
      url: '/api/users/current',
      headers: { cookie: `${SESSION_COOKIE}=${rawId}` },
    });

  async function signedInAccount(email: string) {
    offsetMs = 0;
    const { user } = await createAccount(t, { email });
    const rawId = await sessionFor(t, user.id);
    // Twice: the second answer is the kept one on PGlite.
    expect((await current(rawId)).statusCode).toBe(200);
    expect((await current(rawId)).statusCode).toBe(200);
    return { user, rawId };
  }

  it('a profile change through the API', async () => {
    const { rawId } = await signedInAccount('reuse.profile@example.com');
    const saved = await browser.request({
      method: 'PUT',
      url: '/api/users/current?verifyAutoCheckCredentials=false',
      headers: { cookie: `${browser.cookie}; ${SESSION_COOKIE}=${rawId}` },
      payload: { altEmail: 'desk@example.com', altPhone: '3135550199' },
    });
    expect(saved.statusCode).toBe(200);
    expect((await current(rawId)).json().data).toMatchObject({
      altEmail: 'desk@example.com',
      altPhone: '3135550199',
    });
  });

  it('an account status changed by another part of the server (a job, staff)', async () => {
    const { user, rawId } = await signedInAccount('reuse.status@example.com');
    await t.app.db.update(users).set({ accountStatus: 'inactive' }).where(eq(users.id, user.id));
    expect((await current(rawId)).json().data.accountStatus).toBe('inactive');
    await t.app.db.update(users).set({ accountStatus: 'blocked' }).where(eq(users.id, user.id));
    expect((await current(rawId)).json().data.accountStatus).toBe('blocked');
  });

  it('a balance entry', async () => {
    const { user, rawId } = await signedInAccount('reuse.balance@example.com');
    expect((await current(rawId)).json().data.currentBalance).toBe(0);
    await addOpeningBalance(t, user.id, 2550);
    expect((await current(rawId)).json().data.currentBalance).toBe(25.5);
  });

  it('sign-out: the next request is refused as invalidToken', async () => {
    const { rawId } = await signedInAccount('reuse.logout@example.com');
    const out = await browser.request({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { cookie: `${browser.cookie}; ${SESSION_COOKIE}=${rawId}` },
      payload: {},
    });
    expect(out.statusCode).toBe(200);
    const after = await current(rawId);
    expect(after.statusCode).toBe(403);
    expect(after.json()).toBe('invalidToken');
  });

  it('a newer sign-in: the older session is refused as duplicateSession, the newer served', async () => {
    const { user, rawId } = await signedInAccount('reuse.duplicate@example.com');
    const newer = await sessionFor(t, user.id);
    const older = await current(rawId);
    expect(older.statusCode).toBe(403);
    expect(older.json()).toBe('duplicateSession');
    expect((await current(newer)).statusCode).toBe(200);
  });

  it('the idle limit, with nothing written in between: the clock is applied to the kept row', async () => {
    const { rawId } = await signedInAccount('reuse.idle@example.com');
    offsetMs = 31 * 60 * 1000;
    const after = await current(rawId);
    expect(after.statusCode).toBe(403);
    expect(after.json()).toBe('invalidToken');
  });
});

describe('countStatements and the kept answer', () => {
  /** A stand-in PGlite: exec answers the statement's one row, query answers nothing. */
  function fakePglite() {
    let answer = 1;
    const exec = vi.fn(async (text: string) =>
      text.startsWith('execute') ? [{ rows: [{ n: answer }] }] : [],
    );
    const query = vi.fn(async () => ({ rows: [] }));
    const transaction = vi.fn(async (run: (tx: unknown) => Promise<unknown>) => run({}));
    const client = { exec, query, transaction } as unknown as PGlite;
    return { client, exec, setAnswer: (n: number) => (answer = n) };
  }
  const STATEMENT = { name: 'dp_test_reuse', text: 'select 1 as n', reusable: true };

  it('answers a reusable statement from memory until any other call starts', async () => {
    const { client, exec, setAnswer } = fakePglite();
    const count = countStatements(client);
    const db = {} as Database;
    attachPgliteRunner(db, client, count);
    const executes = () => exec.mock.calls.filter(([text]) => text.startsWith('execute')).length;

    expect(await runPrepared(db, STATEMENT, ['token'])).toEqual([{ n: 1 }]);
    setAnswer(2);
    expect(await runPrepared(db, STATEMENT, ['token'])).toEqual([{ n: 1 }]);
    expect(executes()).toBe(1);
    // Another parameter is another answer.
    expect(await runPrepared(db, STATEMENT, ['other'])).toEqual([{ n: 2 }]);
    // Any call through the counted client, a read as much as a write, retires what was kept.
    await count.client.query('select 1');
    expect(await runPrepared(db, STATEMENT, ['token'])).toEqual([{ n: 2 }]);
    setAnswer(3);
    await count.client.transaction(async () => undefined);
    expect(await runPrepared(db, STATEMENT, ['token'])).toEqual([{ n: 3 }]);
    // A statement not marked reusable is counted like any other.
    await runPrepared(db, { name: 'dp_test_write', text: 'update x set y = 1' }, ['token']);
    setAnswer(4);
    expect(await runPrepared(db, STATEMENT, ['token'])).toEqual([{ n: 4 }]);
  });

  it('retires an answer read while another call ran, once that call ends', async () => {
    const { client, setAnswer } = fakePglite();
    const count = countStatements(client);
    const db = {} as Database;
    attachPgliteRunner(db, client, count);
    let finish: () => void = () => undefined;
    const running = count.client.transaction(
      () => new Promise<void>((resolve) => (finish = resolve)),
    );
    expect(await runPrepared(db, STATEMENT, ['token'])).toEqual([{ n: 1 }]);
    finish();
    await running;
    setAnswer(2);
    expect(await runPrepared(db, STATEMENT, ['token'])).toEqual([{ n: 2 }]);
  });

  it('hands each caller its own rows', async () => {
    const { client } = fakePglite();
    const db = {} as Database;
    attachPgliteRunner(db, client, countStatements(client));
    const [first] = await runPrepared<{ n: number }>(db, STATEMENT, ['token']);
    first!.n = 99;
    expect(await runPrepared(db, STATEMENT, ['token'])).toEqual([{ n: 1 }]);
  });
});

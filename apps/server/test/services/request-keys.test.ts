import { randomUUID } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  contactReplies,
  contactRequests,
  mailOutbox,
  promotionCodes,
  refunds,
  staffUsers,
  subscriptions,
} from '../../src/db/schema.ts';
import { SESSION_COOKIE } from '../../src/plugins/session.ts';
import { consolePost, renewingDealer, staffCookies } from '../factories/admin-fixtures.ts';
import { buildTestApp, type TestApp, type TestBrowser } from '../support/helper.ts';
import { sessionFor } from '../factories/sign-in.ts';
import { staffSessionFor } from '../factories/staff-sign-in.ts';

const NOW = new Date('2026-03-10T15:00:00Z');

/**
 * One intent, one key (issue 25 item 1, docs/decisions/031): the console's forms resent the first
 * request's key with new content and the server answered the first request's result, so the
 * screen said "created" for a promotion and a member that were never created, a reset for a
 * member who kept their authenticator and a reply that was never sent. A key now stands for one
 * request: sent again with another target or body it is 409 REQUEST_KEY_REUSED and nothing is
 * written; the same request again is answered as the first was.
 */
describe('a request key is one request', () => {
  let t: TestApp;
  let browser: TestBrowser;
  let cookies: Awaited<ReturnType<typeof staffCookies>>;

  beforeAll(async () => {
    t = await buildTestApp({ now: () => NOW });
    browser = await t.browser();
    cookies = await staffCookies(t);
  }, 60_000);
  afterAll(() => t.close());

  const post = (url: string, body: object, cookie = cookies.admin.cookie) =>
    consolePost(t, browser, cookie, url, body);
  const promotion = (code: string, requestKey: string) => ({
    code,
    kind: 'percent_off',
    value: 10,
    description: 'Spring',
    requiresCard: false,
    requestKey,
  });
  const codesIn = async (codes: string[]) =>
    (
      await t.app.db
        .select({ code: promotionCodes.code })
        .from(promotionCodes)
        .where(inArray(promotionCodes.code, codes))
    )
      .map((row) => row.code)
      .sort();

  it('a second promotion sent with the first one’s key is refused and not created; with its own key it is created', async () => {
    const key = randomUUID();
    const first = await post('/api/admin/promotions', promotion('UXAAA', key));
    expect(first.statusCode, first.body).toBe(201);
    const second = await post('/api/admin/promotions', promotion('UXBBB', key));
    expect(second.statusCode).toBe(409);
    expect(second.json().code).toBe('REQUEST_KEY_REUSED');
    expect(await codesIn(['UXAAA', 'UXBBB'])).toEqual(['UXAAA']);

    // The same request again (a double click, a retried call) is answered as the first was.
    const repeated = await post('/api/admin/promotions', promotion('UXAAA', key));
    expect(repeated.statusCode).toBe(201);
    expect(repeated.json().data.auditId).toBe(first.json().data.auditId);

    // What the web app does now: a new key for new content. Both exist, and a duplicate code
    // typed in the same visit is refused as a duplicate, never "created".
    const third = await post('/api/admin/promotions', promotion('UXBBB', randomUUID()));
    expect(third.statusCode, third.body).toBe(201);
    expect(await codesIn(['UXAAA', 'UXBBB'])).toEqual(['UXAAA', 'UXBBB']);
    const duplicate = await post('/api/admin/promotions', promotion('uxaaa', randomUUID()));
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json().code).toBe('PROMO_CODE_EXISTS');
  });

  it('the same body with its fields in another order is the same request', async () => {
    const key = randomUUID();
    const body = promotion('UXORDER', key);
    const first = await post('/api/admin/promotions', body);
    expect(first.statusCode).toBe(201);
    const reordered = Object.fromEntries(Object.entries(body).reverse());
    const again = await post('/api/admin/promotions', reordered);
    expect(again.statusCode).toBe(201);
    expect(again.json().data.auditId).toBe(first.json().data.auditId);
  });

  it('a second staff member added with the first one’s key is refused and not added', async () => {
    const key = randomUUID();
    const member = (email: string) => ({
      email,
      name: 'New Member',
      role: 'support',
      password: 'Member-Password-2026!',
      requestKey: key,
    });
    const first = await post('/api/admin/staff', member('first.member@staff.test'));
    expect(first.statusCode, first.body).toBe(201);
    const second = await post('/api/admin/staff', member('second.member@staff.test'));
    expect(second.statusCode).toBe(409);
    expect(second.json().code).toBe('REQUEST_KEY_REUSED');
    const rows = await t.app.db
      .select({ email: staffUsers.email })
      .from(staffUsers)
      .where(inArray(staffUsers.email, ['first.member@staff.test', 'second.member@staff.test']));
    expect(rows.map((row) => row.email)).toEqual(['first.member@staff.test']);
  });

  it('resetting member B’s authenticator with the key of A’s reset is refused, and B stays enrolled', async () => {
    const a = await staffSessionFor(t, 'support', { now: NOW });
    const b = await staffSessionFor(t, 'support', { now: NOW });
    const key = randomUUID();
    const reset = (staffId: string) =>
      post(`/api/admin/staff/${staffId}/reset-second-factor`, {
        reason: 'Lost phone',
        requestKey: key,
      });
    expect((await reset(a.staff.id)).statusCode).toBe(200);
    const refused = await reset(b.staff.id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('REQUEST_KEY_REUSED');
    const [bAfter] = await t.app.db.select().from(staffUsers).where(eq(staffUsers.id, b.staff.id));
    expect(bAfter?.totpEnrolledAt).not.toBeNull();
  });

  it('a reply to message 2 with the key of the reply to message 1 is refused, and nothing is sent', async () => {
    const message = async (email: string) => {
      const [row] = await t.app.db
        .insert(contactRequests)
        .values({
          fullName: 'Robin Sender',
          email,
          phoneCountry: 'United States',
          phoneNumber: '3135550142',
          queryType: 'Account Update',
          comments: 'A question',
          source: 'Web',
        })
        .returning();
      return row!;
    };
    const one = await message('message.one@example.com');
    const two = await message('message.two@example.com');
    const key = randomUUID();
    const first = await post(`/api/admin/contact-messages/${one.id}/reply`, {
      body: 'Thanks, done.',
      requestKey: key,
    });
    expect(first.statusCode, first.body).toBe(200);
    const refused = await post(`/api/admin/contact-messages/${two.id}/reply`, {
      body: 'Thanks, done.',
      requestKey: key,
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('REQUEST_KEY_REUSED');
    // Nor another text on the same message.
    const otherText = await post(`/api/admin/contact-messages/${one.id}/reply`, {
      body: 'One more thing.',
      requestKey: key,
    });
    expect(otherText.statusCode).toBe(409);
    const sent = await t.app.db
      .select({ to: mailOutbox.toAddress })
      .from(mailOutbox)
      .where(inArray(mailOutbox.toAddress, [one.email, two.email]));
    expect(sent.map((row) => row.to)).toEqual([one.email]);
    expect(
      await t.app.db
        .select()
        .from(contactReplies)
        .where(eq(contactReplies.contactRequestId, two.id)),
    ).toEqual([]);
    const [twoAfter] = await t.app.db
      .select()
      .from(contactRequests)
      .where(eq(contactRequests.id, two.id));
    expect(twoAfter?.status).toBe('new');
  });

  it('a refund’s key with another amount is refused, and only the first is refunded', async () => {
    const { user, payment } = await renewingDealer(t, {
      now: NOW,
      today: '2026-03-10',
      previous: '2026-02-10',
    });
    const key = randomUUID();
    const url = `/api/admin/accounts/${user.id}/payments/${payment!.id}/refund`;
    const first = await post(url, { amountCents: 500, reason: 'Goodwill', requestKey: key });
    expect(first.statusCode, first.body).toBe(200);
    const other = await post(url, { amountCents: 700, reason: 'Goodwill', requestKey: key });
    expect(other.statusCode).toBe(409);
    expect(other.json().code).toBe('REQUEST_KEY_REUSED');
    const rows = await t.app.db.select().from(refunds).where(eq(refunds.paymentId, payment!.id));
    expect(rows.map((row) => row.amountCents)).toEqual([500]);
  });

  it('a dealer’s subscription change with the key of another selection is refused', async () => {
    const { user } = await renewingDealer(t, {
      now: NOW,
      today: '2026-03-10',
      previous: '2026-02-10',
      codes: ['NADA', 'MMR'],
    });
    const cookie = `${SESSION_COOKIE}=${await sessionFor(t, user.id, NOW)}`;
    const key = randomUUID();
    const change = (codes: string[]) =>
      post(
        '/api/users/subscriptions/change',
        { codes, idempotencyKey: key, basedOn: { codes: ['NADA', 'MMR'], pendingRemovals: [] } },
        cookie,
      );
    const first = await change(['NADA']);
    expect(first.statusCode, first.body).toBe(200);
    const other = await change(['MMR']);
    expect(other.statusCode).toBe(409);
    expect(other.json().code).toBe('REQUEST_KEY_REUSED');
    const [row] = await t.app.db
      .select({ pendingRemovals: subscriptions.pendingRemovals })
      .from(subscriptions)
      .where(eq(subscriptions.userId, user.id));
    expect(row?.pendingRemovals).toEqual(['MMR']);
    const repeated = await change(['NADA']);
    expect(repeated.statusCode).toBe(200);
    expect(repeated.json().data.changeId).toBe(first.json().data.changeId);
  });

  it('one key sent twice at once: the same content is one code and one answer; other content is 409', async () => {
    const key = randomUUID();
    const [a, b] = await Promise.all([
      post('/api/admin/promotions', promotion('UXTWIN', key)),
      post('/api/admin/promotions', promotion('UXTWIN', key)),
    ]);
    expect([a.statusCode, b.statusCode]).toEqual([201, 201]);
    expect(a.json().data.auditId).toBe(b.json().data.auditId);
    const other = randomUUID();
    const answers = await Promise.all([
      post('/api/admin/promotions', promotion('UXRACEA', other)),
      post('/api/admin/promotions', promotion('UXRACEB', other)),
    ]);
    expect(answers.map((response) => response.statusCode).sort()).toEqual([201, 409]);
    expect(await codesIn(['UXRACEA', 'UXRACEB'])).toHaveLength(1);
  });

  it('a key is its sender’s: another member sending it is refused', async () => {
    const key = randomUUID();
    const body = promotion('UXOWNER', key);
    expect((await post('/api/admin/promotions', body)).statusCode).toBe(201);
    const other = await post('/api/admin/promotions', body, cookies.billing.cookie);
    expect(other.statusCode).toBe(409);
    expect(other.json().code).toBe('REQUEST_KEY_REUSED');
  });
});

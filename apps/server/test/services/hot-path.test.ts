import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runPrepared } from '../../src/db/prepared.ts';
import { users } from '../../src/db/schema.ts';
import { responseSerializerCompiler } from '../../src/lib/response-serializer.ts';
import { resolveSession } from '../../src/services/session/session-store.ts';
import { getUserRow } from '../../src/services/users/get-user-row.ts';
import { buildTestApp, type TestApp } from '../support/helper.ts';
import { addOpeningBalance, sessionFor } from '../factories/sign-in.ts';

/**
 * The signed-in request path of docs/decisions/021: the session and its account in one prepared
 * statement, and responses written by serializers compiled from the routes' zod schemas.
 */
const clock = new Date('2026-03-02T15:00:00Z');
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ now: () => clock });
});
afterAll(() => t.close());

describe('the session statement', () => {
  it('reads the account exactly as the query builder does, every column and the balance', async () => {
    const [user] = await t.app.db
      .insert(users)
      .values({
        dealerpassUserId: 'hot.path@example.com',
        email: 'hot.path@example.com',
        altEmail: "o'brien@example.com",
        firstName: 'Zoë',
        lastName: 'Ström',
        dealership: 'Ström "Quoted" Motors',
        phone: '3135550142',
        address1: '400 Woodward Ave',
        address2: 'Suite 210',
        city: 'Detroit',
        state: 'MI',
        zip: '48226',
        subscriptions: ['NADA', 'MMR', 'CF'],
        accountStatus: 'validating payment',
        complimentary: true,
        cardBrand: 'visa',
        cardLast4: '4242',
        cardExpiration: '1229',
        nextBillDate: '2026-03-31',
        programDate: new Date('2026-06-01T04:00:00.123Z'),
        preferences: { theme: 'dark', nested: { list: [1, 'two', null] } },
        autoCheckId: 'AC123',
        autoCheckEnabled: true,
      })
      .returning();
    if (!user) throw new Error('no user');
    await addOpeningBalance(t, user.id, 1234);
    const rawId = await sessionFor(t, user.id, clock, { viaKarId: false });

    const lookup = await resolveSession(t.app.db, rawId, clock);
    if (lookup.status !== 'active') throw new Error(`expected an active session: ${lookup.status}`);
    const expected = await getUserRow(t.app.db, user.id);
    expect(lookup.account).toEqual(expected);
    expect(Object.keys(lookup.account).sort()).toEqual(Object.keys(expected).sort());
    expect(lookup.account.balanceCents).toBe(1234);
    expect(lookup.account.programDate).toBeInstanceOf(Date);
    expect(lookup.session).toEqual({
      idHash: expect.any(String),
      userId: user.id,
      context: 'web',
      viaKarId: false,
    });
  });

  it('passes a value that is not a plain token as a parameter, never as SQL', async () => {
    const statement = { name: 'dp_test_echo', text: 'select $1::text as "value"' };
    const hostile = "x'); drop table users; --";
    expect(await runPrepared(t.app.db, statement, [hostile])).toEqual([{ value: hostile }]);
    expect(await runPrepared(t.app.db, statement, ['plain-token_1'])).toEqual([
      { value: 'plain-token_1' },
    ]);
    expect(await t.app.db.$count(users)).toBeGreaterThan(0);
  });

  it('answers calls that arrive together, before the statement is first prepared', async () => {
    const statement = { name: 'dp_test_together', text: 'select $1::text as "value"' };
    const values = Array.from({ length: 8 }, (_, i) => `token-${i}`);
    const answers = await Promise.all(
      values.map((value) => runPrepared(t.app.db, statement, [value])),
    );
    expect(answers).toEqual(values.map((value) => [{ value }]));
  });
});

describe('the response serializer', () => {
  const compile = (schema: unknown) =>
    responseSerializerCompiler({ schema, method: 'GET', url: '/x', httpStatus: '200' });

  it('writes only the schema’s fields, and fails a response that lacks a required one', () => {
    const write = compile(
      z.object({
        data: z.object({
          name: z.string(),
          note: z.string().nullable(),
          tags: z.array(z.string()),
          preferences: z.record(z.string(), z.unknown()),
          nested: z.object({ shown: z.boolean() }).optional(),
        }),
      }),
    );
    const body = {
      data: {
        name: 'Casey "C" \\ Dealer\u2028',
        note: null,
        tags: ['NADA'],
        preferences: { a: [1, { b: 'c' }] },
        nested: { shown: true, secret: 'x' },
        creditCardCode: '123',
      },
      secret: 'never',
    };
    const written = write(body);
    expect(JSON.parse(written)).toEqual({
      data: {
        name: 'Casey "C" \\ Dealer\u2028',
        note: null,
        tags: ['NADA'],
        preferences: { a: [1, { b: 'c' }] },
        nested: { shown: true },
      },
    });
    expect(written).not.toContain('never');
    expect(written).not.toContain('123');
    expect(() => write({ data: { note: null, tags: [], preferences: {} } })).toThrow();
  });

  it('leaves a schema with a transform, a refinement or a check to zod', () => {
    const refined = compile(z.object({ code: z.string().refine((value) => value.length === 4) }));
    expect(() => refined({ code: 'toolong' })).toThrow();
    expect(JSON.parse(refined({ code: 'abcd', extra: 1 }))).toEqual({ code: 'abcd' });
    const checked = compile(z.object({ count: z.number().int() }));
    expect(() => checked({ count: 1.5 })).toThrow();
    const transformed = compile(z.object({ at: z.date().transform((date) => date.getTime()) }));
    expect(() => transformed({ at: 'not a date' })).toThrow();
  });

  it('strips unknown keys inside a nullable object or a union of objects, as zod does', () => {
    const nullable = compile(z.object({ card: z.object({ last4: z.string() }).nullable() }));
    expect(JSON.parse(nullable({ card: { last4: '4242', token: 'secret' } }))).toEqual({
      card: { last4: '4242' },
    });
    expect(JSON.parse(nullable({ card: null }))).toEqual({ card: null });
    const union = compile(
      z.object({
        status: z.union([
          z.object({ kind: z.literal('connected'), until: z.string() }),
          z.object({ kind: z.literal('missing') }),
        ]),
      }),
    );
    expect(JSON.parse(union({ status: { kind: 'missing', token: 'secret' } }))).toEqual({
      status: { kind: 'missing' },
    });
  });
});

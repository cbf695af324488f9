/**
 * Issue 15: every status change goes through changeAccountStatus, which moves exactly as the
 * domain's state machine says and refuses the rest. Together with the type of its `event`
 * (the domain's events), this proves every transition the server makes is one the domain allows.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_STATUSES } from '@dealerpass/domain/account/status';
import { ACCOUNT_EVENTS, nextAccountStatus } from '@dealerpass/domain/account/status-transitions';
import { accountEvents, users } from '../../src/db/schema.ts';
import {
  AccountTransitionRefused,
  changeAccountStatus,
} from '../../src/services/billing/ledger/change-account-status.ts';
import { buildTestApp, type TestApp } from '../support/helper.ts';
import { createAccount } from '../factories/sign-in.ts';

const NOW = new Date('2026-03-15T15:00:00Z');
const SERVER_SRC = fileURLToPath(new URL('../../src/', import.meta.url));
const THE_ONE_WRITER = 'services/billing/ledger/change-account-status.ts';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

describe('account status changes (issue 15)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ now: () => NOW });
  });
  afterAll(() => t.close());

  const cases = ACCOUNT_STATUSES.flatMap((from) =>
    ACCOUNT_EVENTS.map((event) => ({ from, event, to: nextAccountStatus(from, event) })),
  );

  it('moves every status along every event exactly as the domain says, with its audit row, and refuses the rest without writing', async () => {
    for (const [i, { from, event, to }] of cases.entries()) {
      const { user } = await createAccount(t, {
        email: `transition${i}@example.com`,
        withIdentity: false,
        accountStatus: from,
      });
      const change = () =>
        t.app.db.transaction((tx) =>
          changeAccountStatus(tx, {
            userId: user.id,
            from,
            event,
            note: `test ${event}`,
            actor: 'test',
            now: NOW,
          }),
        );
      if (to === null) {
        await expect(change(), `${from} + ${event}`).rejects.toBeInstanceOf(
          AccountTransitionRefused,
        );
      } else {
        await expect(change(), `${from} + ${event}`).resolves.toBe(to);
      }
      const [row] = await t.app.db.select().from(users).where(eq(users.id, user.id));
      expect(row!.accountStatus, `${from} + ${event}`).toBe(to ?? from);
      const audit = await t.app.db
        .select()
        .from(accountEvents)
        .where(eq(accountEvents.userId, user.id));
      expect(
        audit.map((entry) => [entry.fromStatus, entry.toStatus, entry.event, entry.actor]),
      ).toEqual(to === null ? [] : [[from, to, `test ${event}`, 'test']]);
    }
  });

  it('refuses a status the domain does not know', async () => {
    const { user } = await createAccount(t, {
      email: 'unknown-status@example.com',
      withIdentity: false,
      accountStatus: 'suspended',
    });
    await expect(
      t.app.db.transaction((tx) =>
        changeAccountStatus(tx, {
          userId: user.id,
          from: 'suspended',
          event: 'block',
          note: 'test',
          actor: 'test',
          now: NOW,
        }),
      ),
    ).rejects.toBeInstanceOf(AccountTransitionRefused);
  });

  it('has no other place in the server that changes a status or writes a status audit row', () => {
    const writers = sourceFiles(SERVER_SRC)
      .map((path) => ({ path: relative(SERVER_SRC, path), text: readFileSync(path, 'utf8') }))
      .filter(({ path }) => path !== THE_ONE_WRITER && !path.startsWith('db/'))
      .filter(
        ({ text }) =>
          // accountStatusDetails (complimentary, R4) is a flag beside the status, not the status.
          /\.set\(\{[^}]*accountStatus(?!Details)/s.test(text) ||
          // SQL that sets the column (a query may compare it: a read, not a write).
          /\bset\b[^;]*?\baccount_status\s*=/is.test(text) ||
          // A status audit row written (a console's read may select the column: not a write).
          /insert\(accountEvents\)[^;]*fromStatus:\s*(?!\s|null)/s.test(text),
      )
      .map(({ path }) => path);
    expect(writers).toEqual([]);
  });
});

import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { ERROR_CODES } from '@dealerpass/domain/messages';
import { canonicalJson, REQUEST_KEY_FIELDS, requestContent } from '@dealerpass/domain/request-key';
import type { Database, Transaction } from '../../db/client.ts';
import { isUniqueViolation } from '../../errors/unique-violation.ts';
import { requestKeys } from '../../db/schema.ts';
import { AppError } from '../../errors/app-error.ts';

/** One keyed request: its key and what it asks for, as recorded with the key. */
export interface KeyedRequest {
  /** Who sends it: a staff member, a dealer's account, or (signing up) nobody known yet. */
  owner: { staffId: string } | { userId: string } | { anonymous: 'signup' };
  /** What it does: the staff action's name, or the dealer's (`changeSubscription`). */
  action: string;
  /** What it acts on: the route's parameters (`{}` for a creation). */
  target: Record<string, string>;
  /** The request's body, key included (the key is read from it and left out of the hash). */
  body: object;
}

type RecordedKey = typeof requestKeys.$inferSelect;

/** How a service acts: in a transaction of ours, or in its own that calls `record` once. */
type Steps<T> = {
  /** The answer to a repeat, from the first one's stored answer (by default, that answer). */
  repeat?: (first: T) => T | Promise<T>;
} & (
  | { act: (tx: Transaction) => Promise<T> }
  | { run: (record: (tx: Transaction, answer: T) => Promise<void>) => Promise<T> }
);

/**
 * Runs a keyed request once (docs/decisions/031; R12's "once per request"): the one mechanism of
 * every route whose body carries a `requestKey` or an `idempotencyKey`.
 * - A new key is recorded with the request's owner, action, target and body hash, in the
 *   transaction of the change, together with its answer: both are committed, or neither (a
 *   refusal thrown by `act` leaves the key unused).
 * - The same request again (same key, owner, action, target and body) acts no second time and
 *   gets the first answer (through `repeat`, which may bring it up to date).
 * - The key with anything else is another intent under a reused key: 409 REQUEST_KEY_REUSED,
 *   and nothing is written. A key recorded before bodies were hashed matches nothing.
 * Two requests with one key at once: the second's insert waits for the first's transaction and
 * then fails on the primary key; its own transaction rolls back whole and it answers as a repeat.
 * The key's row is inserted before `act` runs, so it is the first lock a keyed request takes.
 */
export async function oncePerKey<T>(
  db: Database,
  request: KeyedRequest,
  steps: Steps<T>,
): Promise<T> {
  const wanted = recordOf(request);
  const repeatOf = async (row: RecordedKey): Promise<T> => {
    const same =
      row.owner === wanted.owner &&
      row.action === wanted.action &&
      row.target === wanted.target &&
      row.bodyHash !== null &&
      row.bodyHash === wanted.bodyHash;
    if (!same) throw new AppError(ERROR_CODES.REQUEST_KEY_REUSED);
    const first = row.answer as T;
    return steps.repeat ? steps.repeat(first) : first;
  };
  const recorded = await findKey(db, wanted.key);
  if (recorded) return repeatOf(recorded);

  const claim = (tx: Transaction) => tx.insert(requestKeys).values(wanted);
  const keep = (tx: Transaction, answer: T) =>
    tx
      .update(requestKeys)
      .set({ answer: answer ?? null })
      .where(eq(requestKeys.key, wanted.key));
  try {
    if ('act' in steps) {
      return await db.transaction(async (tx) => {
        await claim(tx);
        const answer = await steps.act(tx);
        await keep(tx, answer);
        return answer;
      });
    }
    return await steps.run(async (tx, answer) => {
      await claim(tx);
      await keep(tx, answer);
    });
  } catch (error) {
    if (isUniqueViolation(error)) {
      const first = await findKey(db, wanted.key);
      if (first) return repeatOf(first);
    }
    throw error;
  }
}

/** The key's row as it is recorded: the SHA-256 of what the body asks (`requestContent`). */
function recordOf(request: KeyedRequest) {
  const body = request.body as Record<string, unknown>;
  const key = REQUEST_KEY_FIELDS.map((field) => body[field]).find((value) => value !== undefined);
  if (typeof key !== 'string') throw new Error('a keyed request without its key');
  const owner = request.owner;
  return {
    key,
    owner:
      'staffId' in owner
        ? `staff:${owner.staffId}`
        : 'userId' in owner
          ? `user:${owner.userId}`
          : `anonymous:${owner.anonymous}`,
    action: request.action,
    target: canonicalJson(request.target),
    bodyHash: createHash('sha256').update(requestContent(request.body)).digest('hex'),
  };
}

async function findKey(db: Database | Transaction, key: string): Promise<RecordedKey | null> {
  const [row] = await db.select().from(requestKeys).where(eq(requestKeys.key, key));
  return row ?? null;
}

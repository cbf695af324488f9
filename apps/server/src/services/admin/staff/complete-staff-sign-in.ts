import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../../db/client.ts';
import { staffUsers } from '../../../db/schema.ts';
import { STAFF_SUBJECT_PREFIX } from '../../../identity/provider/embedded-provider.ts';
import type { RelyingParty } from '../../../identity/relying-party.ts';
import { consumeLoginTransaction } from '../../session/login-transactions.ts';
import { createStaffSession } from './staff-session-store.ts';

export interface CompleteStaffSignInDeps {
  db: Database;
  rp: RelyingParty;
  now: () => Date;
  encryptionKey: Buffer;
  /** An external staff provider: members are matched by verified e-mail, then by subject. */
  external: boolean;
}

export type StaffSignInOutcome = { kind: 'refused' } | { kind: 'signed-in'; rawSessionId: string };

/**
 * The operator console's sign-in callback (docs/decisions/026): takes the staff login transaction
 * once, exchanges the code with the staff client, finds the member and starts a staff session
 * that opens nothing until its second factor is verified. A disabled or unknown member is
 * refused, and the provider's tokens are revoked.
 */
export async function completeStaffSignIn(
  deps: CompleteStaffSignInDeps,
  input: { callbackUrl: URL; browserSecret: string | undefined; log: FastifyBaseLogger },
): Promise<StaffSignInOutcome> {
  const { log } = input;
  const state = input.callbackUrl.searchParams.get('state');
  const transaction = state
    ? await consumeLoginTransaction(deps.db, {
        state,
        browserSecret: input.browserSecret,
        now: deps.now(),
      })
    : null;
  if (!transaction || !state || transaction.context !== 'staff') {
    log.warn('staff sign-in callback refused: unknown, replayed or foreign state');
    return { kind: 'refused' };
  }
  let result;
  try {
    result = await deps.rp.completeSignIn(input.callbackUrl, {
      state,
      nonce: transaction.nonce,
      codeVerifier: transaction.codeVerifier,
    });
  } catch (error) {
    log.warn({ err: error }, 'staff sign-in callback refused by the relying-party checks');
    return { kind: 'refused' };
  }

  const staffId = await findMember(deps, result.subject, result.verifiedEmail);
  if (!staffId) {
    log.warn('a sign-in at the staff client matched no active staff member');
    await deps.rp.revoke(result.tokens).catch(() => undefined);
    return { kind: 'refused' };
  }
  const rawSessionId = await createStaffSession(deps.db, {
    staffId,
    tokens: result.tokens,
    now: deps.now(),
    encryptionKey: deps.encryptionKey,
  });
  log.info({ staffId }, 'staff session started, second factor pending');
  return { kind: 'signed-in', rawSessionId };
}

async function findMember(
  deps: CompleteStaffSignInDeps,
  subject: string,
  verifiedEmail: string | undefined,
): Promise<string | null> {
  const active = isNull(staffUsers.disabledAt);
  if (!deps.external) {
    if (!subject.startsWith(STAFF_SUBJECT_PREFIX)) return null;
    const id = subject.slice(STAFF_SUBJECT_PREFIX.length);
    const [staff] = await deps.db
      .select({ id: staffUsers.id })
      .from(staffUsers)
      .where(and(eq(staffUsers.id, id), active));
    return staff?.id ?? null;
  }
  const [bound] = await deps.db
    .select({ id: staffUsers.id })
    .from(staffUsers)
    .where(and(eq(staffUsers.externalSubject, subject), active));
  if (bound) return bound.id;
  if (!verifiedEmail) return null;
  // The first sign-in binds the member created by an admin to the provider's subject.
  const [matched] = await deps.db
    .update(staffUsers)
    .set({ externalSubject: subject, updatedAt: deps.now() })
    .where(
      and(
        eq(staffUsers.email, verifiedEmail.trim().toLowerCase()),
        isNull(staffUsers.externalSubject),
        active,
      ),
    )
    .returning({ id: staffUsers.id });
  return matched?.id ?? null;
}

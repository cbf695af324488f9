import { ERROR_CODES, errorMessage } from '@dealerpass/domain/messages';
import type { Database, Transaction } from '../../db/client.ts';
import { identities } from '../../db/schema.ts';
import { AppError } from '../../errors/app-error.ts';
import { hashPassword } from './passwords.ts';

/** Identity e-mails are stored and compared trimmed and lower-cased. */
export function normalizeIdentityEmail(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * A new DealerPass ID account (docs/decisions/009). Without a password (sign-up) the user sets
 * one from the verification link; with one (`/account/karid/connect`) it is hashed now. An
 * e-mail that already has an account is refused with 409 EMAIL_IN_USE.
 */
export async function createIdentity(
  tx: Database | Transaction,
  input: { email: string; password?: string | undefined; now?: Date | undefined },
): Promise<{ id: string; email: string }> {
  const email = normalizeIdentityEmail(input.email);
  const passwordHash = input.password === undefined ? null : await hashPassword(input.password);
  const now = input.now ?? new Date();
  const [row] = await tx
    .insert(identities)
    .values({ email, passwordHash, createdAt: now, updatedAt: now })
    .onConflictDoNothing({ target: identities.email })
    .returning({ id: identities.id, email: identities.email });
  if (!row) {
    throw new AppError(ERROR_CODES.EMAIL_IN_USE, {
      errors: [{ source: 'email', message: errorMessage(ERROR_CODES.EMAIL_IN_USE) }],
    });
  }
  return row;
}

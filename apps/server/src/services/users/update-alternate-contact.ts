import { and, eq, ne, sql } from 'drizzle-orm';
import { ERROR_CODES, errorMessage } from '@dealerpass/domain/messages';
import type { Database } from '../../db/client.ts';
import { identities, users } from '../../db/schema.ts';
import { AppError } from '../../errors/app-error.ts';
import { getUserRow, USER_ROW_FIELDS } from './get-user-row.ts';
import type { UserRow } from './serialize-user.ts';

/** The only profile values a user may change (000 §5). Absent keys leave the stored value. */
export interface IAlternateContact {
  altEmail?: string | undefined;
  altPhone?: string | undefined;
}

/**
 * `PUT /api/users/current` (000 §5, §7): writes the alternate e-mail and the alternate phone of
 * the signed-in user's own row, and nothing else. An alternate e-mail that is another account's
 * e-mail, alternate e-mail or DealerPass ID is refused (001 §5 'Alternate email already in use.').
 * An empty value clears the field.
 */
export async function updateAlternateContact(
  db: Database,
  userId: string,
  values: IAlternateContact,
  now: Date,
): Promise<UserRow> {
  const current = await getUserRow(db, userId);
  const changes: Partial<typeof users.$inferInsert> = {};
  if (values.altEmail !== undefined) {
    const altEmail = values.altEmail.trim();
    if (altEmail !== '' && altEmail.toLowerCase() !== (current.altEmail ?? '').toLowerCase()) {
      if (await isAddressOfAnotherAccount(db, current, altEmail)) {
        throw new AppError(ERROR_CODES.ALT_EMAIL_IN_USE, {
          errors: [{ source: 'altEmail', message: errorMessage(ERROR_CODES.ALT_EMAIL_IN_USE) }],
        });
      }
    }
    changes.altEmail = altEmail === '' ? null : altEmail;
  }
  if (values.altPhone !== undefined) {
    const altPhone = values.altPhone.trim();
    changes.altPhone = altPhone === '' ? null : altPhone;
  }
  if (Object.keys(changes).length === 0) return current;
  const [row] = await db
    .update(users)
    .set({ ...changes, updatedAt: now })
    .where(eq(users.id, userId))
    .returning(USER_ROW_FIELDS);
  if (!row) throw new AppError(ERROR_CODES.UNAUTHORIZED);
  return row;
}

async function isAddressOfAnotherAccount(
  db: Database,
  self: UserRow,
  address: string,
): Promise<boolean> {
  const value = address.toLowerCase();
  const [user] = await db
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        ne(users.id, self.id),
        sql`(lower(${users.email}) = ${value} or lower(${users.dealerpassUserId}) = ${value} or lower(${users.altEmail}) = ${value})`,
      ),
    )
    .limit(1);
  if (user) return true;
  const [identity] = await db
    .select({ id: identities.id })
    .from(identities)
    .where(sql`lower(${identities.email}) = ${value}`)
    .limit(1);
  return identity !== undefined && identity.id !== self.karId;
}

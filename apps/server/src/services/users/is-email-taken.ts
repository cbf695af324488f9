import { or, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { identities, users } from '../../db/schema.ts';

/**
 * `GET /api/users/userIdTaken/{email}` (001 §7): whether an address is already someone's user id
 * or sign-in: a DealerPass ID, a user's username or a user's e-mail. Compared lower-cased.
 */
export async function isUserIdTaken(db: Database, email: string): Promise<boolean> {
  const value = email.trim().toLowerCase();
  const [identity] = await db
    .select({ id: identities.id })
    .from(identities)
    .where(sql`lower(${identities.email}) = ${value}`)
    .limit(1);
  if (identity) return true;
  const [user] = await db
    .select({ id: users.id })
    .from(users)
    .where(
      or(sql`lower(${users.dealerpassUserId}) = ${value}`, sql`lower(${users.email}) = ${value}`),
    )
    .limit(1);
  return !!user;
}

/**
 * `GET /api/users/alternateEmailTaken/{email}` (001 §5, §7: 'Alternate email already in use.'):
 * whether an address is already some account's e-mail, alternate e-mail or DealerPass ID.
 */
export async function isAlternateEmailTaken(db: Database, email: string): Promise<boolean> {
  if (await isUserIdTaken(db, email)) return true;
  const value = email.trim().toLowerCase();
  const [user] = await db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.altEmail}) = ${value}`)
    .limit(1);
  return !!user;
}

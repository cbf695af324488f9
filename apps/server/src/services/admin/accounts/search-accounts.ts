import { accountStatusDetailsOf } from '@dealerpass/domain/account/status';
import { asc, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import {
  ACCOUNT_SEARCH_LIMIT,
  type TAccountSearchResult,
} from '@dealerpass/domain/admin/console-views';
import type { Database } from '../../../db/client.ts';
import { invoices, payments, users } from '../../../db/schema.ts';

const INVOICE_NUMBER = /^[A-Za-z][A-Za-z0-9]{0,9}-\d{4}-\d{6}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `%`, `_` and the escape character itself match literally in the ILIKE pattern. */
export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

/**
 * The console's account search (R12, docs/decisions/026): part of an e-mail (either address), a
 * first, last or full name, the dealership or the DealerPass user id; exactly a card's last four
 * (the card on file or one a payment was taken from), a payment's id (ours or the gateway's
 * transaction id), an invoice number (R14) or the account's own id. Every value is a bound parameter; the pattern's
 * wildcards are escaped, so `%` searches for a percent sign.
 */
export async function searchAccounts(db: Database, text: string): Promise<TAccountSearchResult[]> {
  const q = text.trim();
  const pattern = likePattern(q);
  // What a payment can match: its gateway transaction id, and by the text's shape its card's
  // last four or its own id. One subquery, evaluated once (a hashed subplan), not per account.
  const paymentMatches: SQL[] = [sql`p.gateway_transaction_id = ${q}`];
  const conditions: SQL[] = [
    ilike(users.email, pattern),
    ilike(users.altEmail, pattern),
    ilike(users.firstName, pattern),
    ilike(users.lastName, pattern),
    sql`(${users.firstName} || ' ' || ${users.lastName}) ilike ${pattern}`,
    ilike(users.dealership, pattern),
    ilike(users.dealerpassUserId, pattern),
  ];
  if (/^\d{4}$/.test(q)) {
    conditions.push(eq(users.cardLast4, q));
    paymentMatches.push(sql`p.card_last4 = ${q}`);
  }
  if (UUID.test(q)) {
    const id = q.toLowerCase();
    conditions.push(sql`${users.id} = ${id}::uuid`);
    paymentMatches.push(sql`p.id = ${id}::uuid`);
  }
  // R14: an invoice number, exactly (case aside: staff type it from a check's memo line).
  if (INVOICE_NUMBER.test(q)) {
    conditions.push(
      sql`"users"."id" in (select i.user_id from ${invoices} i where i.number = ${q.toUpperCase()})`,
    );
  }
  // "users"."id" spelled out: drizzle leaves a single table's columns unqualified.
  conditions.push(
    sql`"users"."id" in (select p.user_id from ${payments} p where ${or(...paymentMatches)})`,
  );
  const rows = await db
    .select({
      userId: users.id,
      dealerpassUserId: users.dealerpassUserId,
      email: users.email,
      firstName: users.firstName,
      lastName: users.lastName,
      dealership: users.dealership,
      accountStatus: users.accountStatus,
      accountStatusDetails: users.accountStatusDetails,
      complimentary: users.complimentary,
      cardBrand: users.cardBrand,
      cardLast4: users.cardLast4,
    })
    .from(users)
    .where(or(...conditions))
    .orderBy(asc(users.lastName), asc(users.firstName), asc(users.email), asc(users.id))
    .limit(ACCOUNT_SEARCH_LIMIT);
  return rows.map(({ complimentary, ...row }) => ({
    ...row,
    accountStatusDetails: accountStatusDetailsOf({ ...row, complimentary }),
  }));
}

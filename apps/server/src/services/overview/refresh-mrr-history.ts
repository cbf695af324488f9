import { ACCOUNT_STATUS } from '@dealerpass/domain/account/status';
import type { TAccountEvent } from '@dealerpass/domain/account/status-transitions';
import {
  classifyChange,
  mrrContributionCents,
  PAYING_STATUSES,
} from '@dealerpass/domain/overview/figures';
import type { TPriceTable } from '@dealerpass/domain/prices';
import { DAY_MS } from '@dealerpass/domain/time/calendar-date';
import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { accountMrrHistory } from '../../db/schema.ts';
import { compactRollups } from './compact-rollups.ts';
import { monthlyCentsOf } from './record-mrr-state.ts';
import { sqlCount, sqlRows } from './sql-rows.ts';

/** How far back a price change's instant is looked at again (a server down that long still catches up). */
const PRICE_CHANGE_LOOKBACK_MS = 40 * DAY_MS;
/** Accounts backfilled per transaction. */
const BACKFILL_BATCH = 500;

/**
 * The MRR history's background job (docs/decisions/042), run by every instance on the
 * background schedule and safe to run side by side: the open row per account is unique.
 * 1. The backfill: an account with no history yet gets one from its status changes
 *    (`account_events`, exact instants) and its selection.
 * 2. Price changes: at each effective instant of the last 40 days, every open row whose monthly
 *    total the new prices change is closed at that instant and continued at the new amount, so
 *    MRR after the instant counts the prices in force then (R18).
 * 3. The overview's rollups merged, a row per date and item, a row per quarter hour
 *    (docs/decisions/051); no figure moves.
 */
export async function refreshMrrHistory(
  db: Database,
  input: { prices: TPriceTable; now: Date },
): Promise<{ backfilled: number; repriced: number; compacted: number }> {
  const backfilled = await backfillMrrHistory(db, input);
  const repriced = await repriceAtPriceChanges(db, input);
  const compacted = await compactRollups(db);
  return { backfilled, repriced, compacted };
}

interface StatusChange {
  at: Date;
  from: string | null;
  to: string;
  event: TAccountEvent | 'signUp' | null;
  reason: string | null;
}

/**
 * The status event an audit note stands for (the notes `change-account-status.ts`'s callers write),
 * as far as R18's churn causes need it; anything else is a cancellation's bill date or no churn.
 */
function eventOfNote(note: string): TAccountEvent | null {
  if (note.startsWith('cancelled in the trial')) return 'cancelInTrial';
  if (note.startsWith('last retry declined')) return 'finalRetryFailed';
  if (note.startsWith('chargeback')) return 'chargeback';
  return null;
}

export async function backfillMrrHistory(
  db: Database,
  input: { prices: TPriceTable; now: Date },
): Promise<number> {
  let total = 0;
  for (;;) {
    const done = await db.transaction(async (tx) => {
      const rows = await sqlRows<{
        id: string;
        created_at: Date | string;
        status: string;
        complimentary: boolean;
        codes: string[] | null;
      }>(
        tx,
        sql`
        select u.id, u.created_at, u.account_status as status, u.complimentary, s.codes
        from users u left join subscriptions s on s.user_id = u.id
        where not exists (select 1 from account_mrr_history h where h.user_id = u.id)
        order by u.id limit ${BACKFILL_BATCH}
        for update of u skip locked`,
      );
      if (rows.length === 0) return 0;
      const ids = rows.map((row) => row.id);
      const events = await sqlRows<{
        user_id: string;
        at: Date | string;
        event: string;
        from_status: string | null;
        to_status: string | null;
        reason: string | null;
      }>(
        tx,
        sql`
        select user_id, at, event, from_status, to_status, details->>'reason' as reason
        from account_events
        where user_id = any(${sql.param(ids)}::uuid[])
          and (to_status is not null or event = 'cancellation reason')
        order by user_id, at, id`,
      );
      const byUser = new Map<string, StatusChange[]>();
      let lastReason = new Map<string, string | null>();
      for (const row of events) {
        if (row.event === 'cancellation reason') {
          lastReason.set(row.user_id, row.reason);
          continue;
        }
        const list = byUser.get(row.user_id) ?? [];
        list.push({
          at: new Date(row.at),
          from: row.from_status,
          to: row.to_status ?? ACCOUNT_STATUS.active,
          event: row.from_status === null ? 'signUp' : eventOfNote(row.event),
          reason: lastReason.get(row.user_id) ?? null,
        });
        byUser.set(row.user_id, list);
      }
      lastReason = new Map();
      const values: (typeof accountMrrHistory.$inferInsert)[] = [];
      for (const account of rows) {
        const codes = account.codes ?? [];
        const changes = byUser.get(account.id) ?? [];
        const first: StatusChange = {
          at: new Date(account.created_at),
          from: null,
          to: changes[0]?.from ?? account.status,
          event: 'signUp',
          reason: null,
        };
        const chain = changes[0]?.from === null ? changes : [first, ...changes];
        let dunningSince: Date | null = null;
        chain.forEach((change, index) => {
          const next = chain[index + 1];
          // The last row is the account as it is now (a status written without an event: the seed).
          const status = next ? change.to : account.status;
          const monthlyCents = monthlyCentsOf(codes, change.at, input.prices);
          const { movement, cause } = classifyChange(
            index === 0 ? null : (chain[index - 1]?.to ?? null),
            status,
            change.event,
          );
          if (movement === 'dunningEntered') dunningSince = change.at;
          values.push({
            userId: account.id,
            validFrom: change.at,
            validTo: next ? (next.at < change.at ? change.at : next.at) : null,
            status,
            complimentary: account.complimentary,
            codes,
            monthlyCents,
            mrrCents: mrrContributionCents({
              status,
              complimentary: account.complimentary,
              monthlyCents,
            }),
            movement,
            cause,
            reason:
              status === ACCOUNT_STATUS.pendingCancel ||
              cause === 'cancellation' ||
              cause === 'trialCancellation'
                ? change.reason
                : null,
            dunningSince: movement === 'dunningRecovered' ? dunningSince : null,
          });
        });
      }
      if (values.length > 0) await tx.insert(accountMrrHistory).values(values);
      return rows.length;
    });
    total += done;
    if (done < BACKFILL_BATCH) return total;
  }
}

/** Re-prices the open rows at each price change of the last weeks that has taken effect. */
export async function repriceAtPriceChanges(
  db: Database,
  input: { prices: TPriceTable; now: Date },
): Promise<number> {
  const instants = [
    ...new Set(
      input.prices
        .map((row) => row.from)
        .filter((from): from is string => from !== null)
        .filter((from) => {
          const at = Date.parse(from);
          return at <= input.now.getTime() && at > input.now.getTime() - PRICE_CHANGE_LOOKBACK_MS;
        }),
    ),
  ].sort();
  let repriced = 0;
  for (const from of instants) {
    const at = new Date(from);
    const groups = await sqlRows<{ codes: string[]; monthly_cents: number }>(
      db,
      sql`
      select codes, monthly_cents from account_mrr_history
      where valid_to is null and valid_from < ${at.toISOString()}::timestamptz
      group by codes, monthly_cents`,
    );
    for (const group of groups) {
      const monthlyCents = monthlyCentsOf(group.codes, at, input.prices);
      if (monthlyCents === Number(group.monthly_cents)) continue;
      const paying = sql.join(
        PAYING_STATUSES.map((status) => sql`${status}`),
        sql`, `,
      );
      repriced += await sqlCount(
        db,
        sql`
        with closed as (
          update account_mrr_history set valid_to = ${at.toISOString()}::timestamptz
          where valid_to is null and valid_from < ${at.toISOString()}::timestamptz
            and codes = ${sql.param(group.codes)}::text[] and monthly_cents = ${group.monthly_cents}
          returning user_id, status, complimentary, cadence, codes
        )
        insert into account_mrr_history
          (user_id, valid_from, status, complimentary, cadence, codes, monthly_cents, mrr_cents)
        -- mrrContributionCents of a monthly account, in SQL so that 100,000 rows move in one statement.
        select user_id, ${at.toISOString()}::timestamptz, status, complimentary, cadence, codes,
          ${monthlyCents}, case when status in (${paying}) and not complimentary
            then ${monthlyCents} else 0 end
        from closed`,
      );
    }
  }
  return repriced;
}

import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { jobRuns } from '../../db/schema.ts';

/**
 * How long a claimed run holds its job before another instance may take the next time: short,
 * and renewed while the run works (JOB_LEASE_RENEWAL_MS), like the billing run's charge leases.
 */
export const JOB_LEASE_MS = 60 * 1000;
/** Three renewals a lease, so one late renewal loses nothing. */
export const JOB_LEASE_RENEWAL_MS = JOB_LEASE_MS / 3;

/**
 * Claims a job's scheduled time for this instance (docs/decisions/046): true when this instance
 * runs it, false when another instance already did or still does. One conditional upsert on the
 * job's row: a newer time wins only when the row's run has finished or its lease ran out, so two
 * instances firing the same time never both run it, and a run never overlaps a slower one.
 */
export async function claimJobSlot(
  db: Database,
  claim: { name: string; slot: Date; holder: string; now: Date },
): Promise<boolean> {
  const leasedUntil = new Date(claim.now.getTime() + JOB_LEASE_MS);
  const claimed = await db
    .insert(jobRuns)
    .values({
      name: claim.name,
      slot: claim.slot,
      holder: claim.holder,
      leasedUntil,
      startedAt: claim.now,
    })
    .onConflictDoUpdate({
      target: jobRuns.name,
      set: {
        slot: claim.slot,
        holder: claim.holder,
        leasedUntil,
        startedAt: claim.now,
        finishedAt: null,
        lastError: null,
      },
      setWhere: sql`${jobRuns.slot} < excluded.slot and (${jobRuns.finishedAt} is not null or ${jobRuns.leasedUntil} <= excluded.started_at)`,
    })
    .returning({ name: jobRuns.name });
  return claimed.length > 0;
}

/** Keeps a claimed run's lease from running out while it works; a finished run is left alone. */
export async function renewJobLease(
  db: Database,
  claim: { name: string; slot: Date; now: Date },
): Promise<void> {
  await db
    .update(jobRuns)
    .set({ leasedUntil: new Date(claim.now.getTime() + JOB_LEASE_MS) })
    .where(
      and(eq(jobRuns.name, claim.name), eq(jobRuns.slot, claim.slot), isNull(jobRuns.finishedAt)),
    );
}

/** Records the end of a claimed run: when, and the failure's message if it threw. */
export async function finishJobSlot(
  db: Database,
  claim: { name: string; slot: Date; now: Date; error: string | null },
): Promise<void> {
  await db
    .update(jobRuns)
    .set({ finishedAt: claim.now, lastError: claim.error?.slice(0, 500) ?? null })
    .where(and(eq(jobRuns.name, claim.name), eq(jobRuns.slot, claim.slot)));
}

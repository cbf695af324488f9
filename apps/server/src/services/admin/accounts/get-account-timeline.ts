import { desc, eq, inArray, sql } from 'drizzle-orm';
import { nameOf, type TSubscriptionCode } from '@dealerpass/domain/catalogue';
import { formatCurrency } from '@dealerpass/domain/money';
import { ERROR_CODES } from '@dealerpass/domain/messages';
import {
  TIMELINE_KINDS,
  TIMELINE_LIMIT,
  type TTimelineEntry,
} from '@dealerpass/domain/admin/console-views';
import type { Database } from '../../../db/client.ts';
import {
  accountEvents,
  mailOutbox,
  payments,
  refunds,
  sessions,
  staffAudit,
  users,
} from '../../../db/schema.ts';
import { AppError } from '../../../errors/app-error.ts';
import { accountAddresses, receiptPath } from './account-records.ts';

/** The account events of annual billing (R14) and the timeline kind each is shown as. */
const ANNUAL_EVENT_KINDS: Readonly<Record<string, 'invoice' | 'check'>> = {
  'annual billing requested': 'invoice',
  'annual invoice issued': 'invoice',
  'invoice voided': 'invoice',
  'invoice replaced': 'invoice',
  'check recorded': 'check',
};

interface Dated extends TTimelineEntry {
  time: number;
}

/** At one instant, the entry a cause leads to sits above its cause, as later entries do (newest first). */
const KIND_ORDER = Object.fromEntries(TIMELINE_KINDS.map((kind, i) => [kind, i]));

/**
 * One list of everything that happened to an account (R12, docs/decisions/026), newest first:
 * status changes, payments, refunds, e-mails (subject and status, never a body), sign-ins and
 * staff actions. Each source gives at most its newest TIMELINE_LIMIT rows, so the merge of them
 * holds the newest TIMELINE_LIMIT entries of all.
 */
export async function getAccountTimeline(db: Database, userId: string): Promise<TTimelineEntry[]> {
  const [user] = await db
    .select({ email: users.email, altEmail: users.altEmail })
    .from(users)
    .where(eq(users.id, userId));
  if (!user) throw new AppError(ERROR_CODES.NOT_FOUND);
  const limit = TIMELINE_LIMIT;
  const [events, paid, refunded, mails, signIns, actions] = await Promise.all([
    db
      .select()
      .from(accountEvents)
      .where(eq(accountEvents.userId, userId))
      .orderBy(desc(accountEvents.at))
      .limit(limit),
    db
      .select({
        id: payments.id,
        amountCents: payments.amountCents,
        activationDate: payments.activationDate,
        status: payments.status,
        cardBrand: payments.cardBrand,
        cardLast4: payments.cardLast4,
        createdAt: payments.createdAt,
      })
      .from(payments)
      .where(eq(payments.userId, userId))
      .orderBy(desc(payments.createdAt))
      .limit(limit),
    db
      .select({
        id: refunds.id,
        paymentId: refunds.paymentId,
        amountCents: refunds.amountCents,
        status: refunds.status,
        reason: refunds.reason,
        createdAt: refunds.createdAt,
      })
      .from(refunds)
      .where(eq(refunds.userId, userId))
      .orderBy(desc(refunds.createdAt))
      .limit(limit),
    db
      .select({
        to: mailOutbox.toAddress,
        subject: mailOutbox.subject,
        status: mailOutbox.status,
        createdAt: mailOutbox.createdAt,
      })
      .from(mailOutbox)
      .where(inArray(sql`lower(${mailOutbox.toAddress})`, accountAddresses(user)))
      .orderBy(desc(mailOutbox.createdAt))
      .limit(limit),
    db
      .select({
        createdAt: sessions.createdAt,
        context: sessions.context,
        viaKarId: sessions.viaKarId,
        endedAt: sessions.endedAt,
        endReason: sessions.endReason,
      })
      .from(sessions)
      .where(eq(sessions.userId, userId))
      .orderBy(desc(sessions.createdAt))
      .limit(limit),
    db
      .select()
      .from(staffAudit)
      .where(eq(staffAudit.userId, userId))
      .orderBy(desc(staffAudit.at), desc(staffAudit.id))
      .limit(limit),
  ]);

  const entries: Dated[] = [];
  const add = (at: Date, entry: Omit<TTimelineEntry, 'at'>) =>
    entries.push({ at: at.toISOString(), time: at.getTime(), ...entry });

  for (const row of events) {
    const changesStatus = row.fromStatus !== null || row.toStatus !== null;
    // R14: invoices issued and voided, checks recorded and returned, whoever acted.
    const annualKind =
      ANNUAL_EVENT_KINDS[row.event] ?? (/^check .+ returned$/.test(row.event) ? 'check' : null);
    if (annualKind && !changesStatus) {
      const details = row.details as Record<string, unknown>;
      add(row.at, {
        kind: annualKind,
        summary: `${row.event[0]!.toUpperCase()}${row.event.slice(1)}${typeof details.number === 'string' ? `: ${details.number}` : ''}`,
        details: { event: row.event, actor: row.actor, ...details },
      });
      continue;
    }
    // A staff action's event that changes no status (a credit, complimentary, a refund) is
    // already the staff entry of its audit row: listed twice it read "new → unchanged" (issue 25).
    if (!changesStatus && row.actor === 'staff') continue;
    add(row.at, {
      kind: 'status',
      summary: changesStatus
        ? `${row.fromStatus ?? 'new'} → ${row.toStatus ?? row.fromStatus}: ${row.event}`
        : row.event,
      details: {
        event: row.event,
        fromStatus: row.fromStatus,
        toStatus: row.toStatus,
        actor: row.actor,
      },
    });
  }
  for (const row of paid)
    add(row.createdAt, {
      kind: 'payment',
      summary: `Payment of ${formatCurrency(row.amountCents)} (${row.cardBrand} ending in ${row.cardLast4})${row.status === 'refunded' ? ', refunded' : ''}`,
      details: {
        paymentId: row.id,
        amountCents: row.amountCents,
        activationDate: row.activationDate,
        status: row.status,
        receiptUrl: receiptPath(userId, row.id),
      },
    });
  for (const row of refunded)
    add(row.createdAt, {
      kind: 'refund',
      summary: `Refund of ${formatCurrency(row.amountCents)}: ${row.status}`,
      details: {
        refundId: row.id,
        paymentId: row.paymentId,
        amountCents: row.amountCents,
        status: row.status,
        reason: row.reason,
      },
    });
  for (const row of mails)
    add(row.createdAt, {
      kind: 'email',
      summary: `E-mail: ${row.subject}`,
      details: { to: row.to, subject: row.subject, status: row.status },
    });
  for (const row of signIns)
    add(row.createdAt, {
      kind: 'signIn',
      summary: `Signed in (${row.context}${row.viaKarId ? ', DealerPass ID' : ''})`,
      details: {
        context: row.context,
        viaKarId: row.viaKarId,
        endedAt: row.endedAt?.toISOString() ?? null,
        endReason: row.endReason,
      },
    });
  for (const row of actions)
    add(row.at, {
      kind: 'staff',
      summary: `${staffActionSummary(row)} by ${row.staffEmail}${row.reason ? `: ${row.reason}` : ''}`,
      details: {
        auditId: row.id,
        action: row.action,
        staffEmail: row.staffEmail,
        reason: row.reason,
        before: row.before,
        after: row.after,
      },
    });

  entries.sort((a, b) => b.time - a.time || KIND_ORDER[b.kind]! - KIND_ORDER[a.kind]!);
  return entries.slice(0, limit).map(({ time: _time, ...entry }) => entry);
}

/**
 * What a staff action's timeline entry says it did: its name, or for a change made on the
 * dealer's behalf (issue 28) what was added and removed and what was charged today.
 */
const named = (code: string) => nameOf(code as TSubscriptionCode);

function staffActionSummary(row: { action: string; after: unknown }): string {
  if (row.action !== 'adjustSubscription') return row.action;
  const after = (row.after ?? {}) as {
    added?: string[];
    removed?: string[];
    chargeTodayCents?: number;
  };
  const parts = [
    after.added?.length ? `added ${after.added.map(named).join(', ')}` : null,
    after.removed?.length
      ? `removed at the next bill ${after.removed.map(named).join(', ')}`
      : null,
    after.chargeTodayCents ? `prorated charge ${formatCurrency(after.chargeTodayCents)}` : null,
  ].filter(Boolean);
  return `Subscriptions changed for the dealer (${parts.join('; ')})`;
}

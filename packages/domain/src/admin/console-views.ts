/**
 * What the operator console reads (DECISIONS R12, docs/decisions/026), as the server's response
 * schemas: a key not listed here cannot leave the server, so no card number, CVV, password, token
 * or secret can (R7, R12): a card is brand, last four and expiry; a secret is a boolean.
 */
import { z } from 'zod';
import { ZAnnualPeriodSchema, ZInvoiceSchema } from '../schemas/annual-billing.ts';

const instant = z.string();
const nullableInstant = z.string().nullable();

export const ZAccountSearchResultSchema = z.object({
  userId: z.string(),
  dealerpassUserId: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  dealership: z.string(),
  accountStatus: z.string(),
  accountStatusDetails: z.string().nullable(),
  cardBrand: z.string().nullable(),
  cardLast4: z.string().nullable(),
});
export type TAccountSearchResult = z.infer<typeof ZAccountSearchResultSchema>;

/** At most this many accounts answer one search. */
export const ACCOUNT_SEARCH_LIMIT = 50;

export const ZStaffAccountProfileSchema = z.object({
  userId: z.string(),
  dealerpassUserId: z.string(),
  /** The DealerPass ID (the provider's subject), null for a migrated account without one. */
  karId: z.string().nullable(),
  legacyUsername: z.string().nullable(),
  email: z.string(),
  altEmail: z.string().nullable(),
  firstName: z.string(),
  lastName: z.string(),
  dealership: z.string(),
  phone: z.string(),
  altPhone: z.string().nullable(),
  address1: z.string(),
  address2: z.string().nullable(),
  city: z.string(),
  state: z.string(),
  zip: z.string(),
  country: z.string(),
  createdAt: instant,
  card: z
    .object({ brand: z.string().nullable(), last4: z.string(), expiration: z.string().nullable() })
    .nullable(),
  autoCheckPasswordSet: z.boolean(),
  carfaxConnected: z.boolean(),
  /** The DealerPass ID's sign-in state; null for a migrated account without one. */
  identity: z.object({ passwordSet: z.boolean(), emailVerified: z.boolean() }).nullable(),
});

/**
 * Whether the verification e-mail can be sent again (R12): a DealerPass ID whose password is not
 * set yet or whose e-mail is not verified. The server refuses the action otherwise (409), and
 * the console does not offer it.
 */
export function isVerificationPending(
  identity: { passwordSet: boolean; emailVerified: boolean } | null,
): boolean {
  return identity !== null && (!identity.passwordSet || !identity.emailVerified);
}

export const ZStatusHistoryEntrySchema = z.object({
  at: instant,
  event: z.string(),
  fromStatus: z.string().nullable(),
  toStatus: z.string().nullable(),
  actor: z.string(),
});

export const ZStaffSubscriptionSchema = z.object({
  codes: z.array(z.string()),
  autoExtras: z.array(z.string()),
  pendingRemovals: z.array(z.string()),
  pendingRemovalsAt: z.string().nullable(),
  cycleAnchor: z.string(),
  currentPeriodStart: z.string(),
  /** The next bill date. */
  currentPeriodEnd: z.string(),
  failedAttempts: z.number().int(),
  nextRetryAt: nullableInstant,
  cancelRequestedAt: nullableInstant,
  /** R4's scheduled attempts on an unpaid renewal (scheduledAttempts): staff retries are not. */
  scheduledAttempts: z.object({ made: z.number().int(), left: z.number().int() }),
  /** When the schedule tries again (nextScheduledRetry); null when it will not. */
  nextScheduledRetryAt: nullableInstant,
});

export const ZStaffSubscriptionChangeSchema = z.object({
  id: z.string(),
  status: z.string(),
  codesBefore: z.array(z.string()),
  codesRequested: z.array(z.string()),
  amountCents: z.number().int(),
  declineReason: z.string().nullable(),
  createdAt: instant,
  settledAt: nullableInstant,
});

export const ZStaffPaymentSchema = z.object({
  paymentId: z.string(),
  activationDate: z.string(),
  amountCents: z.number().int(),
  /** Succeeded refunds; the whole amount for a payment refunded in the trial (R4). */
  refundedCents: z.number().int(),
  /**
   * What a staff refund may still take (R12): none of a payment refunded or claimed by the trial
   * cancellation, or charged back; otherwise what neither a done nor an in-flight refund took.
   */
  refundableCents: z.number().int(),
  /** When a chargeback of it was recorded; null if none. */
  chargedBackAt: instant.nullable(),
  status: z.string(),
  cardBrand: z.string(),
  cardLast4: z.string(),
  gatewayTransactionId: z.string(),
  createdAt: instant,
  receiptUrl: z.string(),
});

export const ZStaffRefundSchema = z.object({
  refundId: z.string(),
  paymentId: z.string(),
  amountCents: z.number().int(),
  status: z.string(),
  reason: z.string(),
  failureReason: z.string().nullable(),
  createdAt: instant,
  settledAt: nullableInstant,
});

/** A charge the gateway declined: a renewal's, a reactivation's, a change's or a staff retry's (R4, R10, R16). */
export const ZStaffDeclineSchema = z.object({
  at: instant,
  kind: z.enum(['renewal', 'reactivation', 'change', 'staff retry']),
  /** The period's attempt that was declined (R4's retries); null for a subscription change. */
  attempt: z.number().int().nullable(),
  reason: z.string(),
});

/** A period that needed more than one attempt, or failed for good (the dunning of R4). */
export const ZStaffRetrySchema = z.object({
  periodId: z.string(),
  kind: z.string(),
  periodStart: z.string(),
  periodEnd: z.string(),
  amountCents: z.number().int(),
  status: z.string(),
  /** Charges sent for the period so far, staff retries included. */
  attempts: z.number().int(),
});

export const ZStaffBalanceSchema = z.object({
  /** Positive is owed, negative is credit (R4). */
  cents: z.number().int(),
  entries: z.array(
    z.object({ at: instant, kind: z.string(), amountCents: z.number().int(), source: z.string() }),
  ),
});

/** A dealer session as staff see it: never its id or its tokens. */
export const ZStaffSessionViewSchema = z.object({
  createdAt: instant,
  lastSeenAt: instant,
  endedAt: nullableInstant,
  endReason: z.string().nullable(),
  context: z.string(),
  viaKarId: z.boolean(),
});

export const ZStaffIntegrationsSchema = z.object({
  carfax: z.object({ connected: z.boolean(), connectedAt: nullableInstant }),
  autoCheck: z.object({
    autoCheckId: z.string().nullable(),
    enabled: z.boolean(),
    autoPurchase: z.boolean(),
    passwordSet: z.boolean(),
  }),
});

/** An e-mail to the account: subject and status only (a body may hold a sign-in link, a secret). */
export const ZStaffMailSchema = z.object({
  to: z.string(),
  subject: z.string(),
  status: z.string(),
  createdAt: instant,
  sentAt: nullableInstant,
});

export const ZStaffAccountDetailSchema = z.object({
  profile: ZStaffAccountProfileSchema,
  status: z.object({
    accountStatus: z.string(),
    accountStatusDetails: z.string().nullable(),
    nextBillDate: z.string().nullable(),
    /** A pending cancellation: the day it takes effect (decision 058); absent otherwise. */
    cancellationTakesEffect: z.string().nullable().optional(),
    history: z.array(ZStatusHistoryEntrySchema),
  }),
  subscription: ZStaffSubscriptionSchema.nullable(),
  changes: z.array(ZStaffSubscriptionChangeSchema),
  payments: z.array(ZStaffPaymentSchema),
  refunds: z.array(ZStaffRefundSchema),
  declines: z.array(ZStaffDeclineSchema),
  retries: z.array(ZStaffRetrySchema),
  balance: ZStaffBalanceSchema,
  sessions: z.array(ZStaffSessionViewSchema),
  integrations: ZStaffIntegrationsSchema,
  emails: z.array(ZStaffMailSchema),
  /** Annual billing by check (R14): every invoice, newest first, and the period paid by check. */
  invoices: z.array(ZInvoiceSchema),
  annualPeriod: ZAnnualPeriodSchema.nullable(),
});
export type TStaffAccountDetail = z.infer<typeof ZStaffAccountDetailSchema>;

export const TIMELINE_KINDS = [
  'status',
  'payment',
  'refund',
  'email',
  'signIn',
  'staff',
  'invoice',
  'check',
] as const;
export type TTimelineKind = (typeof TIMELINE_KINDS)[number];

export const ZTimelineEntrySchema = z.object({
  at: instant,
  kind: z.enum(TIMELINE_KINDS),
  summary: z.string(),
  details: z.record(z.string(), z.unknown()),
});
export type TTimelineEntry = z.infer<typeof ZTimelineEntrySchema>;

/** The newest entries of an account's timeline that one answer carries. */
export const TIMELINE_LIMIT = 500;

/**
 * What the operator console's business pages read (DECISIONS R11, R12; docs/decisions/026):
 * promotion codes, prices, the dunning queue and the Contact Us inbox, as response schemas.
 */
import { z } from 'zod';
import { PROMOTION_KINDS, PROMOTION_STATUSES } from '../billing/promotion.ts';

const instant = z.string();
const nullableInstant = z.string().nullable();

export const ZStaffPromotionSchema = z.object({
  code: z.string(),
  kind: z.enum(PROMOTION_KINDS),
  value: z.number().int(),
  description: z.string(),
  expiresAt: nullableInstant,
  maxRedemptions: z.number().int().nullable(),
  /** Sign-ups that used the code, or hold it while their charge is in flight. */
  redemptionCount: z.number().int(),
  requiresCard: z.boolean(),
  disabled: z.boolean(),
  disabledAt: nullableInstant,
  createdBy: z.string(),
  createdAt: instant,
  recentRedemptions: z.array(
    z.object({ email: z.string(), discountCents: z.number().int(), redeemedAt: instant }),
  ),
  /** Where the code stands at the server's now (promotionStatus): what the console shows. */
  status: z.enum(PROMOTION_STATUSES),
});
export type TStaffPromotion = z.infer<typeof ZStaffPromotionSchema>;

/** Redemptions listed per code (the count is exact; the list is the newest). */
export const RECENT_REDEMPTIONS = 10;

export const ZStaffPriceRowSchema = z.object({
  item: z.string(),
  /** Null for the opening price of an item (in force since always). */
  effectiveFrom: nullableInstant,
  cents: z.number().int(),
  scheduledBy: z.string(),
  scheduledAt: instant,
});

/**
 * A change still ahead: its rows, the accounts it will bill at its prices and whose total it
 * moves, and the notices sent (R11). Every one can be withdrawn until its date (R11 amended).
 */
export const ZStaffScheduledChangeSchema = z.object({
  effectiveFrom: instant,
  /** Its business date, 'YYYY-MM-DD': what a withdrawal names. */
  effectiveDate: z.iso.date(),
  rows: z.array(ZStaffPriceRowSchema),
  accountsAffected: z.number().int(),
  noticesSent: z.number().int(),
});

export const ZStaffPricesSchema = z.object({
  prices: z.array(ZStaffPriceRowSchema),
  scheduled: z.array(ZStaffScheduledChangeSchema),
});

/** What scheduling a change would do (R11 amended): asked before the change is confirmed. */
export const ZStaffPriceChangePreviewSchema = z.object({
  effectiveDate: z.iso.date(),
  effectiveFrom: instant,
  rows: z.array(
    z.object({ item: z.string(), from: z.string().nullable(), cents: z.number().int() }),
  ),
  accountsAffected: z.number().int(),
  sampleNotice: z.object({ to: z.string(), subject: z.string(), text: z.string() }).nullable(),
});
export type TStaffPriceChangePreview = z.infer<typeof ZStaffPriceChangePreviewSchema>;

export const ZDunningAccountSchema = z.object({
  userId: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  dealership: z.string(),
  /** What the account owes now (its balance, R4). */
  owedCents: z.number().int(),
  failedAttempts: z.number().int(),
  nextRetryAt: nullableInstant,
  nextBillDate: z.string().nullable(),
});

export const ZBillingRunSchema = z.object({
  id: z.number().int(),
  kind: z.string(),
  status: z.string(),
  startedAt: instant,
  finishedAt: nullableInstant,
  charged: z.number().int(),
  declined: z.number().int(),
  deactivated: z.number().int(),
  /** Charges the gateway could not answer, left for a later run. */
  errors: z.number().int(),
});

export const ZStaffDunningSchema = z.object({
  accounts: z.array(ZDunningAccountSchema),
  runs: z.array(ZBillingRunSchema),
});

export const ZContactMessageSummarySchema = z.object({
  id: z.string(),
  fullName: z.string(),
  email: z.string(),
  queryType: z.string(),
  status: z.string(),
  createdAt: instant,
  answeredAt: nullableInstant,
});

export const ZContactReplySchema = z.object({
  id: z.string(),
  staffEmail: z.string(),
  body: z.string(),
  createdAt: instant,
});

export const ZContactMessageSchema = ZContactMessageSummarySchema.extend({
  phoneCountry: z.string(),
  phoneNumber: z.string(),
  auctionAccessNumber: z.string().nullable(),
  comments: z.string(),
  source: z.string(),
  replies: z.array(ZContactReplySchema),
});

/**
 * What the operator console's overview reads (DECISIONS R18, issue 29): the request's period and
 * the answer's figures, as schemas the server answers through and the web app reads.
 */
import { z } from 'zod';
import { CHURN_CAUSES, MONTH_PATTERN, periodProblem } from './figures.ts';

const month = z.string().regex(MONTH_PATTERN, 'Pick months as YYYY-MM.');
const cents = z.number().int();
const count = z.number().int().nonnegative();

/** The period picker's answer: a range of whole months (this month, the last 12, or custom). */
export const ZOverviewQuerySchema = z
  .object({ from: month, to: month })
  .superRefine((value, context) => {
    const problem = periodProblem(value.from, value.to);
    if (problem) context.addIssue({ code: 'custom', message: problem, path: ['to'] });
  });
export type TOverviewQuery = z.infer<typeof ZOverviewQuerySchema>;

export const ZRevenueSchema = z.object({
  paymentsCents: cents,
  refundsCents: cents,
  chargebacksCents: cents,
  returnedChecksCents: cents,
  revenueCents: cents,
});

export const ZOverviewMonthSchema = z.object({
  month: z.string(),
  /** MRR at the month's end (or now, for the month under way). */
  mrrCents: cents,
  revenue: ZRevenueSchema,
  newAccounts: count,
  reactivated: count,
  churned: count,
  churnByCause: z.object(Object.fromEntries(CHURN_CAUSES.map((cause) => [cause, count]))),
  /** Churn by cancellation (in the trial or after), by 000 §3's reason; `none` when none was given. */
  churnByReason: z.record(z.string(), count),
  dunningEntered: count,
  dunningRecovered: count,
  /** Percentage with one decimal; null when no account entered dunning that month. */
  recoveryRatePercent: z.number().nullable(),
});
export type TOverviewMonth = z.infer<typeof ZOverviewMonthSchema>;

export const ZRevenueItemSchema = z.object({
  /** An item code, `PLATFORM_FEE`, or `ADJUSTMENT` (promotions, carried balances, proration). */
  code: z.string(),
  name: z.string(),
  group: z.string(),
  cents,
});

export const ZOverviewSchema = z.object({
  period: z.object({ from: z.string(), to: z.string(), months: z.array(z.string()) }),
  now: z.object({
    at: z.string(),
    mrrCents: cents,
    /** Paying accounts by status (R18), complimentary ones apart. */
    paying: z.array(z.object({ status: z.string(), count })),
    complimentary: count,
    /** What the accounts in validating payment owe. */
    openDunningCents: cents,
    openDunningAccounts: count,
    /** Open invoices (R14), null until invoices exist. */
    openInvoices: count.nullable(),
  }),
  months: z.array(ZOverviewMonthSchema),
  revenueByGroup: z.array(z.object({ group: z.string(), cents })),
  revenueByItem: z.array(ZRevenueItemSchema),
});
export type TOverview = z.infer<typeof ZOverviewSchema>;

/** The figures a chart's bar or point stands for, for the drill-down's list of accounts. */
export const OVERVIEW_FIGURES = [
  'mrr',
  'payments',
  'refunds',
  'chargebacks',
  'returnedChecks',
  'new',
  'reactivated',
  'churned',
  'dunningEntered',
  'dunningRecovered',
  'item',
] as const;
export type TOverviewFigure = (typeof OVERVIEW_FIGURES)[number];

export const ZOverviewAccountsQuerySchema = z.object({
  figure: z.enum(OVERVIEW_FIGURES),
  /** One month; for `item`, the first month of the range, with `to`. */
  month,
  to: month.optional(),
  /** A churn's cause, or an item's code or group. */
  detail: z.string().max(64).optional(),
});
export type TOverviewAccountsQuery = z.infer<typeof ZOverviewAccountsQuerySchema>;

/** The accounts a drill-down lists at most (the total is given beside). */
export const OVERVIEW_ACCOUNTS_LIMIT = 200;

export const ZOverviewAccountsSchema = z.object({
  total: count,
  accounts: z.array(
    z.object({
      userId: z.string(),
      dealership: z.string(),
      email: z.string(),
      status: z.string(),
      /** What the account adds to the figure (MRR, a payment…), when it is money. */
      cents: cents.nullable(),
    }),
  ),
});
export type TOverviewAccounts = z.infer<typeof ZOverviewAccountsSchema>;

import { sql } from 'drizzle-orm';
import {
  bigint,
  type AnyPgColumn,
  boolean,
  check,
  customType,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt } from './columns.ts';

/**
 * The database schema. `npm run db:generate -w @dealerpass/server` turns changes here into a new
 * SQL migration under apps/server/drizzle; the server applies pending migrations at start.
 * The sandboxes' tables (stand-ins for third parties, not the product's data) are in
 * sandbox-schema.ts, re-exported here so that the migrations and the client see one schema.
 */
export * from './sandbox-schema.ts';

/** Binary data (stored PDF receipts), as Node Buffers on both drivers. */
const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

/**
 * Bytes that stored receipts share, each kept once under its SHA-256 (decision 066): the embedded
 * font programs most receipts have in common, and the dictionary their remainder is compressed
 * with. Content-addressed, so a part is never changed; a receipt that names one needs it forever.
 */
export const receiptParts = pgTable('receipt_parts', {
  digest: bytea('digest').primaryKey(),
  data: bytea('data').notNull(),
});

/** Messages sent through the Contact Us form (001 §3). */
export const contactRequests = pgTable('contact_requests', {
  id: uuid('id')
    .primaryKey()
    .default(sql`gen_random_uuid()`),
  fullName: text('full_name').notNull(),
  email: text('email').notNull(),
  phoneCountry: text('phone_country').notNull(),
  phoneNumber: text('phone_number').notNull(),
  queryType: text('query_type').notNull(),
  auctionAccessNumber: text('auction_access_number'),
  comments: text('comments').notNull(),
  source: text('source').notNull(),
  /** The operator console's inbox (R12): new until a staff member replies. */
  status: text('status', { enum: ['new', 'answered'] })
    .notNull()
    .default('new'),
  answeredAt: timestamp('answered_at', { withTimezone: true }),
  createdAt: createdAt(),
});

/**
 * Every e-mail we send, written in the same transaction as the change that causes it (outbox).
 * With SMTP configured a dispatcher delivers pending rows; without it the rows are the embedded
 * mailbox (DECISIONS R8).
 */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    toAddress: text('to_address').notNull(),
    replyTo: text('reply_to'),
    subject: text('subject').notNull(),
    textBody: text('text_body').notNull(),
    htmlBody: text('html_body'),
    /**
     * Sent by a process, not written by a person: the mail carries `Auto-Submitted:
     * auto-generated` (RFC 3834). A staff member's reply to a Contact Us message is not
     * (docs/decisions/044).
     */
    automatic: boolean('automatic').notNull().default(true),
    /** A payment whose stored PDF receipt goes with the mail (read when it is sent, never copied). */
    receiptPaymentId: uuid('receipt_payment_id').references((): AnyPgColumn => payments.id, {
      onDelete: 'set null',
    }),
    /** A staff refund whose stored PDF receipt goes with the mail (R12), read when it is sent. */
    receiptRefundId: uuid('receipt_refund_id').references((): AnyPgColumn => refunds.id, {
      onDelete: 'set null',
    }),
    /** An invoice whose stored PDF goes with the mail (R14), read when it is sent. */
    invoiceId: uuid('invoice_id').references((): AnyPgColumn => invoices.id, {
      onDelete: 'set null',
    }),
    /** pending → sent, or failed after the last attempt; `stored` when kept in the embedded mailbox. */
    status: text('status', { enum: ['pending', 'sent', 'failed', 'stored'] }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [index('mail_outbox_pending_idx').on(table.status, table.nextAttemptAt)],
);

/** A solved captcha is accepted once: its signature is recorded until it would have expired anyway. */
export const captchaRedemptions = pgTable('captcha_redemptions', {
  signature: text('signature').primaryKey(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  redeemedAt: timestamp('redeemed_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * DealerPass ID accounts of the embedded identity provider (DECISIONS R6). `id` is the OpenID
 * subject; a user's `karId` holds it. The password hash is Argon2id; null until the user sets a
 * password from the verification link.
 */
export const identities = pgTable('identities', {
  id: uuid('id')
    .primaryKey()
    .default(sql`gen_random_uuid()`),
  email: text('email').notNull().unique(),
  passwordHash: text('password_hash'),
  emailVerified: boolean('email_verified').notNull().default(false),
  createdAt: createdAt(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Single-use, expiring links: set a password (verification e-mail) or reset a forgotten one. */
export const identityTokens = pgTable('identity_tokens', {
  tokenHash: text('token_hash').primaryKey(),
  identityId: uuid('identity_id')
    .notNull()
    .references(() => identities.id, { onDelete: 'cascade' }),
  /** 'sign-in' is the one-time grant that follows a first password (docs/decisions/017). */
  purpose: text('purpose', { enum: ['set-password', 'reset-password', 'sign-in'] }).notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
  createdAt: createdAt(),
});

/**
 * Failure budgets (docs/decisions/029): per key (an account's sign-in, a staff member's second
 * factor), the instants of the attempts taken within the budget's window, newest last and at most
 * FAILURE_BUDGET_KEPT of them. One row per key, so taking an attempt and counting what was taken
 * is one `INSERT ... ON CONFLICT DO UPDATE ... RETURNING` under the row's lock.
 */
export const failureBudgets = pgTable(
  'failure_budgets',
  {
    budgetKey: text('budget_key').primaryKey(),
    takenAt: timestamp('taken_at', { withTimezone: true }).array().notNull(),
    /** When the newest attempt leaves the window: the row may go (the background purge). */
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('failure_budgets_expires_idx').on(table.expiresAt)],
);

/** The account record of 000 §3. Secrets (AutoCheck password, legacy password) are never returned. */
export const users = pgTable(
  'users',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    dealerpassUserId: text('dealerpass_user_id').notNull().unique(),
    /** The DealerPass ID: the provider's subject (an `identities.id` with the embedded provider). */
    karId: text('kar_id').unique(),
    email: text('email').notNull(),
    altEmail: text('alt_email'),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    dealership: text('dealership').notNull(),
    phone: text('phone').notNull(),
    phoneCountryCode: text('phone_country_code').notNull().default('US'),
    altPhone: text('alt_phone'),
    altPhoneCountryCode: text('alt_phone_country_code'),
    auctionAccessId: text('auction_access_id'),
    dealershipAuctionAccessId: text('dealership_auction_access_id'),
    address1: text('address1').notNull(),
    address2: text('address2'),
    city: text('city').notNull(),
    state: text('state').notNull(),
    zip: text('zip').notNull(),
    country: text('country').notNull().default('US'),
    billingFirstName: text('billing_first_name'),
    billingLastName: text('billing_last_name'),
    billingCountry: text('billing_country'),
    billingAddress1: text('billing_address1'),
    billingAddress2: text('billing_address2'),
    billingCity: text('billing_city'),
    billingState: text('billing_state'),
    billingZip: text('billing_zip'),
    /** Display only (DECISIONS R5): the card itself lives at the payment gateway. */
    cardBrand: text('card_brand'),
    cardLast4: text('card_last4'),
    cardExpiration: text('card_expiration'),
    subscriptions: text('subscriptions')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    accountStatus: text('account_status').notNull().default('active'),
    /**
     * Any other status detail the API passes on; complimentary is its own column (issue 26), read
     * and written only through `complimentary` below and sent as the detail by serialize-user.
     */
    accountStatusDetails: text('account_status_details'),
    /** R4, R12: an active complimentary account is not charged and hides Current Balance. */
    complimentary: boolean('complimentary').notNull().default(false),
    nextBillDate: date('next_bill_date'),
    /** The DealerPass ID deadline of migrated accounts (000 §3 programDate). */
    programDate: timestamp('program_date', { withTimezone: true }),
    preferences: jsonb('preferences').notNull().default({}),
    autoCheckId: text('autocheck_id'),
    /** AES-256-GCM with the server's encryption key (DECISIONS R7). */
    autoCheckPasswordEnc: text('autocheck_password_enc'),
    autoCheckEnabled: boolean('autocheck_enabled').notNull().default(false),
    autoCheckAutoPurchase: boolean('autocheck_auto_purchase').notNull().default(false),
    /** Migrated accounts sign in with these until they link a DealerPass ID (DECISIONS R6). */
    legacyUsername: text('legacy_username').unique(),
    legacyPasswordHash: text('legacy_password_hash'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  // The overview's paying accounts by status and its open dunning, without reading every account
  // (R18, decision 051).
  (table) => [index('users_status_idx').on(table.accountStatus, table.complimentary)],
);

/**
 * Server-side sessions (DECISIONS R6). The cookie holds a random id; only its SHA-256 is stored.
 * Provider tokens stay here, encrypted, and never reach the browser.
 */
export const sessions = pgTable(
  'sessions',
  {
    idHash: text('id_hash').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** web, app, af (partner-embedded) or ext (extension): picks error bodies and logout callbacks. */
    context: text('context', { enum: ['web', 'app', 'af', 'ext'] }).notNull(),
    /** True when the sign-in came through a DealerPass ID (the banner's rule, 000 §4). */
    viaKarId: boolean('via_kar_id').notNull(),
    tokensEnc: text('tokens_enc'),
    createdAt: createdAt(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull(),
    absoluteExpiresAt: timestamp('absolute_expires_at', { withTimezone: true }).notNull(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    /**
     * 'password-changed': a reset or set password ends every session of the account; 'staff':
     * a staff member ended them from the operator console (R12).
     */
    endReason: text('end_reason', {
      enum: ['logout', 'duplicate', 'expired', 'password-changed', 'staff'],
    }),
  },
  (table) => [index('sessions_user_idx').on(table.userId)],
);

/** A sign-in in progress at the provider: PKCE verifier, nonce and where to go after. Single use. */
export const loginTransactions = pgTable('login_transactions', {
  stateHash: text('state_hash').primaryKey(),
  /** Hash of the browser's login cookie, so a state works only in the browser that started it. */
  browserHash: text('browser_hash').notNull(),
  nonce: text('nonce').notNull(),
  codeVerifier: text('code_verifier').notNull(),
  returnTo: text('return_to').notNull(),
  /** A dealer's context, or 'staff' for the operator console's sign-in (docs/decisions/026). */
  context: text('context', { enum: ['web', 'app', 'af', 'ext', 'staff'] }).notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  consumedAt: timestamp('consumed_at', { withTimezone: true }),
  createdAt: createdAt(),
});

/** oidc-provider's models (sessions, grants, codes, tokens, interactions), so no state is in memory. */
export const oidcPayloads = pgTable(
  'oidc_payloads',
  {
    model: text('model').notNull(),
    /** Ids, uids, user codes and grant ids are keyed hashes (the ids are the credentials). */
    id: text('id').notNull(),
    /** The provider's payload as JSON, sealed and bound to the row's model and id. */
    payloadEnc: text('payload_enc').notNull(),
    grantId: text('grant_id'),
    userCode: text('user_code'),
    uid: text('uid'),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
  },
  (table) => [
    primaryKey({ columns: [table.model, table.id] }),
    index('oidc_payloads_grant_idx').on(table.grantId),
    index('oidc_payloads_uid_idx').on(table.uid),
    index('oidc_payloads_user_code_idx').on(table.userCode),
  ],
);

/** The provider's signing keys: private JWKs encrypted at rest, shared by every server instance. */
export const oidcKeys = pgTable('oidc_keys', {
  kid: text('kid').primaryKey(),
  privateJwkEnc: text('private_jwk_enc').notNull(),
  createdAt: createdAt(),
});

/**
 * The Authorize.Net adapter's memory of its charges and refunds per idempotency key
 * (docs/decisions/010). A repeated key answers the stored outcome without calling Authorize.Net;
 * `attempt` numbers the invoice sent, so a retry after a definite processor error is not refused
 * as a duplicate while a retry after a lost answer is.
 */
export const authorizeNetOperations = pgTable('authorize_net_operations', {
  idempotencyKey: text('idempotency_key').primaryKey(),
  kind: text('kind', { enum: ['charge', 'refund'] }).notNull(),
  requestHash: text('request_hash').notNull(),
  /** retry: the last attempt failed for sure, the next one sends attempt + 1. */
  status: text('status', { enum: ['retry', 'held', 'approved', 'declined', 'refunded'] }).notNull(),
  attempt: integer('attempt').notNull().default(1),
  transactionId: text('transaction_id'),
  declineReason: text('decline_reason', {
    enum: ['declined', 'insufficient_funds', 'expired_card'],
  }),
  createdAt: createdAt(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * One subscription per account (DECISIONS R3–R4): what is selected, which extras were added
 * automatically, the cycle anchor (renewals fall on its day of the month, clamped), the current
 * period, the card at the gateway, and the dunning schedule.
 */
export const subscriptions = pgTable(
  'subscriptions',
  {
    userId: uuid('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    codes: text('codes').array().notNull(),
    autoExtras: text('auto_extras')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** The sign-up (or reactivation) date: renewals fall on this day of each month. */
    cycleAnchor: date('cycle_anchor').notNull(),
    currentPeriodStart: date('current_period_start').notNull(),
    /** The next bill date: the start of the next period. */
    currentPeriodEnd: date('current_period_end').notNull(),
    gatewayCustomerId: text('gateway_customer_id'),
    gatewayPaymentProfileId: text('gateway_payment_profile_id'),
    /** Validating payment: failed attempts of the current renewal and when to try again (R4: 1, 3, 5 days). */
    failedAttempts: integer('failed_attempts').notNull().default(0),
    nextRetryAt: timestamp('next_retry_at', { withTimezone: true }),
    /**
     * When the unpaid renewal first failed (or the check was returned, R14): R4's retries fall 1,
     * 3 and 5 days after it (decision 052). Set at the first failure; read only while failing.
     */
    dunningSince: timestamp('dunning_since', { withTimezone: true }),
    cancelRequestedAt: timestamp('cancel_requested_at', { withTimezone: true }),
    /**
     * R10: codes removed by a change, still running until the next bill date, when the billing
     * run takes them out of `codes`; until then they can be undone.
     */
    pendingRemovals: text('pending_removals')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /**
     * The bill date the pending removals take effect on: the next one when they were made (for a
     * validating-payment account, the one after the unpaid period).
     */
    pendingRemovalsAt: date('pending_removals_at'),
    /**
     * Annual billing by check (R14): the days paid by check, from the first annual period's start
     * to the last paid day ("paid through"). Set when a check is recorded, extended by a renewal's;
     * an end in the past is history (the account is back on monthly card billing).
     */
    annualPeriodStart: date('annual_period_start'),
    annualPeriodEnd: date('annual_period_end'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('subscriptions_due_idx').on(table.currentPeriodEnd)],
);

/**
 * What is owed for one account and one period. The unique (user, period start) is the database's
 * promise that a period is billed once, whatever crashes or instances; the idempotency key is
 * sent with every try of the same gateway call, so a retry after a crash cannot charge twice.
 */
/**
 * The rows of `billing_periods` that are an account's periods, one per start date (the unique
 * index's predicate; an `on conflict` naming that index repeats it): not a change's prorated
 * charge, not a reactivation (one per day by its own index, `REACTIVATION_PERIOD`), not a sign-up
 * period refunded in the trial, not a period charged back.
 */
export const BILLED_PERIOD = sql`kind not in ('change', 'reactivation') and status <> 'refunded'`;

/**
 * An account's reactivations, one per start date (R4), beside its other periods: a reactivation
 * on the first day of a year paid by check starts the same day as the year (decision 060).
 */
export const REACTIVATION_PERIOD = sql`kind = 'reactivation' and status <> 'refunded'`;

export const billingPeriods = pgTable(
  'billing_periods',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** 'change': the prorated charge of a subscription change (R10), from its day to the bill date. */
    /**
     * 'annual': a year paid by check against an invoice (R14), from the period's start to the bill
     * date twelve months on; the billing run finds it paid and moves the account past it.
     */
    kind: text('kind', {
      enum: ['signup', 'renewal', 'reactivation', 'change', 'annual'],
    }).notNull(),
    periodStart: date('period_start').notNull(),
    periodEnd: date('period_end').notNull(),
    amountCents: integer('amount_cents').notNull(),
    /** The domain quote at the moment of the charge (line items, fee, total). */
    quote: jsonb('quote').notNull(),
    /**
     * 'refunded': a period whose money went back, a sign-up's refunded in the trial (R4) or one
     * whose payment was charged back: no longer billed, so a reactivation may start that day.
     */
    status: text('status', { enum: ['due', 'paid', 'failed', 'waived', 'refunded'] })
      .notNull()
      .default('due'),
    /** Changes per attempt (a new dunning try is a new charge), never within one attempt. */
    attempt: integer('attempt').notNull().default(1),
    idempotencyKey: text('idempotency_key').notNull().unique(),
    /**
     * The card the current attempt charges, fixed when the attempt is claimed: a retry after a
     * crash sends the same request under the same key even if the card changed meanwhile. Cleared
     * when an attempt ends in a decline, so the next attempt charges the card then on file.
     */
    gatewayCustomerId: text('gateway_customer_id'),
    gatewayPaymentProfileId: text('gateway_payment_profile_id'),
    cardBrand: text('card_brand'),
    cardLast4: text('card_last4'),
    createdAt: createdAt(),
    settledAt: timestamp('settled_at', { withTimezone: true }),
  },
  // A period is billed once (R4); a change's prorated charge (R10) is beside its period, once per
  // change by its own idempotency key; a sign-up period refunded in the trial or a period charged
  // back was never a period, so a reactivation may start on the same day. A reactivation is once
  // per account and day by an index of its own, so it may start on a paid year's first day
  // (decision 060).
  (table) => [
    uniqueIndex('billing_periods_user_period_uq')
      .on(table.userId, table.periodStart)
      .where(BILLED_PERIOD),
    uniqueIndex('billing_periods_user_reactivation_uq')
      .on(table.userId, table.periodStart)
      .where(REACTIVATION_PERIOD),
    // R14: the years owed after a returned check, which the billing run's claim looks for on
    // every batch (decision 052); a handful of rows, so the claim never reads the whole table.
    index('billing_periods_owed_year_idx')
      .on(table.userId)
      .where(sql`kind = 'annual' and status = 'due'`),
  ],
);

/**
 * What an account owes, as entries (R4): the balance is their sum and is never stored anywhere
 * else, so every charge, payment, fee and credit moves it by writing one row. Positive is owed,
 * negative is paid or credited. `source` names what the entry is for (`charge:<period>`,
 * `payment:<payment>`, `chargeback:<payment>`…) and is unique, so recording anything twice
 * changes nothing.
 */
export const balanceEntries = pgTable(
  'balance_entries',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['charge', 'payment', 'fee', 'credit', 'opening'] }).notNull(),
    amountCents: integer('amount_cents').notNull(),
    source: text('source').notNull().unique(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('balance_entries_user_idx').on(table.userId)],
);

/**
 * Each distinct quote a payment was charged for (decision 062): its id is the MD5 of the quote's
 * text as a UUID, so the same quote always has the same id and nothing has to be looked up to name
 * it. Written only by the payments' trigger (migration 0027), never updated; a month's payments
 * share a handful, so the finance export reads each once instead of a quote per row. The id is
 * not unique on purpose: a writer never waits for another's uncommitted quote (two billing
 * batches storing the same new quotes in another order would wait for each other), and two that
 * store the same new quote at once both keep it, which readers take as one.
 */
export const billingQuotes = pgTable(
  'billing_quotes',
  {
    id: uuid('id').notNull(),
    quote: jsonb('quote').notNull(),
  },
  (table) => [index('billing_quotes_id_idx').on(table.id)],
);

/** Successful charges (R4: one payment row per successful charge, with its stored PDF receipt). */
export const payments = pgTable(
  'payments',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    billingPeriodId: uuid('billing_period_id')
      .notNull()
      .unique()
      .references(() => billingPeriods.id),
    amountCents: integer('amount_cents').notNull(),
    gatewayTransactionId: text('gateway_transaction_id').notNull(),
    cardBrand: text('card_brand').notNull(),
    cardLast4: text('card_last4').notNull(),
    /** The business date of the payment (YYYY-MM-DD), the receipt's file name (R9). */
    activationDate: date('activation_date').notNull(),
    /**
     * The receipt as stored (services/receipts/stored-receipt.ts, decision 066): the PDF itself
     * (rows written before migration 0028), or the PDF without the bytes it shares with other
     * receipts, which receipt_parts holds once. Read it through readStoredReceipts.
     */
    receiptPdf: bytea('receipt_pdf').notNull(),
    /** CRC-32 of the receipt's PDF, stored with it: the year zip then computes nothing (R9, decision 011). */
    receiptCrc32: bigint('receipt_crc32', { mode: 'number' }),
    status: text('status', { enum: ['succeeded', 'refunded'] })
      .notNull()
      .default('succeeded'),
    refundedAt: timestamp('refunded_at', { withTimezone: true }),
    /**
     * The trial cancellation's claim on the payment (R4, R12), taken under the payment's lock
     * before the gateway is asked: from then on no staff refund opens on it, and a retried
     * cancellation refunds the same amount again with the same key.
     */
    refundClaimedAt: timestamp('refund_claimed_at', { withTimezone: true }),
    refundClaimedCents: integer('refund_claimed_cents'),
    /** When a chargeback of it was recorded (R4): the card network gave it back, so no refund does. */
    chargedBackAt: timestamp('charged_back_at', { withTimezone: true }),
    /**
     * The billing period's quote as it stands (`billing_quotes`, decision 062), set by a trigger
     * when the payment is written and whenever its period's quote changes; never written by the
     * application.
     */
    quoteId: uuid('quote_id'),
    createdAt: createdAt(),
  },
  (table) => [
    index('payments_user_date_idx').on(table.userId, table.activationDate),
    // The console finds an account by a gateway transaction id or a card's last four (R12).
    index('payments_gateway_transaction_idx').on(table.gatewayTransactionId),
    index('payments_card_last4_idx').on(table.cardLast4),
    // The overview's revenue and the finance exports read money by date (R18, decision 042).
    index('payments_activation_date_idx').on(table.activationDate),
    index('payments_refunded_at_idx')
      .on(table.refundedAt)
      .where(sql`refunded_at is not null`),
    index('payments_charged_back_at_idx')
      .on(table.chargedBackAt)
      .where(sql`charged_back_at is not null`),
  ],
);

/** Every change of an account's status, with who or what caused it (issue 5's audit trail). */
export const accountEvents = pgTable(
  'account_events',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    event: text('event').notNull(),
    fromStatus: text('from_status'),
    toStatus: text('to_status'),
    /** 'user', 'billing-run', 'gateway' or 'support'. */
    actor: text('actor').notNull(),
    details: jsonb('details').notNull().default({}),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('account_events_user_idx').on(table.userId, table.at)],
);

/*
 * Sign-up (issue 6, 001 §3, §7; docs/decisions/013).
 */

/**
 * A sign-up in progress, saved page by page (`POST /api/signup/contact`, then
 * `PATCH /api/signup/detail/update/{leadID}/{1|2}`). The id is random and is the only key to
 * the lead; a lead that became an account is closed to further saves.
 */
export const signupLeads = pgTable(
  'signup_leads',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    email: text('email').notNull(),
    phone: text('phone').notNull(),
    dealershipName: text('dealership_name').notNull(),
    /** 001 §3: the terms acceptance, a value derived from its time. */
    termAndCondition: text('term_and_condition').notNull(),
    subscriptionSelection: text('subscription_selection')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    dealershipAddress1: text('dealership_address1'),
    dealershipAddress2: text('dealership_address2'),
    dealershipCountry: text('dealership_country'),
    dealershipState: text('dealership_state'),
    dealershipCity: text('dealership_city'),
    dealershipPostalCode: text('dealership_postal_code'),
    userAuctionAccessId: text('user_auction_access_id'),
    dealershipAuctionAccessId: text('dealership_auction_access_id'),
    /** The last partial save (0: the lead form only). */
    step: integer('step').notNull().default(0),
    convertedUserId: uuid('converted_user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('signup_leads_email_idx').on(table.email)],
);

const PROMOTION_KINDS = ['percent_off', 'amount_off', 'free_months'] as const;

/**
 * Promotion codes (stored upper-case). `value` is a percentage, cents or months by `kind`;
 * `redemption_count` counts sign-ups that used the code or hold it while their charge is in
 * flight, and never passes `max_redemptions`.
 */
export const promotionCodes = pgTable(
  'promotion_codes',
  {
    code: text('code').primaryKey(),
    kind: text('kind', { enum: PROMOTION_KINDS }).notNull(),
    value: integer('value').notNull(),
    description: text('description').notNull().default(''),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    maxRedemptions: integer('max_redemptions'),
    redemptionCount: integer('redemption_count').notNull().default(0),
    requiresCard: boolean('requires_card').notNull().default(false),
    /** Set by staff (R12): a disabled code is refused like an expired one; its history stays. */
    disabledAt: timestamp('disabled_at', { withTimezone: true }),
    /** 'seed' or the staff member's e-mail. */
    createdBy: text('created_by').notNull().default('seed'),
    createdAt: createdAt(),
  },
  (table) => [
    check('promotion_codes_value_ck', sql`${table.value} > 0`),
    check(
      'promotion_codes_percent_ck',
      sql`${table.kind} <> 'percent_off' or ${table.value} <= 100`,
    ),
    check('promotion_codes_months_ck', sql`${table.kind} <> 'free_months' or ${table.value} <= 12`),
    check(
      'promotion_codes_limit_ck',
      sql`${table.maxRedemptions} is null or ${table.redemptionCount} <= ${table.maxRedemptions}`,
    ),
  ],
);

/** Which account used which code: once per account. */
export const promotionRedemptions = pgTable(
  'promotion_redemptions',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    code: text('code')
      .notNull()
      .references(() => promotionCodes.code),
    userId: uuid('user_id')
      .notNull()
      .unique()
      .references(() => users.id, { onDelete: 'cascade' }),
    discountCents: integer('discount_cents').notNull(),
    redeemedAt: timestamp('redeemed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('promotion_redemptions_code_idx').on(table.code)],
);

/**
 * The sign-up's idempotency and crash record (docs/decisions/013): one row per e-mail address
 * while a sign-up for it is in flight or done. The account's id is chosen here before the gateway
 * is called, so a retry after a crash reuses the same gateway customer and charge key.
 * A failed sign-up deletes its row (nothing is left behind; the user may simply submit again).
 */
export const signupAttempts = pgTable('signup_attempts', {
  /** The e-mail, trimmed and lower-cased. */
  email: text('email').primaryKey(),
  /** The submit's request key, when it sent one (its repeats are answered by `oncePerKey`, decision 045). */
  idempotencyKey: text('idempotency_key'),
  requestHash: text('request_hash').notNull(),
  status: text('status', { enum: ['in_progress', 'completed'] }).notNull(),
  /** The account's id to be (users.id once completed; no foreign key before that). */
  userId: uuid('user_id').notNull(),
  /** The validated request (no card data: R5), so a retry after a crash can finish it. */
  request: jsonb('request').notNull(),
  promotionCode: text('promotion_code'),
  amountCents: integer('amount_cents').notNull(),
  gatewayCustomerId: text('gateway_customer_id'),
  gatewayPaymentProfileId: text('gateway_payment_profile_id'),
  cardBrand: text('card_brand'),
  cardLast4: text('card_last4'),
  cardExpiration: text('card_expiration'),
  /** Set just before the charge is sent: from then on only this key may charge the sign-up. */
  chargeKey: text('charge_key'),
  leaseExpiresAt: timestamp('lease_expires_at', { withTimezone: true }).notNull(),
  createdAt: createdAt(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/*
 * Carfax (issue 8, docs/decisions/015). Our side: one connection per account with its tokens
 * sealed (DECISIONS R7), and the sign-ins in progress with their PKCE verifiers.
 */

/** An account's Carfax tokens, AES-256-GCM sealed and bound to the account; never sent anywhere but Carfax. */
export const carfaxConnections = pgTable('carfax_connections', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  accessTokenEnc: text('access_token_enc').notNull(),
  refreshTokenEnc: text('refresh_token_enc'),
  scope: text('scope'),
  accessExpiresAt: timestamp('access_expires_at', { withTimezone: true }).notNull(),
  connectedAt: timestamp('connected_at', { withTimezone: true }).notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});

/**
 * A Carfax sign-in started by one DealerPass session: the state's SHA-256, the PKCE verifier
 * (sealed), taken once by the callback's token request from the same session.
 */
export const carfaxSignIns = pgTable(
  'carfax_sign_ins',
  {
    stateHash: text('state_hash').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    sessionIdHash: text('session_id_hash').notNull(),
    codeVerifierEnc: text('code_verifier_enc').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [index('carfax_sign_ins_user_idx').on(table.userId)],
);

/*
 * Prices as data and subscription changes (issue 18; DECISIONS R10, R11; docs/decisions/024, 025).
 */

/**
 * The dated price table (R11): seeded with R3's, a change is a new row with its effective instant
 * (midnight in the business time zone), never an edit of a row that has taken effect. `item` is a
 * base code, `SIMULCAST` or `PLATFORM_FEE`; `effective_from` null is the opening price.
 */
export const prices = pgTable(
  'prices',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    item: text('item').notNull(),
    effectiveFrom: timestamp('effective_from', { withTimezone: true }),
    cents: integer('cents').notNull(),
    /** Who scheduled it: 'seed', 'command', or the staff member's e-mail (the console, R12). */
    scheduledBy: text('scheduled_by').notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    index('prices_item_idx').on(table.item, table.effectiveFrom),
    check('prices_cents_check', sql`${table.cents} >= 0`),
  ],
);

/** R11: each account told once per effective instant that its monthly total changes. */
export const priceChangeNotices = pgTable(
  'price_change_notices',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    effectiveFrom: timestamp('effective_from', { withTimezone: true }).notNull(),
    oldTotalCents: integer('old_total_cents').notNull(),
    newTotalCents: integer('new_total_cents').notNull(),
    createdAt: createdAt(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.effectiveFrom] })],
);

/**
 * Card expiry reminders sent (issue 27, docs/decisions/044): one row per account, card and
 * threshold (30 or 7 days before the card's last valid day). The card is named by what we hold
 * of it (R5: last four digits and expiry, no number); a replaced card is another card and gets
 * reminders of its own. The row is claimed with `on conflict do nothing` in the transaction that
 * writes the e-mail, so any number of instances running the daily job send one.
 */
export const cardExpiryReminders = pgTable(
  'card_expiry_reminders',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    cardLast4: text('card_last4').notNull(),
    /** MMYY, as the card on file holds it. */
    cardExpiration: text('card_expiration').notNull(),
    thresholdDays: integer('threshold_days').notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    primaryKey({
      columns: [table.userId, table.cardLast4, table.cardExpiration, table.thresholdDays],
    }),
  ],
);

/**
 * A subscription change (R10), one per idempotency key: a repeated submit reads the stored
 * result. While its prorated charge is in flight the status is 'charging', and a partial unique
 * index lets only one such change exist per account (the 409).
 */
export const subscriptionChanges = pgTable(
  'subscription_changes',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    idempotencyKey: text('idempotency_key').notNull(),
    status: text('status', { enum: ['charging', 'applied', 'declined'] }).notNull(),
    codesBefore: text('codes_before').array().notNull(),
    codesRequested: text('codes_requested').array().notNull(),
    amountCents: integer('amount_cents').notNull(),
    billingPeriodId: uuid('billing_period_id').references(() => billingPeriods.id),
    /** The answer the request got, given again to a repeat of it. */
    result: jsonb('result'),
    declineReason: text('decline_reason'),
    createdAt: createdAt(),
    settledAt: timestamp('settled_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('subscription_changes_key_uq').on(table.userId, table.idempotencyKey),
    uniqueIndex('subscription_changes_in_flight_uq')
      .on(table.userId)
      .where(sql`status = 'charging'`),
  ],
);

/*
 * The operator console (issue 19; DECISIONS R12; docs/decisions/026).
 */

export const STAFF_ROLES = ['support', 'billing', 'admin'] as const;

/**
 * Staff: not dealers. Their own identities (the embedded provider's `staff:<id>` subjects, or an
 * external provider's subject bound on first sign-in by e-mail), a role, and a TOTP second factor
 * (RFC 6238) whose secret is sealed and whose last accepted time step is kept, so a code is
 * accepted once.
 */
export const staffUsers = pgTable('staff_users', {
  id: uuid('id')
    .primaryKey()
    .default(sql`gen_random_uuid()`),
  /** Lower-cased. */
  email: text('email').notNull().unique(),
  name: text('name').notNull(),
  role: text('role', { enum: STAFF_ROLES }).notNull(),
  /** Argon2id, for the embedded provider; null with an external one. */
  passwordHash: text('password_hash'),
  /** An external provider's subject, bound at the first sign-in. */
  externalSubject: text('external_subject').unique(),
  totpSecretEnc: text('totp_secret_enc'),
  totpEnrolledAt: timestamp('totp_enrolled_at', { withTimezone: true }),
  totpLastStep: bigint('totp_last_step', { mode: 'number' }),
  disabledAt: timestamp('disabled_at', { withTimezone: true }),
  createdAt: createdAt(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Staff sessions (R12: 15 minutes idle, 8 hours absolute), their own cookie. A session opens
 * nothing until its second factor is verified (`second_factor_at`).
 */
export const staffSessions = pgTable(
  'staff_sessions',
  {
    idHash: text('id_hash').primaryKey(),
    staffId: uuid('staff_id')
      .notNull()
      .references(() => staffUsers.id, { onDelete: 'cascade' }),
    secondFactorAt: timestamp('second_factor_at', { withTimezone: true }),
    /** The TOTP secret offered at enrolment, sealed, until a code proves it (then it moves to the user). */
    pendingTotpSecretEnc: text('pending_totp_secret_enc'),
    tokensEnc: text('tokens_enc'),
    createdAt: createdAt(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull(),
    absoluteExpiresAt: timestamp('absolute_expires_at', { withTimezone: true }).notNull(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    endReason: text('end_reason', { enum: ['logout', 'expired', 'reset', 'disabled'] }),
  },
  (table) => [index('staff_sessions_staff_idx').on(table.staffId)],
);

/**
 * Every staff action (R12), append-only: the migration's trigger refuses UPDATE and DELETE.
 * `request_key` is the action's idempotency key, unique: a repeated request finds its row and
 * does not act twice.
 */
export const staffAudit = pgTable(
  'staff_audit',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    staffId: uuid('staff_id').notNull(),
    staffEmail: text('staff_email').notNull(),
    /** The account acted on, when the action is about one (no foreign key: the log outlives it). */
    userId: uuid('user_id'),
    action: text('action').notNull(),
    before: jsonb('before'),
    after: jsonb('after'),
    reason: text('reason'),
    requestKey: text('request_key').unique(),
  },
  (table) => [
    index('staff_audit_user_idx').on(table.userId, table.at),
    index('staff_audit_at_idx').on(table.at),
  ],
);

/**
 * Refunds by staff (R12): of an approved payment, up to what is not yet refunded; one row per
 * request key, `pending` while the gateway call is in flight, so it goes out exactly once.
 */
export const refunds = pgTable(
  'refunds',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    paymentId: uuid('payment_id')
      .notNull()
      .references(() => payments.id),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    amountCents: integer('amount_cents').notNull(),
    status: text('status', { enum: ['pending', 'succeeded', 'failed'] }).notNull(),
    requestKey: text('request_key').notNull().unique(),
    gatewayRefundId: text('gateway_refund_id'),
    failureReason: text('failure_reason'),
    reason: text('reason').notNull(),
    staffId: uuid('staff_id').notNull(),
    /** The refund receipt (a PDF), stored when the refund succeeds. */
    receiptPdf: bytea('receipt_pdf'),
    createdAt: createdAt(),
    settledAt: timestamp('settled_at', { withTimezone: true }),
  },
  (table) => [
    index('refunds_payment_idx').on(table.paymentId),
    index('refunds_settled_at_idx').on(table.settledAt),
    check('refunds_amount_ck', sql`${table.amountCents} > 0`),
  ],
);

/**
 * Every request key a keyed route was sent (docs/decisions/031), whoever sent it: one row per
 * key, written in the transaction of the change it asked for, with what it asked (who sent it,
 * the action, its target and the SHA-256 of its canonical body) and the answer it got. The same
 * request again gets that answer; the key with anything else is refused (409). `body_hash` is
 * null for a key recorded before bodies were hashed (migration 0016): any reuse of it is refused.
 */
export const requestKeys = pgTable('request_keys', {
  key: text('key').primaryKey(),
  /** `staff:<id>` or `user:<id>`. */
  owner: text('owner').notNull(),
  action: text('action').notNull(),
  /** The route's parameters as canonical JSON (`{}` for a creation). */
  target: text('target').notNull(),
  bodyHash: text('body_hash'),
  /** The first answer, given again to a repeat; a multi-step action's own row id. */
  answer: jsonb('answer'),
  createdAt: createdAt(),
});

/** A staff reply to a Contact Us message, e-mailed to the sender and kept (R12). */
export const contactReplies = pgTable(
  'contact_replies',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    contactRequestId: uuid('contact_request_id')
      .notNull()
      .references(() => contactRequests.id, { onDelete: 'cascade' }),
    staffId: uuid('staff_id').notNull(),
    staffEmail: text('staff_email').notNull(),
    body: text('body').notNull(),
    createdAt: createdAt(),
  },
  (table) => [index('contact_replies_request_idx').on(table.contactRequestId)],
);

/**
 * The billing run's record (R12's dunning page shows the recent runs): one row per scheduled or
 * scripted run, written when it starts and completed with its counts when it ends; a row left
 * 'running' is a run that stopped. A takeover check that found nothing leaves no row.
 */
export const billingRuns = pgTable(
  'billing_runs',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    /** 'full' (the schedule, the script) or 'takeover' (the check for abandoned charges). */
    kind: text('kind', { enum: ['full', 'takeover'] }).notNull(),
    status: text('status', { enum: ['running', 'finished', 'failed'] }).notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    charged: integer('charged').notNull().default(0),
    declined: integer('declined').notNull().default(0),
    deactivated: integer('deactivated').notNull().default(0),
    /** Charges the gateway did not answer for sure (retried later). */
    errors: integer('errors').notNull().default(0),
  },
  (table) => [index('billing_runs_started_idx').on(table.startedAt)],
);

/**
 * Every declined charge of a period (R4's dunning, R12's "why a renewal failed"): one row per
 * attempt, with the gateway's reason, so the console shows each retry and why it failed.
 */
export const paymentDeclines = pgTable(
  'payment_declines',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    billingPeriodId: uuid('billing_period_id').references(() => billingPeriods.id, {
      onDelete: 'cascade',
    }),
    /** 'staff retry': the console's "Retry renewal now", an attempt outside R4's schedule (R16). */
    kind: text('kind', { enum: ['renewal', 'reactivation', 'staff retry'] }).notNull(),
    attempt: integer('attempt'),
    reason: text('reason').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
  },
  (table) => [index('payment_declines_user_idx').on(table.userId, table.at)],
);

/**
 * The claim of a scheduled job that must run once per scheduled time however many instances run
 * (R13, docs/decisions/046): one row per job, holding the last scheduled time an instance claimed.
 * An instance runs a time only if its conditional upsert wins: the time is newer than the row's,
 * and the row's run has finished or its lease ran out (a stopped instance). The run renews its
 * lease while it works, as the billing run renews its charges' leases.
 */
export const jobRuns = pgTable('job_runs', {
  name: text('name').primaryKey(),
  /** The scheduled time last claimed (the same instant on every instance). */
  slot: timestamp('slot', { withTimezone: true }).notNull(),
  /** The instance that claimed it (host and process id, for an operator reading the table). */
  holder: text('holder').notNull(),
  leasedUntil: timestamp('leased_until', { withTimezone: true }).notNull(),
  startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
  /** Null while it runs, or when its instance stopped before the end. */
  finishedAt: timestamp('finished_at', { withTimezone: true }),
  /** The failure's message when the last run threw; null when it completed. */
  lastError: text('last_error'),
});

/**
 * What each account added to MRR and from when (R18, issue 29, docs/decisions/042): one row per
 * state of the account, written by every status change (`change-account-status.ts`), every
 * selection and complimentary change and each price change's effective instant, closed
 * (`valid_to`) when the next one starts. MRR at an instant is the sum of `mrr_cents` over the
 * rows open at it, so a past month's end reads what was true then, never today's selection.
 * `movement` and `cause` are the domain's reading of the change that opened the row
 * (`overview/figures.ts`: new, reactivated, churned with its cause, dunning entered or left).
 */
export const accountMrrHistory = pgTable(
  'account_mrr_history',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    validFrom: timestamp('valid_from', { withTimezone: true }).notNull(),
    validTo: timestamp('valid_to', { withTimezone: true }),
    status: text('status').notNull(),
    complimentary: boolean('complimentary').notNull(),
    /** 'monthly' by card, or 'annual' by check (R14) once that exists. */
    cadence: text('cadence', { enum: ['monthly', 'annual'] })
      .notNull()
      .default('monthly'),
    codes: text('codes').array().notNull(),
    /** The selection's monthly total at the prices in force from `valid_from`. */
    monthlyCents: integer('monthly_cents').notNull(),
    /** What the account adds to MRR (the domain's `mrrContributionCents`). */
    mrrCents: integer('mrr_cents').notNull(),
    movement: text('movement', {
      enum: ['new', 'reactivated', 'churned', 'dunningEntered', 'dunningRecovered'],
    }),
    cause: text('cause', {
      enum: ['cancellation', 'failedDunning', 'chargeback', 'trialCancellation'],
    }),
    /** The cancellation's reason (000 §3) on a churn by cancellation. */
    reason: text('reason'),
    /** On a dunning recovery: when the account entered validating payment. */
    dunningSince: timestamp('dunning_since', { withTimezone: true }),
  },
  (table) => [
    index('account_mrr_history_user_idx').on(table.userId, table.validFrom),
    index('account_mrr_history_from_idx').on(table.validFrom),
    index('account_mrr_history_movement_idx')
      .on(table.validFrom, table.movement)
      .where(sql`movement is not null`),
    // MRR's rows that close inside the quarter hour of "now" (read-mrr.ts, decision 051).
    index('account_mrr_history_to_idx')
      .on(table.validTo)
      .where(sql`valid_to is not null`),
    // Dunning recovery by the month dunning began (get-overview.ts).
    index('account_mrr_history_recovered_idx')
      .on(table.dunningSince)
      .where(sql`movement = 'dunningRecovered'`),
    uniqueIndex('account_mrr_history_open_uq')
      .on(table.userId)
      .where(sql`valid_to is null`),
  ],
);

/**
 * What the approved payments of each business date add up to (R18's gross revenue and revenue by
 * item; docs/decisions/051): `paid` the payments' amounts, `fee` their periods' platform fee,
 * `item` each line of their periods' quotes by its `code`. Rows are changes, written by the
 * migration's triggers in the statement that writes, changes or deletes a payment (or its period's
 * quote), so a date's figure is the sum of its rows at any snapshot; the MRR job merges a date's
 * rows into one, which changes no sum (`compact-rollups.ts`). The overview reads a million
 * payments' revenue from a few thousand rows.
 */
export const revenueRollup = pgTable(
  'revenue_rollup',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    businessDate: date('business_date').notNull(),
    part: text('part', { enum: ['paid', 'fee', 'item'] }).notNull(),
    /** The quote line's code for an `item`; empty otherwise. */
    code: text('code').notNull().default(''),
    cents: bigint('cents', { mode: 'number' }).notNull(),
  },
  (table) => [index('revenue_rollup_date_idx').on(table.businessDate, table.part, table.code)],
);

/**
 * MRR's changes by quarter hour (R18; docs/decisions/051): each `account_mrr_history` row adds its
 * `mrr_cents` at the quarter hour (UTC) of its `valid_from` and takes it back at the quarter hour
 * of its `valid_to`, written by the migration's triggers in the statement that writes the history.
 * MRR at an instant is the sum of the quarter hours before the instant's own, plus the history's
 * rows that open or close inside it; every time zone's midnight is a quarter hour, so a month's end
 * reads only sums. Merged per quarter hour by the MRR job, as the revenue's rows are.
 */
export const mrrRollup = pgTable(
  'mrr_rollup',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    at: timestamp('at', { withTimezone: true }).notNull(),
    cents: bigint('cents', { mode: 'number' }).notNull(),
  },
  (table) => [index('mrr_rollup_at_idx').on(table.at)],
);

/**
 * What each account's payments bought of each item, month by month (the accounts behind a bar of
 * revenue by item or group; docs/decisions/061): one row per account and code (an item's code, or
 * `PLATFORM_FEE`), holding running totals over business months. `first_month` is the business
 * month of element 1 as months since the year 0 (`year × 12 + month − 1`); `cents[i]` and
 * `lines[i]` are what the account's payments dated up to the end of month `first_month + i − 1`
 * paid for the code and how many quote lines of it they had; a month after the last element has
 * the last element's totals. What a range of months added is the total at its last month minus
 * the total before its first: two array reads per account, whatever the range. Kept by the
 * migration's triggers in the statement that writes, changes or deletes a payment or its period's
 * quote, as `revenue_rollup` is; the row of one account is only written with the account's
 * payments, which their writers lock the account for.
 */
export const accountItemTotals = pgTable(
  'account_item_totals',
  {
    userId: uuid('user_id').notNull(),
    code: text('code').notNull(),
    firstMonth: integer('first_month').notNull(),
    cents: bigint('cents', { mode: 'number' }).array().notNull(),
    lines: bigint('lines', { mode: 'number' }).array().notNull(),
  },
  (table) => [primaryKey({ columns: [table.code, table.userId] })],
);

/*
 * Annual payment by check (issue 28; DECISIONS R14; docs/decisions/041).
 */

/**
 * The invoice number counters, one row per prefix and year. An invoice takes its number by
 * incrementing the row inside the transaction that issues it: the row lock makes concurrent
 * issues wait for each other (never one number twice, on any number of instances), and a
 * rolled-back issue rolls the increment back with it (no gap).
 */
export const invoiceCounters = pgTable(
  'invoice_counters',
  {
    prefix: text('prefix').notNull(),
    year: integer('year').notNull(),
    lastNumber: integer('last_number').notNull(),
  },
  (table) => [primaryKey({ columns: [table.prefix, table.year] })],
);

/**
 * An invoice for a year paid by check (R14): a request for payment, outside the balance. What it
 * says (number, lines, amounts, dates, seller and buyer) never changes once issued, a trigger
 * refuses it; only its status moves, from open to paid or void (a correction is a void and a new
 * invoice). At most one open invoice per account (the partial unique index).
 */
export const invoices = pgTable(
  'invoices',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    number: text('number').notNull().unique(),
    /** 'request': the dealer's or staff's; 'renewal': issued 45 days before a period ends. */
    kind: text('kind', { enum: ['request', 'renewal'] }).notNull(),
    status: text('status', { enum: ['open', 'paid', 'void'] })
      .notNull()
      .default('open'),
    issuedOn: date('issued_on').notNull(),
    dueOn: date('due_on').notNull(),
    periodStart: date('period_start').notNull(),
    /** The last day the invoice pays for. */
    periodEnd: date('period_end').notNull(),
    /** The bill date after the period (periodEnd + 1 day): where the next period starts. */
    nextStart: date('next_start').notNull(),
    codes: text('codes').array().notNull(),
    /** The items (× 12) and the platform fee (× 12), before the discount. */
    lines: jsonb('lines').notNull(),
    discountCents: integer('discount_cents').notNull(),
    totalCents: integer('total_cents').notNull(),
    /** The monthly quote at the period's start the amounts come from (R3, R11). */
    quote: jsonb('quote').notNull(),
    /** Seller, buyer and how to pay as printed: the configuration or the address may change later. */
    seller: jsonb('seller').notNull(),
    billTo: jsonb('bill_to').notNull(),
    pdf: bytea('pdf').notNull(),
    voidedOn: date('voided_on'),
    /** 'dealer', 'staff' or 'due date'. */
    voidedBy: text('voided_by'),
    voidReason: text('void_reason'),
    paidOn: date('paid_on'),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('invoices_one_open_uq')
      .on(table.userId)
      .where(sql`status = 'open'`),
    index('invoices_user_idx').on(table.userId, table.issuedOn),
    index('invoices_open_due_idx')
      .on(table.dueOn)
      .where(sql`status = 'open'`),
  ],
);

/**
 * A check received for an invoice (R14): recorded by billing staff with its number, amount and
 * date; its payment and the annual period are written with it. A returned check keeps its row,
 * with when and why it came back; at most one check per invoice stands (not returned).
 */
export const checks = pgTable(
  'checks',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    invoiceId: uuid('invoice_id')
      .notNull()
      .references(() => invoices.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    number: text('number').notNull(),
    amountCents: integer('amount_cents').notNull(),
    receivedOn: date('received_on').notNull(),
    paymentId: uuid('payment_id')
      .notNull()
      .references(() => payments.id),
    billingPeriodId: uuid('billing_period_id')
      .notNull()
      .references(() => billingPeriods.id),
    returnedOn: date('returned_on'),
    returnReason: text('return_reason'),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('checks_standing_uq')
      .on(table.invoiceId)
      .where(sql`returned_on is null`),
    index('checks_user_idx').on(table.userId),
  ],
);

import { index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.ts';

/**
 * The sandboxes' tables (apps/server/src/sandboxes/): the state of the embedded stand-ins for
 * third parties (the payment gateway, Carfax), used only when the configuration chooses a sandbox
 * (DECISIONS R8) and joined with none of the product's tables. Kept apart so a reader sees what
 * the product stores; schema.ts re-exports them, so migrations and the client see one schema.
 */

/*
 * The embedded sandbox payment gateway's own state (DECISIONS R5, docs/decisions/010). It stands
 * in for a third party, so nothing here is joined with our tables. A card is kept as brand, last
 * four digits, expiry (MMYY) and its test behaviour only: never the number, never the CVV.
 */
const CARD_BRANDS = ['amex', 'discover', 'mastercard', 'visa'] as const;
const SANDBOX_BEHAVIOURS = [
  'approved',
  'declined',
  'insufficient_funds',
  'expired_card',
  'processor_error',
] as const;

/** One-time payment tokens from the browser's tokenization call; stored as SHA-256 of the token. */
export const sandboxGatewayTokens = pgTable(
  'sandbox_gateway_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    cardBrand: text('card_brand', { enum: CARD_BRANDS }).notNull(),
    cardLast4: text('card_last4').notNull(),
    cardExpiration: text('card_expiration').notNull(),
    behaviour: text('behaviour', { enum: SANDBOX_BEHAVIOURS }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [index('sandbox_gateway_tokens_expires_idx').on(table.expiresAt)],
);

export const sandboxGatewayCustomers = pgTable('sandbox_gateway_customers', {
  id: text('id').primaryKey(),
  /** Our account id, as a merchant would send it: for looking around in the sandbox only. */
  merchantCustomerId: text('merchant_customer_id').notNull(),
  email: text('email').notNull(),
  createdAt: createdAt(),
});

export const sandboxGatewayPaymentProfiles = pgTable(
  'sandbox_gateway_payment_profiles',
  {
    id: text('id').primaryKey(),
    customerId: text('customer_id')
      .notNull()
      .references(() => sandboxGatewayCustomers.id),
    cardBrand: text('card_brand', { enum: CARD_BRANDS }).notNull(),
    cardLast4: text('card_last4').notNull(),
    cardExpiration: text('card_expiration').notNull(),
    behaviour: text('behaviour', { enum: SANDBOX_BEHAVIOURS }).notNull(),
    createdAt: createdAt(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (table) => [index('sandbox_gateway_payment_profiles_customer_idx').on(table.customerId)],
);

/**
 * Charges and refunds. The idempotency key is unique: a repeated call finds the first row and
 * answers its outcome. `request_hash` tells a repeat from a different request under the same key.
 */
export const sandboxGatewayTransactions = pgTable(
  'sandbox_gateway_transactions',
  {
    id: text('id').primaryKey(),
    idempotencyKey: text('idempotency_key').notNull().unique(),
    requestHash: text('request_hash').notNull(),
    kind: text('kind', { enum: ['charge', 'refund'] }).notNull(),
    status: text('status', { enum: ['approved', 'declined', 'refunded'] }).notNull(),
    declineReason: text('decline_reason', {
      enum: ['declined', 'insufficient_funds', 'expired_card'],
    }),
    amountCents: integer('amount_cents').notNull(),
    paymentProfileId: text('payment_profile_id').references(() => sandboxGatewayPaymentProfiles.id),
    /** For a refund: the charge it refunds. */
    chargeId: text('charge_id'),
    description: text('description').notNull().default(''),
    createdAt: createdAt(),
  },
  (table) => [index('sandbox_gateway_transactions_charge_idx').on(table.chargeId)],
);

/*
 * The embedded Carfax sandbox (DECISIONS R8): an OAuth 2.0 authorization server of its own at
 * /carfax-sandbox. It stands in for a third party, so nothing here is joined with our tables.
 * Codes and tokens are kept as SHA-256 only.
 */

/** Registered clients: the secret's SHA-256 and the exact redirect and post-logout URIs. */
export const carfaxSandboxClients = pgTable('carfax_sandbox_clients', {
  clientId: text('client_id').primaryKey(),
  secretHash: text('secret_hash').notNull(),
  redirectUris: text('redirect_uris').array().notNull(),
  postLogoutRedirectUris: text('post_logout_redirect_uris').array().notNull(),
  createdAt: createdAt(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Authorization codes: single use, 60 seconds, bound to client, redirect URI and PKCE challenge. */
export const carfaxSandboxCodes = pgTable('carfax_sandbox_codes', {
  codeHash: text('code_hash').primaryKey(),
  clientId: text('client_id')
    .notNull()
    .references(() => carfaxSandboxClients.clientId, { onDelete: 'cascade' }),
  subject: text('subject').notNull(),
  redirectUri: text('redirect_uri').notNull(),
  codeChallenge: text('code_challenge').notNull(),
  scope: text('scope').notNull(),
  grantId: text('grant_id').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  consumedAt: timestamp('consumed_at', { withTimezone: true }),
  createdAt: createdAt(),
});

/** Access and refresh tokens; a grant's tokens are revoked together. */
export const carfaxSandboxTokens = pgTable(
  'carfax_sandbox_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    kind: text('kind', { enum: ['access', 'refresh'] }).notNull(),
    clientId: text('client_id')
      .notNull()
      .references(() => carfaxSandboxClients.clientId, { onDelete: 'cascade' }),
    subject: text('subject').notNull(),
    scope: text('scope').notNull(),
    grantId: text('grant_id').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [index('carfax_sandbox_tokens_grant_idx').on(table.grantId)],
);

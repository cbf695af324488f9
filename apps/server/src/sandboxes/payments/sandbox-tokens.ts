import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, lt } from 'drizzle-orm';
import { CARD_MESSAGES } from '@dealerpass/domain/schemas/messages';
import { ZCardFieldsSchema, checkCard } from '@dealerpass/domain/schemas/billing-fields';
import { detectCardType, lastFour } from '@dealerpass/domain/validation/card';
import { normalizeExpiry } from '@dealerpass/domain/validation/expiry';
import type { Database, Transaction } from '../../db/client.ts';
import { sandboxGatewayTokens } from '../../db/sandbox-schema.ts';
import { PaymentGatewayError, type CardSummary } from '../../adapters/payments/payment-gateway.ts';
import { sandboxBehaviourOf, type SandboxBehaviour } from './test-cards.ts';

/** A token is good for 15 minutes and one use, like Accept.js's payment nonce. */
export const SANDBOX_TOKEN_TTL_MS = 15 * 60 * 1000;
const TOKEN_PREFIX = 'sbx_tok_';

/**
 * The tokenization request: our card fields, checked with the domain's rules and texts (000 §5),
 * so the browser can show each message under its field.
 */
export function createSandboxTokenRequestSchema(clock: () => Date) {
  return ZCardFieldsSchema.superRefine((values, ctx) =>
    checkCard(values, ctx, { cvvRequiredMessage: CARD_MESSAGES.cvvRequired, now: clock() }),
  );
}

export interface SandboxCardInput {
  creditCardNumber: string;
  creditCardExpiration: string;
  /** Checked by the request schema and then forgotten. */
  creditCardCode: string;
}

export interface SandboxToken {
  paymentToken: string;
  cardBrand: CardSummary['brand'];
  cardLast4: string;
  creditCardExpiration: string;
  expiresAt: string;
}

/**
 * Issues a one-time token for a card that passed the request schema. Only the token's hash,
 * brand, last four, expiry and test behaviour are stored; the number and CVV end here.
 */
export async function issueSandboxToken(
  db: Database,
  card: SandboxCardInput,
  now: Date,
  ttlMs = SANDBOX_TOKEN_TTL_MS,
): Promise<SandboxToken> {
  const brand = detectCardType(card.creditCardNumber);
  if (!brand) throw new Error('issueSandboxToken needs a card that passed the request schema');
  const paymentToken = `${TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
  const expiresAt = new Date(now.getTime() + ttlMs);
  const summary = {
    cardBrand: brand,
    cardLast4: lastFour(card.creditCardNumber),
    cardExpiration: normalizeExpiry(card.creditCardExpiration),
  };
  await db.insert(sandboxGatewayTokens).values({
    tokenHash: hashToken(paymentToken),
    ...summary,
    behaviour: sandboxBehaviourOf(card.creditCardNumber),
    expiresAt,
  });
  return {
    paymentToken,
    cardBrand: summary.cardBrand,
    cardLast4: summary.cardLast4,
    creditCardExpiration: summary.cardExpiration,
    expiresAt: expiresAt.toISOString(),
  };
}

/** Spends a token inside the caller's transaction: unknown, used or expired tokens are refused. */
export async function redeemSandboxToken(
  tx: Transaction,
  paymentToken: string,
  now: Date,
): Promise<CardSummary & { behaviour: SandboxBehaviour }> {
  const [row] = await tx
    .update(sandboxGatewayTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(sandboxGatewayTokens.tokenHash, hashToken(paymentToken)),
        isNull(sandboxGatewayTokens.usedAt),
        gt(sandboxGatewayTokens.expiresAt, now),
      ),
    )
    .returning();
  if (!row) {
    throw new PaymentGatewayError('invalid_token', 'the payment token is unknown, used or expired');
  }
  return {
    brand: row.cardBrand,
    last4: row.cardLast4,
    expiration: row.cardExpiration,
    behaviour: row.behaviour,
  };
}

/** Expired tokens are of no use to anyone; the background job may delete them. */
export async function purgeExpiredSandboxTokens(db: Database, now: Date): Promise<void> {
  await db.delete(sandboxGatewayTokens).where(lt(sandboxGatewayTokens.expiresAt, now));
}

function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

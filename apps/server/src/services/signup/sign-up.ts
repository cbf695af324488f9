import { createHash, randomUUID } from 'node:crypto';
import { and, eq, lte } from 'drizzle-orm';
import { signupCharges } from '@dealerpass/domain/billing/order-summary';
import {
  normalizePromotionCode,
  promotionProblem,
  type IPromotion,
} from '@dealerpass/domain/billing/promotion';
import { ERROR_CODES, errorMessage } from '@dealerpass/domain/messages';
import { SIGNUP_FAILURE_TEXTS } from '@dealerpass/domain/messages/signup-failure';
import { quote } from '@dealerpass/domain/prices';
import type { TSignupRequest } from '@dealerpass/domain/schemas/signup-request';
import type { Transaction } from '../../db/client.ts';
import { PaymentGatewayError, type ChargeResult } from '../../adapters/payments/payment-gateway.ts';
import type { Database } from '../../db/client.ts';
import { signupAttempts } from '../../db/schema.ts';
import { AppError } from '../../errors/app-error.ts';
import { redeemCaptcha } from '../captcha/redeem-captcha.ts';
import { normalizeIdentityEmail } from '../identity/create-identity.ts';
import { oncePerKey } from '../request-keys/once-per-key.ts';
import { isAlternateEmailTaken, isUserIdTaken } from '../users/is-email-taken.ts';
import { refuseCompanyEmail } from '../users/refuse-company-email.ts';
import { completeAttempt } from './complete-attempt.ts';
import { findPromotion, holdRedemption, releaseRedemption } from './promotions.ts';
import type { AttemptRow, SignupDeps, StoredRequest } from './signup-deps.ts';

/** How long a sign-up owns its e-mail address while its gateway calls run. */
export const SIGNUP_LEASE_MS = 2 * 60 * 1000;

/**
 * `POST /api/v2/signup` and `POST /api/signup` (001 §3, §7; DECISIONS R3–R6; decision 013).
 *
 * One consistent operation in three phases, like the billing run's:
 * 1. one transaction spends the captcha, refuses an e-mail in use, checks the promotion code and
 *    holds one of its redemptions, and claims the e-mail with a `signup_attempts` row that fixes
 *    the account's id and the amount;
 * 2. the gateway: a customer profile from the one-time payment token, then the first charge with
 *    the key `signup:<account id>` (written to the attempt before it is sent);
 * 3. one transaction creates the identity, the account, its subscription, the sign-up period,
 *    the payment with its receipt (the billing run's `recordPayment`), the promotion's
 *    redemption and the verification e-mail, and marks the attempt completed.
 * A decline or a refused card deletes the attempt and gives back the redemption: nothing is left
 * and the user can submit again. A keyed request (`requestKey`, required by `/api/v2/signup`)
 * goes through `oncePerKey` (docs/decisions/031, 045): its key is recorded in phase 3's
 * transaction, so only a sign-up that succeeded holds it; the same request again answers the
 * first result and charges nothing, the key with another body is 409. While the first is still
 * running, a repeat meets its attempt (409 SIGNUP_IN_PROGRESS). A second sign-up for the same
 * e-mail is 409. An attempt whose server died mid-way is finished (its charge re-sent with the
 * same key, which the gateway answers once) or cleared by the next submit for that e-mail after
 * its lease.
 */
export async function signUp(
  deps: SignupDeps,
  input: { request: TSignupRequest & { requestKey?: string }; remoteIp: string },
): Promise<{ email: string }> {
  const { requestKey } = input.request;
  if (requestKey === undefined) return signUpOnce(deps, input, undefined);
  return oncePerKey(
    deps.db,
    // Nobody is signed in yet: the key's owner is the public, its content the whole body.
    { owner: { anonymous: 'signup' }, action: 'signUp', target: {}, body: input.request },
    {
      run: (record) => signUpOnce(deps, input, (tx) => record(tx, { email: input.request.email })),
    },
  );
}

async function signUpOnce(
  deps: SignupDeps,
  input: { request: TSignupRequest & { requestKey?: string }; remoteIp: string },
  recordKey: ((tx: Transaction) => Promise<void>) | undefined,
): Promise<{ email: string }> {
  const { requestKey, ...request } = input.request;
  const email = normalizeIdentityEmail(request.email);
  refuseCompanyEmail(email, deps);
  const { recaptcha: _captcha, ...submitted } = request as TSignupRequest;
  const requestHash = createHash('sha256').update(JSON.stringify(submitted)).digest('base64url');
  const { paymentToken, ...stored } = submitted;

  // Before the captcha: a repeated submit carries a spent one.
  const [existing] = await deps.db
    .select()
    .from(signupAttempts)
    .where(eq(signupAttempts.email, email))
    .limit(1);
  if (existing) {
    const settled =
      existing.status === 'in_progress' && existing.leaseExpiresAt <= deps.now()
        ? await recoverAttempt(deps, existing)
        : existing.status;
    if (settled === 'completed') {
      // A resubmit that finished the address's stalled sign-up has what it asked for.
      if (existing.status === 'in_progress') return { email: request.email };
      throw emailInUse();
    }
    if (settled === 'in_progress') throw new AppError(ERROR_CODES.SIGNUP_IN_PROGRESS);
  }

  const attempt = await openAttempt(deps, {
    request,
    idempotencyKey: requestKey ?? null,
    remoteIp: input.remoteIp,
    email,
    stored,
    requestHash,
  });
  await runAttempt(deps, attempt, paymentToken, recordKey);
  return { email: request.email };
}

async function openAttempt(
  deps: SignupDeps,
  input: {
    request: TSignupRequest;
    idempotencyKey: string | null;
    remoteIp: string;
    email: string;
    stored: StoredRequest;
    requestHash: string;
  },
): Promise<AttemptRow> {
  const now = deps.now();
  const { request } = input;
  return deps.db.transaction(async (tx) => {
    try {
      await redeemCaptcha(tx, deps.captcha, request.recaptcha, input.remoteIp);
    } catch (error) {
      if (error instanceof AppError && error.code === ERROR_CODES.CAPTCHA_FAILED) {
        // 001 §8: the browser shows the recaptchaVerification text (in details, as a 400).
        throw new AppError(ERROR_CODES.CAPTCHA_FAILED, {
          errors: [
            {
              source: 'recaptchaVerification',
              message: errorMessage(ERROR_CODES.CAPTCHA_FAILED),
              details: SIGNUP_FAILURE_TEXTS.recaptchaVerification,
            },
          ],
        });
      }
      throw error;
    }
    if (await isUserIdTaken(tx as unknown as Database, input.email)) throw emailInUse();
    if (
      request.altEmail !== '' &&
      (await isAlternateEmailTaken(tx as unknown as Database, request.altEmail))
    ) {
      // 001 §5: 'Alternate email already in use.'
      const message = errorMessage(ERROR_CODES.ALT_EMAIL_IN_USE);
      throw new AppError(ERROR_CODES.ALT_EMAIL_IN_USE, {
        message,
        errors: [{ source: 'altEmail', message }],
      });
    }

    const hasCard = request.paymentToken !== '';
    const priced = quote(request.subscriptions, now, deps.prices.table());
    let promotion: IPromotion | null = null;
    if (request.promoCode !== '') {
      const code = normalizePromotionCode(request.promoCode);
      promotion = await findPromotion(tx, code, true);
      const problem = promotionProblem(promotion, { now, hasCard, quote: priced });
      if (problem) throw promotionError(problem);
      if (!(await holdRedemption(tx, code))) throw promotionError('PROMO_RETRIES_EXCEEDED');
    }
    // The summary page 4 showed is this computation's (docs/decisions/032).
    const { chargedTodayCents } = signupCharges(
      request.subscriptions,
      promotion,
      now,
      deps.timeZone,
      deps.prices.table(),
    );

    const [row] = await tx
      .insert(signupAttempts)
      .values({
        email: input.email,
        idempotencyKey: input.idempotencyKey,
        requestHash: input.requestHash,
        status: 'in_progress',
        userId: randomUUID(),
        request: input.stored,
        promotionCode: promotion?.code ?? null,
        amountCents: chargedTodayCents,
        leaseExpiresAt: new Date(now.getTime() + SIGNUP_LEASE_MS),
        createdAt: now,
        updatedAt: now,
      })
      .onConflictDoNothing({ target: signupAttempts.email })
      .returning();
    // Another submit for this address got in first (its captcha and promotion hold roll back with us).
    if (!row) throw new AppError(ERROR_CODES.SIGNUP_IN_PROGRESS);
    return row;
  });
}

/**
 * Phases 2 and 3 for an attempt this request owns. `paymentToken` is the submit's own (empty
 * without a card); an attempt resumed after a crash has none, and its card is at the gateway.
 */
async function runAttempt(
  deps: SignupDeps,
  attempt: AttemptRow,
  paymentToken: string,
  recordKey?: (tx: Transaction) => Promise<void>,
): Promise<void> {
  let current = attempt;
  if (paymentToken !== '' && !current.gatewayCustomerId) {
    let profile;
    try {
      profile = await deps.payments.createCustomerProfile({
        accountId: current.userId,
        email: current.email,
        paymentToken,
      });
    } catch (error) {
      await abandonAttempt(deps, current);
      throw cardError(error);
    }
    current = await updateAttempt(deps, current, {
      gatewayCustomerId: profile.customerProfileId,
      gatewayPaymentProfileId: profile.paymentProfileId,
      cardBrand: profile.card.brand,
      cardLast4: profile.card.last4,
      cardExpiration: profile.card.expiration,
    });
  }

  let transactionId: string | null = null;
  if (current.amountCents > 0) {
    if (!current.gatewayCustomerId || !current.gatewayPaymentProfileId) {
      await abandonAttempt(deps, current);
      throw promotionError('PROMO_REQUIRES_CARD');
    }
    if (!current.chargeKey) {
      current = await updateAttempt(deps, current, { chargeKey: `signup:${current.userId}` });
    }
    const outcome = await chargeAttempt(deps, current);
    if (outcome.status === 'uncertain') {
      // Nothing tells us whether money moved: the attempt stays and the next submit after its
      // lease re-sends the same key, which the gateway answers once (docs/decisions/010).
      throw new AppError(ERROR_CODES.SERVICE_UNAVAILABLE);
    }
    if (outcome.status !== 'approved') {
      await abandonAttempt(deps, current);
      throw cardError(null);
    }
    transactionId = outcome.transactionId;
  }

  try {
    await completeAttempt(deps, current, transactionId, recordKey);
  } catch (error) {
    if (transactionId) {
      try {
        await deps.payments.refund({
          transactionId,
          amountCents: current.amountCents,
          idempotencyKey: `refund:signup:${current.userId}`,
        });
      } catch (refundError) {
        // Keep the attempt: the next submit after the lease finishes it with the same charge.
        deps.log.warn({ err: refundError, userId: current.userId }, 'sign-up refund failed');
        throw error;
      }
    }
    await abandonAttempt(deps, current);
    throw error;
  }
}

type ChargeOutcome = ChargeResult | { status: 'failed' } | { status: 'uncertain' };

async function chargeAttempt(deps: SignupDeps, attempt: AttemptRow): Promise<ChargeOutcome> {
  const charge = () =>
    deps.payments.charge({
      customerProfileId: attempt.gatewayCustomerId!,
      paymentProfileId: attempt.gatewayPaymentProfileId!,
      amountCents: attempt.amountCents,
      idempotencyKey: attempt.chargeKey!,
      description: 'DealerPass sign-up: first month',
    });
  for (let tries = 1; ; tries++) {
    try {
      return await charge();
    } catch (error) {
      // A processor error is definite (nothing charged); a lost answer is not.
      if (error instanceof PaymentGatewayError && error.code === 'processor_error') {
        deps.log.warn({ userId: attempt.userId }, 'sign-up charge: processor error');
        return { status: 'failed' };
      }
      if (error instanceof PaymentGatewayError && error.retryable && tries < 3) continue;
      if (error instanceof PaymentGatewayError && !error.retryable) return { status: 'failed' };
      deps.log.warn({ err: error, userId: attempt.userId }, 'sign-up charge outcome unknown');
      return { status: 'uncertain' };
    }
  }
}

/**
 * An attempt left by a server that stopped (its lease ran out): with no charge sent it is
 * cleared; otherwise its charge is re-sent with the same key and it is finished or cleared by
 * the answer. Returns what the attempt is now.
 */
async function recoverAttempt(
  deps: SignupDeps,
  stale: AttemptRow,
): Promise<'completed' | 'cleared' | 'in_progress'> {
  const now = deps.now();
  const [claimed] = await deps.db
    .update(signupAttempts)
    .set({ leaseExpiresAt: new Date(now.getTime() + SIGNUP_LEASE_MS), updatedAt: now })
    .where(
      and(
        eq(signupAttempts.email, stale.email),
        eq(signupAttempts.userId, stale.userId),
        eq(signupAttempts.status, 'in_progress'),
        lte(signupAttempts.leaseExpiresAt, now),
      ),
    )
    .returning();
  if (!claimed) return 'in_progress';
  if (!claimed.chargeKey) {
    await abandonAttempt(deps, claimed);
    return 'cleared';
  }
  try {
    await runAttempt(deps, claimed, '');
    return 'completed';
  } catch (error) {
    if (error instanceof AppError && error.code === ERROR_CODES.SERVICE_UNAVAILABLE) {
      return 'in_progress';
    }
    deps.log.warn({ err: error, userId: claimed.userId }, 'stale sign-up cleared');
    return 'cleared';
  }
}

async function updateAttempt(
  deps: SignupDeps,
  attempt: AttemptRow,
  values: Partial<typeof signupAttempts.$inferInsert>,
): Promise<AttemptRow> {
  const [row] = await deps.db
    .update(signupAttempts)
    .set({ ...values, updatedAt: deps.now() })
    .where(and(eq(signupAttempts.email, attempt.email), eq(signupAttempts.userId, attempt.userId)))
    .returning();
  if (!row) throw new Error('sign-up attempt vanished');
  return row;
}

/** A failed sign-up leaves nothing: the attempt goes, the redemption is given back, the card too. */
async function abandonAttempt(deps: SignupDeps, attempt: AttemptRow): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const removed = await tx
      .delete(signupAttempts)
      .where(
        and(
          eq(signupAttempts.email, attempt.email),
          eq(signupAttempts.userId, attempt.userId),
          eq(signupAttempts.status, 'in_progress'),
        ),
      )
      .returning({ email: signupAttempts.email });
    if (removed.length > 0 && attempt.promotionCode) {
      await releaseRedemption(tx, attempt.promotionCode);
    }
  });
  if (attempt.gatewayCustomerId && attempt.gatewayPaymentProfileId) {
    await deps.payments
      .deletePaymentProfile({
        customerProfileId: attempt.gatewayCustomerId,
        paymentProfileId: attempt.gatewayPaymentProfileId,
      })
      .catch((error: unknown) =>
        deps.log.warn({ err: error, userId: attempt.userId }, 'sign-up card not removed'),
      );
  }
}

function emailInUse(): AppError {
  const message = errorMessage(ERROR_CODES.EMAIL_IN_USE);
  return new AppError(ERROR_CODES.EMAIL_IN_USE, {
    message,
    errors: [{ source: 'email', message }],
  });
}

function promotionError(
  code: 'PROMO_NOT_VALID' | 'PROMO_RETRIES_EXCEEDED' | 'PROMO_REQUIRES_CARD',
): AppError {
  const message = errorMessage(code);
  return new AppError(code, {
    message,
    errors: [{ source: 'promoCode', message, details: message }],
  });
}

/** A refused card or a declined first charge: 'Credit card not valid.' (001 §8). */
function cardError(cause: unknown): AppError {
  const message = errorMessage(ERROR_CODES.CREDIT_CARD_NOT_VALID);
  if (
    cause instanceof PaymentGatewayError &&
    !['invalid_token', 'card_declined', 'card_not_accepted'].includes(cause.code) &&
    cause.retryable
  ) {
    return new AppError(ERROR_CODES.PAYMENT_PROFILE_FAILED, { cause });
  }
  return new AppError(ERROR_CODES.CREDIT_CARD_NOT_VALID, {
    message,
    ...(cause ? { cause } : {}),
    errors: [{ source: 'creditCardNumber', message, details: message }],
  });
}

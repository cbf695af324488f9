import { STATUS_AT_SIGN_UP } from '@dealerpass/domain/account/status-transitions';
import { sameOriginPath } from '@dealerpass/domain/validation/same-origin-path';
import { createHash, randomUUID } from 'node:crypto';
import { and, eq, lte } from 'drizzle-orm';
import type { TSubscriptionCode } from '@dealerpass/domain/catalogue';
import {
  applyPromotion,
  normalizePromotionCode,
  promotionProblem,
  type IPromotion,
} from '@dealerpass/domain/billing/promotion';
import { billDateOfCycle } from '@dealerpass/domain/billing/renewal-calendar';
import { ERROR_CODES, errorMessage, type IMessageVars } from '@dealerpass/domain/messages';
import { SIGNUP_FAILURE_TEXTS } from '@dealerpass/domain/messages/signup-failure';
import { quote, type IQuote } from '@dealerpass/domain/prices';
import type { TSignupRequest } from '@dealerpass/domain/schemas/signup-request';
import { calendarDateIn, toIsoDate } from '@dealerpass/domain/time/calendar-date';
import type { CaptchaVerifier } from '../../adapters/captcha/captcha-verifier.ts';
import { PaymentGatewayError, type ChargeResult } from '../../adapters/payments/payment-gateway.ts';
import type { Database, Transaction } from '../../db/client.ts';
import {
  accountEvents,
  billingPeriods,
  promotionRedemptions,
  signupAttempts,
  signupLeads,
  subscriptions,
  users,
} from '../../db/schema.ts';
import { AppError } from '../../errors/app-error.ts';
import type { BillingDeps } from '../billing/ledger/billing-deps.ts';
import { recordPayment } from '../billing/ledger/record-payment.ts';
import { redeemCaptcha } from '../captcha/redeem-captcha.ts';
import { createIdentity, normalizeIdentityEmail } from '../identity/create-identity.ts';
import { issueIdentityToken } from '../identity/identity-tokens.ts';
import { enqueueMail } from '../mail/enqueue-mail.ts';
import { isAlternateEmailTaken, isUserIdTaken } from '../users/is-email-taken.ts';
import { refuseCompanyEmail } from '../users/refuse-company-email.ts';
import { findPromotion, holdRedemption, releaseRedemption } from './promotions.ts';

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** How long a sign-up owns its e-mail address while its gateway calls run. */
export const SIGNUP_LEASE_MS = 2 * 60 * 1000;
/** The verification link's lifetime (the user sets the first password with it). */
export const VERIFICATION_LINK_TTL_MINUTES = 7 * 24 * 60;
/** The web app's page behind the verification link. */
export const SET_PASSWORD_PATH = '/identity/set-password';
/** Where the user goes after setting the password when forwardTo names no path of ours. */
export const DEFAULT_FORWARD_PATH = '/login?returnTo=%2Faccount';

export interface SignupDeps extends BillingDeps {
  captcha: CaptchaVerifier;
  publicUrl: string;
  companyEmailDomain: string;
  messageVars: IMessageVars;
}

/**
 * What is kept of the request while the sign-up is in flight: no captcha, no card (R5), and not
 * the one-time payment token either. The token is spent in this request or never: an attempt
 * resumed after a crash already has its card at the gateway, or is cleared (issue 13).
 */
type StoredRequest = Omit<TSignupRequest, 'recaptcha' | 'paymentToken'>;
type AttemptRow = typeof signupAttempts.$inferSelect;

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
 * and the user can submit again. A repeat with the same Idempotency-Key answers the first result;
 * a second sign-up for the same e-mail is 409. An attempt whose server died mid-way is finished
 * (its charge re-sent with the same key, which the gateway answers once) or cleared by the next
 * submit for that e-mail after its lease.
 */
export async function signUp(
  deps: SignupDeps,
  input: { request: TSignupRequest; idempotencyKey: string | null; remoteIp: string },
): Promise<{ email: string }> {
  const { request } = input;
  const email = normalizeIdentityEmail(request.email);
  refuseCompanyEmail(email, deps);
  const { recaptcha: _captcha, ...submitted } = request;
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
      const recovered = existing.status === 'in_progress';
      const sameSubmit =
        input.idempotencyKey !== null &&
        existing.idempotencyKey === input.idempotencyKey &&
        existing.requestHash === requestHash;
      if (sameSubmit || recovered) return { email: request.email };
      throw emailInUse();
    }
    if (settled === 'in_progress') throw new AppError(ERROR_CODES.SIGNUP_IN_PROGRESS);
  }

  const attempt = await openAttempt(deps, { ...input, email, stored, requestHash });
  await runAttempt(deps, attempt, paymentToken);
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
    const priced = quote(request.subscriptions, now);
    let promotion: IPromotion | null = null;
    if (request.promoCode !== '') {
      const code = normalizePromotionCode(request.promoCode);
      promotion = await findPromotion(tx, code, true);
      const problem = promotionProblem(promotion, { now, hasCard, quote: priced });
      if (problem) throw promotionError(problem);
      if (!(await holdRedemption(tx, code))) throw promotionError('PROMO_RETRIES_EXCEEDED');
    }
    const effect = applyPromotion(priced, promotion);

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
        amountCents: effect.firstChargeCents,
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
    await completeAttempt(deps, current, transactionId);
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

/** Phase 3: everything of the new account in one transaction. */
async function completeAttempt(
  deps: SignupDeps,
  attempt: AttemptRow,
  transactionId: string | null,
): Promise<void> {
  const request = attempt.request as StoredRequest;
  const now = deps.now();
  const todayDate = calendarDateIn(now, deps.timeZone);
  const today = toIsoDate(todayDate);
  await deps.db.transaction(async (tx) => {
    const [locked] = await tx
      .select()
      .from(signupAttempts)
      .where(
        and(eq(signupAttempts.email, attempt.email), eq(signupAttempts.userId, attempt.userId)),
      )
      .for('update');
    if (!locked) throw new Error('sign-up attempt vanished');
    if (locked.status === 'completed') return;

    const codes = request.subscriptions as TSubscriptionCode[];
    const priced = quote(codes, now);
    const promotion = attempt.promotionCode ? await findPromotion(tx, attempt.promotionCode) : null;
    const effect = applyPromotion(priced, promotion);
    // The amount was fixed in phase 1; a price change since then does not move it.
    const discountCents = priced.totalCents - attempt.amountCents;
    const firstRenewal = toIsoDate(billDateOfCycle(todayDate, effect.coveredMonths));
    const charged: IQuote = {
      ...priced,
      lines:
        discountCents === 0 && !effect.line
          ? priced.lines
          : [
              ...priced.lines,
              {
                code: 'PROMO' as TSubscriptionCode,
                name: effect.line?.name ?? 'Promotion',
                cents: -discountCents,
                listCents: -discountCents,
                free: false,
              },
            ],
      totalCents: attempt.amountCents,
    };

    const identity = await createIdentity(tx, { email: attempt.email, now });
    const userId = attempt.userId;
    const billing = request;
    await tx.insert(users).values({
      id: userId,
      dealerpassUserId: attempt.email,
      karId: identity.id,
      email: request.email.trim(),
      altEmail: request.altEmail || null,
      firstName: request.firstName,
      lastName: request.lastName,
      dealership: request.dealership,
      phone: request.phone,
      phoneCountryCode: request.phoneCountryCode,
      altPhone: request.altPhone || null,
      altPhoneCountryCode: request.altPhoneCountryCode || null,
      auctionAccessId: request.auctionAccessId || null,
      dealershipAuctionAccessId: request.dealershipAuctionAccessId || null,
      address1: request.address1,
      address2: request.address2 || null,
      city: request.city,
      state: request.state,
      zip: request.zip,
      country: request.country,
      ...(attempt.gatewayCustomerId
        ? {
            billingFirstName: billing.billingFirstName,
            billingLastName: billing.billingLastName,
            billingCountry: billing.billingCountry || null,
            billingAddress1: billing.billingAddress1,
            billingAddress2: billing.billingAddress2 || null,
            billingCity: billing.billingCity,
            billingState: billing.billingState,
            billingZip: billing.billingZip,
            cardBrand: attempt.cardBrand,
            cardLast4: attempt.cardLast4,
            cardExpiration: attempt.cardExpiration,
          }
        : {}),
      subscriptions: codes,
      accountStatus: STATUS_AT_SIGN_UP,
      nextBillDate: firstRenewal,
      createdAt: now,
      updatedAt: now,
    });
    await tx.insert(subscriptions).values({
      userId,
      codes,
      cycleAnchor: today,
      currentPeriodStart: today,
      currentPeriodEnd: firstRenewal,
      gatewayCustomerId: attempt.gatewayCustomerId,
      gatewayPaymentProfileId: attempt.gatewayPaymentProfileId,
      updatedAt: now,
    });
    const [period] = await tx
      .insert(billingPeriods)
      .values({
        userId,
        kind: 'signup',
        periodStart: today,
        periodEnd: firstRenewal,
        amountCents: attempt.amountCents,
        quote: charged,
        status: transactionId ? 'due' : 'waived',
        idempotencyKey: attempt.chargeKey ?? `signup:${userId}:waived`,
        settledAt: transactionId ? null : now,
        createdAt: now,
      })
      .returning({ id: billingPeriods.id });
    if (!period) throw new Error('sign-up period insert returned no row');
    await tx.insert(accountEvents).values({
      userId,
      event: 'signed up',
      fromStatus: null,
      toStatus: STATUS_AT_SIGN_UP,
      actor: 'user',
      at: now,
      details: { promotionCode: attempt.promotionCode, amountCents: attempt.amountCents },
    });
    if (transactionId) {
      // The billing run's own record: payment row, stored receipt, period paid, receipt e-mail.
      await recordPayment(
        tx,
        deps,
        {
          userId,
          periodId: period.id,
          idempotencyKey: attempt.chargeKey!,
          amountCents: attempt.amountCents,
          customerProfileId: attempt.gatewayCustomerId!,
          paymentProfileId: attempt.gatewayPaymentProfileId!,
        },
        transactionId,
        now,
      );
    }
    if (attempt.promotionCode) {
      await tx.insert(promotionRedemptions).values({
        code: attempt.promotionCode,
        userId,
        discountCents,
        redeemedAt: now,
      });
    }
    // Lead ids are UUIDs; anything else names no lead (and must not fail the transaction).
    if (request.leadID && UUID_PATTERN.test(request.leadID)) {
      await tx
        .update(signupLeads)
        .set({ convertedUserId: userId, updatedAt: now })
        .where(eq(signupLeads.id, request.leadID));
    }
    await sendVerificationMail(tx, deps, {
      identityId: identity.id,
      email: request.email.trim(),
      firstName: request.firstName,
      forwardTo: request.forwardTo,
      now,
    });
    await tx
      .update(signupAttempts)
      .set({ status: 'completed', updatedAt: now })
      .where(eq(signupAttempts.email, attempt.email));
  });
}

/** The verification e-mail (DECISIONS R6): its link sets the password, then signs in at forwardTo. */
async function sendVerificationMail(
  tx: Transaction,
  deps: SignupDeps,
  input: { identityId: string; email: string; firstName: string; forwardTo: string; now: Date },
): Promise<void> {
  const token = await issueIdentityToken(tx, {
    identityId: input.identityId,
    purpose: 'set-password',
    now: input.now,
    ttlMinutes: VERIFICATION_LINK_TTL_MINUTES,
  });
  const forwardPath = forwardPathOf(input.forwardTo, deps.publicUrl);
  const link = `${deps.publicUrl}${SET_PASSWORD_PATH}?token=${token}&forwardTo=${encodeURIComponent(forwardPath)}`;
  const company = deps.company.name;
  await enqueueMail(
    tx,
    {
      to: input.email,
      subject: `Verify your e-mail and set your ${company} password`,
      text: [
        `Hello ${input.firstName},`,
        '',
        `Welcome to ${company}. To verify your e-mail address and choose the password of your ${company} ID, open this link within 7 days:`,
        link,
        '',
        'After setting your password you can sign in and use your account.',
        '',
        `Questions? Call ${deps.company.supportPhone}.`,
      ].join('\n'),
    },
    deps.mailKind,
  );
}

/** forwardTo is an origin plus a login path (001 §3); only a path of our own origin is kept. */
export function forwardPathOf(forwardTo: string, publicUrl: string): string {
  return sameOriginPath(forwardTo, new URL(publicUrl).origin) ?? DEFAULT_FORWARD_PATH;
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

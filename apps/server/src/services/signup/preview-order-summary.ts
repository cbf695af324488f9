import {
  orderSummaryOf,
  signupCharges,
  type ISignupOrderSummary,
} from '@dealerpass/domain/billing/order-summary';
import { normalizePromotionCode, promotionProblem } from '@dealerpass/domain/billing/promotion';
import { errorMessage } from '@dealerpass/domain/messages';
import { quote } from '@dealerpass/domain/prices';
import type { TSignupOrderSummaryRequest } from '@dealerpass/domain/schemas/signup-order-summary';
import type { BillingDeps } from '../billing/ledger/billing-deps.ts';
import { findPromotion } from './promotions.ts';

/**
 * Page 4's Order Summary (001 §2; DECISIONS R4, R11; docs/decisions/032): what the sign-up would
 * charge today, and the date and amount of its next charge, from the domain's `signupCharges`,
 * the computation the sign-up itself charges by. Reads only: the promotion is looked at, not
 * held. A code that cannot be used is named with 001 §8's text and the summary is without it;
 * whether a card is needed is the sign-up's to say, once the card is given.
 */
export async function previewOrderSummary(
  deps: Pick<BillingDeps, 'db' | 'now' | 'timeZone' | 'prices'>,
  request: TSignupOrderSummaryRequest,
): Promise<ISignupOrderSummary> {
  const now = deps.now();
  const table = deps.prices.table();
  const codes = request.subscriptions;
  let promotion = null;
  let problem: string | null = null;
  if (request.promoCode !== '') {
    const found = await findPromotion(deps.db, normalizePromotionCode(request.promoCode));
    const refusal = promotionProblem(found, {
      now,
      hasCard: true,
      quote: quote(codes, now, table),
    });
    if (refusal) problem = errorMessage(refusal);
    else promotion = found;
  }
  const charges = signupCharges(codes, promotion, now, deps.timeZone, table);
  return orderSummaryOf(charges, { code: promotion?.code ?? null, problem });
}

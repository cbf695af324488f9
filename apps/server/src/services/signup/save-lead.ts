import { and, eq, isNull } from 'drizzle-orm';
import { ERROR_CODES } from '@dealerpass/domain/messages';
import type { TSignupLeadRequest } from '@dealerpass/domain/schemas/signup-lead';
import type {
  TSignupStep1SaveRequest,
  TSignupStep2SaveRequest,
} from '@dealerpass/domain/schemas/signup-progress';
import type { CaptchaVerifier } from '../../adapters/captcha/captcha-verifier.ts';
import type { Database } from '../../db/client.ts';
import { signupLeads } from '../../db/schema.ts';
import { AppError } from '../../errors/app-error.ts';
import { redeemCaptcha } from '../captcha/redeem-captcha.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * `POST /api/signup/contact` (001 §3, §7): spends the lead form's captcha and stores the lead in
 * one transaction. A `leadID` of an open lead updates that lead instead of starting another.
 */
export async function createLead(
  deps: { db: Database; captcha: CaptchaVerifier },
  request: TSignupLeadRequest,
  remoteIp: string,
  now: Date,
): Promise<{ id: string }> {
  return deps.db.transaction(async (tx) => {
    await redeemCaptcha(tx, deps.captcha, request.recaptcha, remoteIp);
    const values = {
      firstName: request.firstName,
      lastName: request.lastName,
      email: request.email,
      phone: request.phone,
      dealershipName: request.dealershipName,
      termAndCondition: request.termAndCondition,
      updatedAt: now,
    };
    if (request.leadID && UUID.test(request.leadID)) {
      const [updated] = await tx
        .update(signupLeads)
        .set(values)
        .where(and(eq(signupLeads.id, request.leadID), isNull(signupLeads.convertedUserId)))
        .returning({ id: signupLeads.id });
      if (updated) return updated;
    }
    const [row] = await tx
      .insert(signupLeads)
      .values({ ...values, createdAt: now })
      .returning({ id: signupLeads.id });
    if (!row) throw new Error('lead insert returned no row');
    return row;
  });
}

/**
 * `PATCH /api/signup/detail/update/{leadID}/{1|2}` (001 §3, §7): a partial save. Only an open
 * lead can be saved; an unknown (or already converted) lead is 404.
 */
export async function saveLeadProgress(
  db: Database,
  leadId: string,
  save: { step: '1'; body: TSignupStep1SaveRequest } | { step: '2'; body: TSignupStep2SaveRequest },
  now: Date,
): Promise<{ id: string }> {
  if (!UUID.test(leadId)) throw new AppError(ERROR_CODES.NOT_FOUND);
  const { body } = save;
  const common = {
    firstName: body.firstName,
    lastName: body.lastName,
    email: body.email,
    phone: body.phone,
    dealershipName: body.dealershipName,
    termAndCondition: body.termAndCondition,
    subscriptionSelection: body.subscriptionSelection,
    step: Number(save.step),
    updatedAt: now,
  };
  const address =
    save.step === '2'
      ? {
          dealershipAddress1: save.body.dealershipAddress1,
          dealershipAddress2: save.body.dealershipAddress2,
          dealershipCountry: save.body.dealershipCountry,
          dealershipState: save.body.dealershipState,
          dealershipCity: save.body.dealershipCity,
          dealershipPostalCode: save.body.dealershipPostalCode,
          userAuctionAccessId: save.body.userAuctionAccessId,
          dealershipAuctionAccessId: save.body.dealershipAuctionAccessId,
        }
      : {};
  const [row] = await db
    .update(signupLeads)
    .set({ ...common, ...address })
    .where(and(eq(signupLeads.id, leadId), isNull(signupLeads.convertedUserId)))
    .returning({ id: signupLeads.id });
  if (!row) throw new AppError(ERROR_CODES.NOT_FOUND);
  return row;
}

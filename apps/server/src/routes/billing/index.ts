import { z } from 'zod';
import type { FastifyError, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ACCOUNT_ROUTES } from '@dealerpass/domain/account/account-routes';
import { ERROR_CODES, errorMessage } from '@dealerpass/domain/messages';
import { ZCancelSubscriptionRequestSchema } from '@dealerpass/domain/schemas/cancellation';
import {
  billingFromAccount,
  createPaymentProfileRequestSchema,
  createReactivateRequestSchema,
} from '@dealerpass/domain/schemas/billing-form';
import { AppError } from '../../errors/app-error.ts';
import { toFieldErrors } from '../../errors/field-errors.ts';
import {
  removePaymentProfile,
  updatePaymentProfile,
} from '../../services/billing/payment-profile.ts';
import { cancelSubscription } from '../../services/billing/cancel-subscription.ts';
import { reactivate } from '../../services/billing/reactivate.ts';
import { refuseRawCardData } from '../../services/billing/raw-card-guard.ts';
import { getUserRow } from '../../services/users/get-user-row.ts';
import {
  businessToday,
  ZCurrentUserSchema,
  serializeUser,
} from '../../services/users/serialize-user.ts';
import { sessionOf } from '../../plugins/session.ts';

const ZUserResponseSchema = z.object({ data: ZCurrentUserSchema });

/** 000 §4: an inactive account's Billing only reactivates; its card is changed by reactivating. */
const CARD_WRITE = { page: ACCOUNT_ROUTES.billing, activeOnly: true } as const;

/**
 * The billing API (000 §7, DECISIONS R4, R5): the card on file, cancellation and reactivation.
 * Signed-in, own record only (no route takes a user id), each route's account page decides who
 * may call it (route-access.ts: blocked 403, inactive 403 where the page says so), and
 * every write body is checked for raw card data before it is validated (R5). Each answers the
 * user as `GET /api/users/current` does, for the web app's refetch.
 */
const billingRoutes: FastifyPluginAsyncZod = async (app) => {
  /** R5 first; then the same-address box (000 §7): billing values from the account's address. */
  async function prepareBody(request: FastifyRequest) {
    refuseRawCardData(request.body);
    const body = request.body as Record<string, unknown> | null | undefined;
    if (body && typeof body === 'object' && body.sameAddresses === true) {
      const user = await getUserRow(app.db, sessionOf(request).userId);
      request.body = { ...body, ...billingFromAccount(user) };
    }
  }

  const sent = () => void app.mail.kick().catch(() => undefined);

  app.put(
    '/api/users/paymentProfile',
    {
      config: { access: CARD_WRITE },
      preValidation: prepareBody,
      bodyLimit: 16 * 1024,
      schema: {
        operationId: 'updatePaymentProfile',
        summary: 'Store a new card (a payment token from the gateway, never the card number)',
        tags: ['Billing'],
        // 502: the gateway refused to store the card (PAYMENT_PROFILE_FAILED).
        errors: [502],
        body: createPaymentProfileRequestSchema(app.now),
        response: { 200: ZUserResponseSchema },
      },
    },
    async (request) => {
      const row = await updatePaymentProfile(
        app.deps.billing,
        sessionOf(request).userId,
        request.body,
      );
      sent();
      return { data: serializeUser(row, businessToday(app)) };
    },
  );

  app.delete(
    '/api/users/paymentProfile',
    {
      config: { access: CARD_WRITE },
      preValidation: prepareBody,
      schema: {
        operationId: 'deletePaymentProfile',
        summary: 'Remove the card on file',
        tags: ['Billing'],
        errors: [502],
        response: { 200: ZUserResponseSchema },
      },
    },
    async (request) => ({
      data: serializeUser(
        await removePaymentProfile(app.deps.billing, sessionOf(request).userId),
        businessToday(app),
      ),
    }),
  );

  app.patch(
    '/api/users/cancel',
    {
      config: { access: { page: ACCOUNT_ROUTES.cancel } },
      preValidation: prepareBody,
      bodyLimit: 8 * 1024,
      schema: {
        operationId: 'cancelSubscription',
        summary: 'Cancel the subscription (a reason, and the cancellation survey)',
        tags: ['Billing'],
        body: ZCancelSubscriptionRequestSchema,
        response: { 200: ZUserResponseSchema },
      },
      // 000 §8: invalid reason option, reason size, request object → the cancellation text.
      errorHandler: validationAs(ERROR_CODES.CANCEL_ACCOUNT_FAILED),
    },
    async (request) => {
      const row = await cancelSubscription(
        app.deps.billing,
        sessionOf(request).userId,
        request.body,
      );
      request.log.info({ status: row.accountStatus }, 'subscription cancelled');
      sent();
      return { data: serializeUser(row, businessToday(app)) };
    },
  );

  app.put(
    '/api/users/reactivate',
    {
      config: { access: { page: ACCOUNT_ROUTES.billing } },
      preValidation: prepareBody,
      bodyLimit: 16 * 1024,
      schema: {
        operationId: 'reactivateAccount',
        summary: 'Reactivate an inactive account with a card (charged at once)',
        tags: ['Billing'],
        // 402: the charge was declined (REACTIVATION_FAILED); 502: the card could not be stored.
        errors: [402, 502],
        body: createReactivateRequestSchema(app.now),
        response: { 200: ZUserResponseSchema },
      },
    },
    async (request) => {
      const row = await reactivate(app.deps.billing, sessionOf(request).userId, request.body);
      request.log.info({ status: row.accountStatus }, 'account reactivated');
      sent();
      return { data: serializeUser(row, businessToday(app)) };
    },
  );
};

/** Used by routes whose validation failures answer one catalogue text (cancel: 000 §8). */
export function validationAs(code: (typeof ERROR_CODES)[keyof typeof ERROR_CODES]) {
  return (error: FastifyError) => {
    if (!hasZodFastifySchemaValidationErrors(error)) throw error;
    throw new AppError(code, { errors: toFieldErrors(error.validation, errorMessage(code)) });
  };
}

export default billingRoutes;

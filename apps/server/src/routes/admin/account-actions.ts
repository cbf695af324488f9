import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZSubscriptionChangePreviewQuerySchema } from '@dealerpass/domain/schemas/subscription-change';
import {
  ZAdjustSubscriptionPreviewSchema,
  ZAdjustSubscriptionRequestSchema,
  ZAdjustSubscriptionResultSchema,
  ZBalanceAdjustmentRequestSchema,
  ZBlockAccountRequestSchema,
  ZChargebackRequestSchema,
  ZComplimentaryRequestSchema,
  ZRefundPaymentRequestSchema,
  ZRefundResultSchema,
  ZRetryRenewalResultSchema,
  ZStaffActionRequestSchema,
  ZStaffActionResultSchema,
} from '@dealerpass/domain/admin/account-actions';
import { STAFF_ACTIONS, type TStaffAction } from '@dealerpass/domain/admin/roles';
import { staffOf } from '../../plugins/staff-session.ts';
import { adjustBalance } from '../../services/admin/accounts/adjust-balance.ts';
import {
  adjustSubscription,
  previewAdjustment,
} from '../../services/admin/accounts/adjust-subscription.ts';
import { setAccountBlocked } from '../../services/admin/accounts/block-account.ts';
import { endAccountSessions } from '../../services/admin/accounts/end-account-sessions.ts';
import { recordStaffChargeback } from '../../services/admin/refunds-and-chargebacks/record-staff-chargeback.ts';
import { refundPayment } from '../../services/admin/refunds-and-chargebacks/refund-payment.ts';
import { resendVerification } from '../../services/admin/accounts/resend-verification.ts';
import { retryRenewal } from '../../services/admin/accounts/retry-renewal.ts';
import { setComplimentary } from '../../services/admin/accounts/set-complimentary.ts';

const ACCOUNT = '/api/admin/accounts/:userId';
const ZAccountParamsSchema = z.strictObject({ userId: z.uuid() });
const ZPaymentParamsSchema = z.strictObject({ userId: z.uuid(), paymentId: z.uuid() });
const ACTION_RESULT = { 200: z.object({ data: ZStaffActionResultSchema }) };

/** Who may call the route: the least role of the action (R12's table in the domain). */
const accessFor = (action: TStaffAction) => ({ access: { staff: STAFF_ACTIONS[action] } });

/**
 * The operator console's account actions (DECISIONS R12, docs/decisions/026): support's
 * (verification e-mail, sessions, block and unblock) and billing's (complimentary, refunds,
 * chargebacks, a renewal retried now, balance credits and charges). Every route checks the role
 * on the server (route-access.ts), takes a `requestKey` (a repeat answers the first result and
 * acts no second time; the key with another account, payment or body is 409, decision 031) and
 * answers `{ data: { auditId, … } }`; every action writes its
 * append-only audit row in the transaction of its change.
 */
const adminActionRoutes: FastifyPluginAsyncZod = async (app) => {
  const sent = () => void app.mail.kick().catch(() => undefined);
  const actor = (request: FastifyRequest) => {
    const staff = staffOf(request);
    return { staffId: staff.staffId, email: staff.email };
  };
  const common = (request: FastifyRequest, body: { requestKey: string; reason?: string }) => ({
    actor: actor(request),
    requestKey: body.requestKey,
    reason: body.reason ?? null,
    now: app.now(),
    // What the key records (docs/decisions/031): the same key with another target or body is 409.
    sent: { params: request.params as Record<string, string>, body },
  });

  app.post(
    `${ACCOUNT}/resend-verification`,
    {
      config: accessFor('resendVerification'),
      bodyLimit: 2048,
      schema: {
        operationId: 'resendVerificationMail',
        summary: 'Send the verification (set-password) e-mail of the account’s DealerPass ID again',
        tags: ['Admin'],
        // 404: no such account; 409: nothing to verify (ACTION_NOT_ALLOWED).
        errors: [404, 409],
        params: ZAccountParamsSchema,
        body: ZStaffActionRequestSchema,
        response: ACTION_RESULT,
      },
    },
    async (request) => {
      const data = await resendVerification(app.deps.signup, {
        ...common(request, request.body),
        userId: request.params.userId,
      });
      sent();
      return { data };
    },
  );

  app.post(
    `${ACCOUNT}/end-sessions`,
    {
      config: accessFor('endSessions'),
      bodyLimit: 2048,
      schema: {
        operationId: 'endAccountSessions',
        summary: 'End every session of the account: its next call gets 403 invalidToken',
        tags: ['Admin'],
        errors: [404, 409],
        params: ZAccountParamsSchema,
        body: ZStaffActionRequestSchema,
        response: ACTION_RESULT,
      },
    },
    async (request) => {
      const { result, endedTokens } = await endAccountSessions(app.db, {
        ...common(request, request.body),
        userId: request.params.userId,
        encryptionKey: app.keys.encryption,
      });
      // As at sign-out: the ended sessions' provider tokens are revoked, best effort.
      for (const tokens of endedTokens) {
        await app.identity.rp
          .revoke(tokens)
          .catch((error: unknown) =>
            request.log.warn({ err: error }, 'revoking a session ended by staff failed'),
          );
      }
      return { data: result };
    },
  );

  for (const blocked of [true, false]) {
    app.post(
      `${ACCOUNT}/${blocked ? 'block' : 'unblock'}`,
      {
        config: accessFor(blocked ? 'block' : 'unblock'),
        bodyLimit: 4096,
        schema: {
          operationId: blocked ? 'blockAccount' : 'unblockAccount',
          summary: blocked
            ? 'Block the account, with a reason'
            : 'Unblock the account (it becomes active), with a reason',
          tags: ['Admin'],
          // 409: the state machine refuses it, or the account is blocked already.
          errors: [404, 409],
          params: ZAccountParamsSchema,
          body: ZBlockAccountRequestSchema,
          response: ACTION_RESULT,
        },
      },
      async (request) => ({
        data: await setAccountBlocked(
          app.db,
          {
            ...common(request, request.body),
            reason: request.body.reason,
            userId: request.params.userId,
          },
          blocked,
        ),
      }),
    );
  }

  app.post(
    `${ACCOUNT}/complimentary`,
    {
      config: accessFor('complimentaryOn'),
      bodyLimit: 4096,
      schema: {
        operationId: 'setComplimentary',
        summary: 'Complimentary on (an active account is not charged) or off',
        tags: ['Admin'],
        // 409: already so, or (on) the account is not active.
        errors: [404, 409],
        params: ZAccountParamsSchema,
        body: ZComplimentaryRequestSchema,
        response: ACTION_RESULT,
      },
    },
    async (request) => ({
      data: await setComplimentary(
        app.db,
        { ...common(request, request.body), userId: request.params.userId },
        request.body.on,
      ),
    }),
  );

  app.post(
    `${ACCOUNT}/payments/:paymentId/refund`,
    {
      config: accessFor('refund'),
      bodyLimit: 4096,
      schema: {
        operationId: 'refundPayment',
        summary: 'Refund a payment fully or partly through the gateway, exactly once per request',
        tags: ['Admin'],
        // 404: no such payment of the account; 409: more than is left to refund
        // (REFUND_NOT_ALLOWED) or the same request is in flight (ACTION_IN_PROGRESS); 502: the
        // gateway refused it (REFUND_FAILED), nothing was refunded.
        errors: [404, 409, 502],
        params: ZPaymentParamsSchema,
        body: ZRefundPaymentRequestSchema,
        response: { 200: z.object({ data: ZRefundResultSchema }) },
      },
    },
    async (request) => {
      const data = await refundPayment(app.deps.billing, {
        ...common(request, request.body),
        reason: request.body.reason,
        userId: request.params.userId,
        paymentId: request.params.paymentId,
        amountCents: request.body.amountCents,
      });
      sent();
      return { data };
    },
  );

  app.post(
    `${ACCOUNT}/payments/:paymentId/chargeback`,
    {
      config: accessFor('chargeback'),
      bodyLimit: 4096,
      schema: {
        operationId: 'recordChargeback',
        summary:
          'Record a chargeback of what is not refunded of a payment: the fee on the balance, the account inactive',
        tags: ['Admin'],
        // 409: this payment's chargeback is recorded already (ACTION_NOT_ALLOWED), it was
        // refunded in full (CHARGEBACK_REFUNDED_IN_FULL, R15: contest the dispute with the
        // refund), or a refund of it is still at the gateway (ACTION_IN_PROGRESS).
        errors: [404, 409],
        params: ZPaymentParamsSchema,
        body: ZChargebackRequestSchema,
        response: ACTION_RESULT,
      },
    },
    async (request) => ({
      data: await recordStaffChargeback(app.db, {
        ...common(request, request.body),
        userId: request.params.userId,
        paymentId: request.params.paymentId,
      }),
    }),
  );

  app.post(
    `${ACCOUNT}/retry-renewal`,
    {
      config: accessFor('retryRenewal'),
      bodyLimit: 2048,
      schema: {
        operationId: 'retryRenewal',
        summary: 'Retry a failed renewal now: one attempt outside R4’s schedule (R16)',
        description:
          'Answers 200 with what the gateway made of the charge: `outcome` is `paid` (the ' +
          'account is paid, as with a new card), `declined` (with `declineReason`; the account ' +
          'stays validating payment, its next scheduled retry and attempts left unchanged) or ' +
          '`pending` (the gateway did not answer; the same charge goes again at the scheduled ' +
          'retry under the same key).',
        tags: ['Admin'],
        // 409: not validating payment or no card (ACTION_NOT_ALLOWED), or its charge is in
        // flight (ACTION_IN_PROGRESS).
        errors: [404, 409],
        params: ZAccountParamsSchema,
        body: ZStaffActionRequestSchema,
        response: { 200: z.object({ data: ZRetryRenewalResultSchema }) },
      },
    },
    async (request) => {
      const data = await retryRenewal(app.deps.billing, {
        ...common(request, request.body),
        userId: request.params.userId,
      });
      sent();
      return { data };
    },
  );

  app.get(
    `${ACCOUNT}/subscription-change`,
    {
      config: accessFor('adjustSubscription'),
      schema: {
        operationId: 'previewAccountSubscriptionChange',
        summary:
          'Preview a change of the dealer’s subscriptions made on their behalf: the dealer’s own preview (R10)',
        tags: ['Admin'],
        // 404: no such account; 409: its status allows no change, or not this one
        // (ACTION_NOT_ALLOWED).
        errors: [404, 409],
        params: ZAccountParamsSchema,
        querystring: ZSubscriptionChangePreviewQuerySchema,
        response: { 200: z.object({ data: ZAdjustSubscriptionPreviewSchema }) },
      },
    },
    async (request) => ({
      data: await previewAdjustment(app.deps.billing, request.params.userId, request.query.codes),
    }),
  );

  app.post(
    `${ACCOUNT}/subscription-change`,
    {
      config: accessFor('adjustSubscription'),
      bodyLimit: 4096,
      schema: {
        operationId: 'changeAccountSubscriptions',
        summary:
          'Change the dealer’s subscriptions on their behalf (“Adjust”): the dealer’s rules (R10), charged to the card on file, with a reason',
        description:
          'Answers 200 with what happened: `outcome` is `applied` (nothing to charge: a removal ' +
          'waiting for the next bill date, an addition two paid items make free, or a ' +
          'complimentary account), `charged` (the prorated addition was paid by the card on ' +
          'file; the dealer is e-mailed the receipt), `declined` (with `declineReason`; nothing ' +
          'changed) or `pending` (the gateway did not answer; the same request again finishes ' +
          'it, charging once at most). 402 CHANGE_CARD_REQUIRED: the change is charged today and ' +
          'there is no card on file. 409: the selection changed since `basedOn` ' +
          '(CHANGE_SELECTION_STALE), another change is being charged (CHANGE_IN_PROGRESS), or the ' +
          'account’s status allows no change or not this one (ACTION_NOT_ALLOWED).',
        tags: ['Admin'],
        errors: [402, 404, 409],
        params: ZAccountParamsSchema,
        body: ZAdjustSubscriptionRequestSchema,
        response: { 200: z.object({ data: ZAdjustSubscriptionResultSchema }) },
      },
    },
    async (request) => {
      const data = await adjustSubscription(app.deps.billing, {
        ...common(request, request.body),
        reason: request.body.reason,
        userId: request.params.userId,
        codes: request.body.codes,
        basedOn: request.body.basedOn,
      });
      sent();
      return { data };
    },
  );

  app.post(
    `${ACCOUNT}/balance-adjustments`,
    {
      config: accessFor('balanceAdjustment'),
      bodyLimit: 4096,
      schema: {
        operationId: 'adjustBalance',
        summary: 'Add a credit or a charge to the account’s balance, with a reason',
        tags: ['Admin'],
        errors: [404, 409],
        params: ZAccountParamsSchema,
        body: ZBalanceAdjustmentRequestSchema,
        response: ACTION_RESULT,
      },
    },
    async (request) => ({
      data: await adjustBalance(app.db, {
        ...common(request, request.body),
        userId: request.params.userId,
        kind: request.body.kind,
        amountCents: request.body.amountCents,
        reason: request.body.reason,
      }),
    }),
  );
};

export default adminActionRoutes;

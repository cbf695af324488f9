import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ACCOUNT_ROUTES } from '@dealerpass/domain/account/account-routes';
import { z } from 'zod';
import {
  ZSubscriptionChangePreviewQuerySchema,
  ZSubscriptionChangePreviewSchema,
  ZSubscriptionChangeRequestSchema,
  ZSubscriptionChangeResultSchema,
  ZSubscriptionSelectionStateSchema,
  ZUndoRemovalRequestSchema,
} from '@dealerpass/domain/schemas/subscription-change';
import {
  changeSubscription,
  previewSubscriptionChange,
} from '../../services/billing/change-subscription.ts';
import {
  getPendingRemovals,
  undoPendingRemoval,
} from '../../services/billing/changes/pending-removals.ts';
import { sessionOf } from '../../plugins/session.ts';

/** The change page's calls: an inactive account reactivates first (R10), so they are active-only. */
const CHANGE_PAGE = { page: ACCOUNT_ROUTES.subscriptionsChange, activeOnly: true } as const;
/** Undo is offered on the Subscriptions page. */
const SUBSCRIPTIONS_PAGE = { page: ACCOUNT_ROUTES.subscriptions, activeOnly: true } as const;

/**
 * Subscription changes (DECISIONS R10, docs/decisions/024): a preview computed by the server, the
 * change itself (once per idempotency key), and undoing a pending removal. Own account only: no
 * route takes a user id. Which statuses may change what is the service's rule (R10): validating
 * payment removes only; pending cancel and complimentary accounts are refused.
 */
const subscriptionRoutes: FastifyPluginAsyncZod = async (app) => {
  const sent = () => void app.mail.kick().catch(() => undefined);

  app.get(
    '/api/users/subscriptions/change',
    {
      config: { access: CHANGE_PAGE },
      schema: {
        operationId: 'previewSubscriptionChange',
        summary: 'Preview a change of the subscriptions: today’s prorated charge and the next bill',
        tags: ['Subscriptions'],
        // 403: the account's status allows no change, or this one (CHANGE_NOT_ALLOWED).
        errors: [403],
        querystring: ZSubscriptionChangePreviewQuerySchema,
        response: { 200: z.object({ data: ZSubscriptionChangePreviewSchema }) },
      },
    },
    async (request) => ({
      data: await previewSubscriptionChange(
        app.deps.billing,
        sessionOf(request).userId,
        request.query.codes,
      ),
    }),
  );

  app.post(
    '/api/users/subscriptions/change',
    {
      config: { access: CHANGE_PAGE },
      bodyLimit: 4 * 1024,
      schema: {
        operationId: 'changeSubscriptions',
        summary:
          'Change the subscriptions: additions charged at once (prorated), removals at the bill date',
        description:
          '`basedOn` is the selection the page showed (`current.codes` and the pending removals of `GET …/pendingRemovals`). When the account’s selection is no longer that one, another window changed it: 409 `CHANGE_SELECTION_STALE`, nothing charged or changed. With no card on file, a change that charges today is 402 `CHANGE_CARD_REQUIRED`.',
        tags: ['Subscriptions'],
        // 402: the prorated charge was declined (CHANGE_DECLINED) or there is no card on file to
        // charge (CHANGE_CARD_REQUIRED), nothing changed; 403: not allowed in this status; 409:
        // another change's charge is in flight (CHANGE_IN_PROGRESS), or the selection changed
        // since the page's `basedOn` (CHANGE_SELECTION_STALE: another window), nothing changed.
        errors: [402, 403, 409],
        body: ZSubscriptionChangeRequestSchema,
        response: { 200: z.object({ data: ZSubscriptionChangeResultSchema }) },
      },
    },
    async (request) => {
      const result = await changeSubscription(
        app.deps.billing,
        sessionOf(request).userId,
        request.body,
      );
      sent();
      return { data: result };
    },
  );

  app.get(
    '/api/users/subscriptions/pendingRemovals',
    {
      config: { access: SUBSCRIPTIONS_PAGE },
      schema: {
        operationId: 'getPendingRemovals',
        summary: 'The subscriptions in force and the removals waiting for the next bill date',
        tags: ['Subscriptions'],
        response: { 200: z.object({ data: ZSubscriptionSelectionStateSchema }) },
      },
    },
    async (request) => ({ data: await getPendingRemovals(app.db, sessionOf(request).userId) }),
  );

  app.post(
    '/api/users/subscriptions/pendingRemovals/undo',
    {
      config: { access: SUBSCRIPTIONS_PAGE },
      bodyLimit: 1024,
      schema: {
        operationId: 'undoPendingRemoval',
        summary: 'Undo a pending removal: the subscription keeps running after the bill date',
        tags: ['Subscriptions'],
        errors: [403],
        body: ZUndoRemovalRequestSchema,
        response: { 200: z.object({ data: ZSubscriptionChangePreviewSchema }) },
      },
    },
    async (request) => ({
      data: await undoPendingRemoval(
        app.deps.billing,
        sessionOf(request).userId,
        request.body.code,
      ),
    }),
  );
};

export default subscriptionRoutes;

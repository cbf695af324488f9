import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ACCOUNT_ROUTES } from '@dealerpass/domain/account/account-routes';
import {
  ZSubscriptionChangePreviewQuerySchema,
  ZSubscriptionChangeRequestSchema,
  ZUndoRemovalRequestSchema,
} from '@dealerpass/domain/schemas/subscription-change';
import {
  changeSubscription,
  getPendingRemovals,
  previewSubscriptionChange,
  undoPendingRemoval,
} from '../../services/billing/change-subscription.ts';
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
      schema: { querystring: ZSubscriptionChangePreviewQuerySchema },
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
      schema: { body: ZSubscriptionChangeRequestSchema },
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
    { config: { access: SUBSCRIPTIONS_PAGE } },
    async (request) => ({ data: await getPendingRemovals(app.db, sessionOf(request).userId) }),
  );

  app.post(
    '/api/users/subscriptions/pendingRemovals/undo',
    {
      config: { access: SUBSCRIPTIONS_PAGE },
      bodyLimit: 1024,
      schema: { body: ZUndoRemovalRequestSchema },
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

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZOverviewAccountsQuerySchema,
  ZOverviewAccountsSchema,
  ZOverviewQuerySchema,
  ZOverviewSchema,
} from '@dealerpass/domain/overview/overview-views';
import { getOverview } from '../../services/overview/get-overview.ts';
import { listOverviewAccounts } from '../../services/overview/list-overview-accounts.ts';

/** Billing and admin see the business's figures (issue 29); support keeps its queues and search. */
const BILLING = { access: { staff: 'billing' } } as const;

/** The console's overview (R18, docs/decisions/042): the figures, and the accounts behind one. */
const overviewRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/admin/overview',
    {
      config: BILLING,
      schema: {
        operationId: 'getOverview',
        summary:
          'The business at a glance: MRR, paying accounts, open dunning now, and per month of the period MRR, gross revenue, new, reactivated and churned accounts, dunning recovery, revenue by product group and item',
        tags: ['Admin'],
        querystring: ZOverviewQuerySchema,
        response: { 200: z.object({ data: ZOverviewSchema }) },
      },
    },
    async (request) => ({
      data: await getOverview(app.db, {
        ...request.query,
        timeZone: app.config.billing.timeZone,
        now: app.now(),
      }),
    }),
  );

  app.get(
    '/api/admin/overview/accounts',
    {
      config: BILLING,
      schema: {
        operationId: 'listOverviewAccounts',
        summary: 'The accounts behind one bar or point of the overview, largest amount first',
        tags: ['Admin'],
        querystring: ZOverviewAccountsQuerySchema,
        response: { 200: z.object({ data: ZOverviewAccountsSchema }) },
      },
    },
    async (request) => ({
      data: await listOverviewAccounts(app.db, {
        ...request.query,
        timeZone: app.config.billing.timeZone,
        now: app.now(),
      }),
    }),
  );
};

export default overviewRoutes;

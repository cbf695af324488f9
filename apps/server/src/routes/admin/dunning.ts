import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZStaffDunningSchema } from '@dealerpass/domain/admin/business-views';
import { listDunning } from '../../services/admin/dunning/list-dunning.ts';

/** The dunning queue and the billing run's recent runs (R4, R12): every role reads it. */
const dunningRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/admin/dunning',
    {
      config: { access: { staff: 'support' } },
      schema: {
        operationId: 'getDunning',
        summary: 'Accounts in validating payment with what they owe, and the recent billing runs',
        tags: ['Admin'],
        response: { 200: z.object({ data: ZStaffDunningSchema }) },
      },
    },
    async () => ({ data: await listDunning(app.db) }),
  );
};

export default dunningRoutes;

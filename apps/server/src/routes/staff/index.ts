import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZSchedulePriceChangeRequestSchema } from '@dealerpass/domain/billing/price-change';
import {
  listPriceChanges,
  schedulePriceChange,
} from '../../services/prices/schedule-price-change.ts';

/**
 * The staff API (DECISIONS R11): schedule and list price changes. Registered only with
 * STAFF_API_TOKEN set, and opened only by that bearer token (docs/decisions/025) until staff
 * sign-in and roles exist (R12: price changes are for admins). A script or the operator console
 * calls it, not a browser page: no cookie, so no CSRF token either.
 */
const staffRoutes: FastifyPluginAsyncZod = async (app) => {
  const STAFF = { access: 'staff-token', caller: 'protocol' } as const;

  app.get('/api/staff/prices', { config: STAFF }, async () => {
    const rows = await listPriceChanges(app.db);
    return {
      data: rows.map((row) => ({
        item: row.item,
        effectiveFrom: row.effectiveFrom?.toISOString() ?? null,
        cents: row.cents,
        scheduledBy: row.scheduledBy,
        scheduledAt: row.createdAt.toISOString(),
      })),
    };
  });

  app.post(
    '/api/staff/prices',
    {
      config: STAFF,
      bodyLimit: 8 * 1024,
      schema: { body: ZSchedulePriceChangeRequestSchema },
    },
    async (request, reply) => {
      const scheduled = await schedulePriceChange(
        { ...app.deps.billing, prices: app.prices },
        request.body,
        'staff-api',
      );
      void app.mail.kick().catch(() => undefined);
      return reply.status(201).send({ data: scheduled });
    },
  );
};

export default staffRoutes;

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZSchedulePriceChangeRequestSchema } from '@dealerpass/domain/billing/price-change';
import {
  listPriceChanges,
  schedulePriceChange,
} from '../../services/prices/schedule-price-change.ts';

const ZPriceRowSchema = z.object({
  item: z.string(),
  from: z.string().nullable(),
  cents: z.number().int(),
});

const ZPriceListSchema = z.object({
  data: z.array(
    z.object({
      item: z.string(),
      /** Null for the seed's first price of an item (in force since always). */
      effectiveFrom: z.string().nullable(),
      cents: z.number().int(),
      scheduledBy: z.string(),
      scheduledAt: z.string(),
    }),
  ),
});

const ZScheduledSchema = z.object({
  data: z.object({
    effectiveDate: z.iso.date(),
    effectiveFrom: z.string(),
    rows: z.array(ZPriceRowSchema),
    /** Accounts e-mailed now, each once (R11). */
    notified: z.number().int(),
  }),
});

/**
 * The staff API (DECISIONS R11): schedule and list price changes. Registered only with
 * STAFF_API_TOKEN set, and opened only by that bearer token (docs/decisions/025) until staff
 * sign-in and roles exist (R12: price changes are for admins). A script or the operator console
 * calls it, not a browser page: no cookie, so no CSRF token either.
 */
const staffRoutes: FastifyPluginAsyncZod = async (app) => {
  const STAFF = { access: 'staff-token', caller: 'protocol' } as const;

  app.get(
    '/api/staff/prices',
    {
      config: STAFF,
      schema: {
        summary: 'Every price, the seed’s and the scheduled ones, newest first',
        tags: ['Staff'],
        response: { 200: ZPriceListSchema },
      },
    },
    async () => {
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
    },
  );

  app.post(
    '/api/staff/prices',
    {
      config: STAFF,
      bodyLimit: 8 * 1024,
      schema: {
        summary: 'Schedule a price change at least 30 days ahead; e-mails every account it changes',
        tags: ['Staff'],
        body: ZSchedulePriceChangeRequestSchema,
        response: { 201: ZScheduledSchema },
      },
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

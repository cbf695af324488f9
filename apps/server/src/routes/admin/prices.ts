import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZStaffPreviewPriceRequestSchema,
  ZStaffSchedulePriceRequestSchema,
  ZStaffWithdrawPriceRequestSchema,
} from '@dealerpass/domain/admin/console-requests';
import {
  ZStaffPriceChangePreviewSchema,
  ZStaffPricesSchema,
} from '@dealerpass/domain/admin/business-views';
import { staffOf } from '../../plugins/staff-session.ts';
import { listPriceSchedule } from '../../services/admin/prices/list-price-schedule.ts';
import { scheduleStaffPrice } from '../../services/admin/prices/schedule-price.ts';
import { withdrawStaffPrice } from '../../services/admin/prices/withdraw-price.ts';
import { previewPriceChange } from '../../services/prices/preview-price-change.ts';

const ZScheduledSchema = z.object({
  data: z.object({
    auditId: z.number().int(),
    effectiveDate: z.iso.date(),
    effectiveFrom: z.string(),
    rows: z.array(
      z.object({ item: z.string(), from: z.string().nullable(), cents: z.number().int() }),
    ),
    /** Accounts e-mailed now, each once (R11). */
    notified: z.number().int(),
  }),
});

const ZWithdrawnSchema = z.object({
  data: z.object({
    auditId: z.number().int(),
    effectiveDate: z.iso.date(),
    effectiveFrom: z.string(),
    rows: z.array(
      z.object({ item: z.string(), from: z.string().nullable(), cents: z.number().int() }),
    ),
    /** Accounts told of the change and now e-mailed its withdrawal (R11 amended). */
    notified: z.number().int(),
  }),
});

/**
 * Prices (R11, R12; docs/decisions/025, 026, 032): every role reads the table and the changes
 * ahead; an admin previews a change (the accounts it reaches, one sample notice), then schedules
 * it, at least 30 days ahead, e-mailing every account it will bill at the new price, and may
 * withdraw it until its date, e-mailing the withdrawal to every account told.
 */
const priceRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/admin/prices',
    {
      config: { access: { staff: 'support' } },
      schema: {
        operationId: 'listPrices',
        summary:
          'Every price, and each change ahead with the accounts it moves and the notices sent',
        tags: ['Admin'],
        response: { 200: z.object({ data: ZStaffPricesSchema }) },
      },
    },
    async () => ({ data: await listPriceSchedule(app.db, app.now(), app.deps.billing.timeZone) }),
  );

  app.post(
    '/api/admin/prices/preview',
    {
      config: { access: { staff: 'admin' } },
      bodyLimit: 8 * 1024,
      schema: {
        operationId: 'previewPriceChange',
        summary:
          'What scheduling a price change would do (accounts told, one sample notice); changes nothing',
        tags: ['Admin'],
        // 400: less than 30 days ahead (PRICE_CHANGE_TOO_SOON).
        body: ZStaffPreviewPriceRequestSchema,
        response: { 200: z.object({ data: ZStaffPriceChangePreviewSchema }) },
      },
    },
    async (request) => ({
      data: await previewPriceChange(app.deps.billing, request.body),
    }),
  );

  app.post(
    '/api/admin/prices/withdrawal',
    {
      config: { access: { staff: 'admin' } },
      bodyLimit: 8 * 1024,
      schema: {
        operationId: 'withdrawPriceChange',
        summary:
          'Withdraw a scheduled price change before its date; e-mails every account told of it',
        tags: ['Admin'],
        // 409: nothing is scheduled for that date any more (PRICE_CHANGE_NOT_WITHDRAWABLE), or
        // the request key was another action's (ACTION_NOT_ALLOWED).
        errors: [409],
        body: ZStaffWithdrawPriceRequestSchema,
        response: { 200: ZWithdrawnSchema },
      },
    },
    async (request) => {
      const withdrawn = await withdrawStaffPrice(
        { ...app.deps.billing, prices: app.prices },
        staffOf(request),
        request.body,
      );
      void app.mail.kick().catch(() => undefined);
      return { data: withdrawn };
    },
  );

  app.post(
    '/api/admin/prices',
    {
      config: { access: { staff: 'admin' } },
      bodyLimit: 8 * 1024,
      schema: {
        operationId: 'schedulePriceChange',
        summary:
          'Schedule a price change at least 30 days ahead (after its preview); e-mails every account billed at it',
        tags: ['Admin'],
        // 400: less than 30 days ahead (PRICE_CHANGE_TOO_SOON); 409: the request key was another
        // action's (ACTION_NOT_ALLOWED).
        errors: [409],
        body: ZStaffSchedulePriceRequestSchema,
        response: { 201: ZScheduledSchema },
      },
    },
    async (request, reply) => {
      const scheduled = await scheduleStaffPrice(
        { ...app.deps.billing, prices: app.prices },
        staffOf(request),
        request.body,
      );
      void app.mail.kick().catch(() => undefined);
      return reply.status(201).send({ data: scheduled });
    },
  );
};

export default priceRoutes;

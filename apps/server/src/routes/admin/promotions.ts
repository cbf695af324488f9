import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZCreatePromotionRequestSchema,
  ZDisablePromotionRequestSchema,
  ZPromotionCodeParamsSchema,
} from '@dealerpass/domain/admin/console-requests';
import { ZStaffPromotionSchema } from '@dealerpass/domain/admin/business-views';
import { staffOf } from '../../plugins/staff-session.ts';
import { createPromotion } from '../../services/admin/promotions/create-promotion.ts';
import { disablePromotion } from '../../services/admin/promotions/disable-promotion.ts';
import { listPromotions } from '../../services/admin/promotions/list-promotions.ts';

const ZPromotionActionSchema = z.object({
  data: z.object({
    auditId: z.number().int(),
    promotion: ZStaffPromotionSchema.omit({ recentRedemptions: true, status: true }),
  }),
});

/** Promotion codes (R12): every role reads them; billing and admin create and disable them. */
const promotionRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/admin/promotions',
    {
      config: { access: { staff: 'support' } },
      schema: {
        operationId: 'listPromotions',
        summary: 'Promotion codes with their limits, redemption counts and recent redemptions',
        tags: ['Admin'],
        response: { 200: z.object({ data: z.array(ZStaffPromotionSchema) }) },
      },
    },
    async () => ({ data: await listPromotions(app.db, app.now()) }),
  );

  app.post(
    '/api/admin/promotions',
    {
      config: { access: { staff: 'billing' } },
      bodyLimit: 4 * 1024,
      schema: {
        operationId: 'createPromotion',
        summary: 'Create a promotion code',
        tags: ['Admin'],
        // 409: a code of that name exists (PROMO_CODE_EXISTS), or the request key was another
        // action's (ACTION_NOT_ALLOWED).
        errors: [409],
        body: ZCreatePromotionRequestSchema,
        response: { 201: ZPromotionActionSchema },
      },
    },
    async (request, reply) => {
      const result = await createPromotion(app, staffOf(request), request.body);
      return reply.status(201).send({ data: result });
    },
  );

  app.post(
    '/api/admin/promotions/:code/disable',
    {
      config: { access: { staff: 'billing' } },
      bodyLimit: 4 * 1024,
      schema: {
        operationId: 'disablePromotion',
        summary: 'Disable a promotion code: the sign-up refuses it from now on',
        tags: ['Admin'],
        // 404: no such code; 409: already disabled (ACTION_NOT_ALLOWED).
        errors: [404, 409],
        params: ZPromotionCodeParamsSchema,
        body: ZDisablePromotionRequestSchema,
        response: { 200: ZPromotionActionSchema },
      },
    },
    async (request) => ({
      data: await disablePromotion(app, staffOf(request), request.params.code, request.body),
    }),
  );
};

export default promotionRoutes;

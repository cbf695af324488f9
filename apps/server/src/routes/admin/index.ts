import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import contactInboxRoutes from './inbox.ts';
import dunningRoutes from './dunning.ts';
import overviewRoutes from './overview.ts';
import financeRoutes from './finance.ts';
import priceRoutes from './prices.ts';
import promotionRoutes from './promotions.ts';

/**
 * The operator console's business pages (R11, R12; docs/decisions/026): promotion codes, prices,
 * the dunning queue, the Contact Us inbox, the overview's figures (R18) and the finance export. Each
 * route names its least role; actions carry a
 * request key and write their audit row in the transaction of their change.
 */
const adminBusinessRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(promotionRoutes);
  await app.register(priceRoutes);
  await app.register(dunningRoutes);
  await app.register(contactInboxRoutes);
  await app.register(overviewRoutes);
  await app.register(financeRoutes);
};

export default adminBusinessRoutes;

import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { CONFIG_ENV_PATH, type IEnvConfig } from '@dealerpass/domain/integrations/carfax';

const ZEnvConfigResponseSchema = z.object({
  data: z.object({
    carfaxClientId: z.string(),
    carfaxLoginCallbackUrl: z.string(),
    carfaxLogoutCallbackUrl: z.string(),
  }),
});

/**
 * `GET /api/v2/config/env` (000 §7, 001 §7): the Carfax client id and our two Carfax callback
 * URLs. Public, as the page's own runtime configuration is: none of it is secret (the client id
 * is in every authorization URL), and the client secret stays on the server.
 */
const configRoutes: FastifyPluginAsyncZod = async (app) => {
  const body: { data: IEnvConfig } = {
    data: {
      carfaxClientId: app.carfax.client.clientId,
      carfaxLoginCallbackUrl: app.carfax.loginCallbackUrl,
      carfaxLogoutCallbackUrl: app.carfax.logoutCallbackUrl,
    },
  };
  app.get(
    CONFIG_ENV_PATH,
    {
      config: { access: 'public' },
      schema: {
        operationId: 'getCarfaxConfig',
        summary: 'The Carfax client id and our Carfax callback URLs',
        tags: ['Carfax'],
        response: { 200: ZEnvConfigResponseSchema },
      },
    },
    async () => body,
  );
};

export default configRoutes;

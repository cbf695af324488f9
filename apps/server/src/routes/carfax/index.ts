import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  CARFAX_API,
  ZCarfaxSignInRequestSchema,
  ZCarfaxTokensParamsSchema,
  ZCarfaxTokensQuerySchema,
} from '@dealerpass/domain/integrations/carfax';
import { ACCOUNT_ROUTES } from '@dealerpass/domain/account/account-routes';
import { connectCarfax } from '../../services/carfax/connect-carfax.ts';
import { disconnectCarfax } from '../../services/carfax/disconnect-carfax.ts';
import { getCarfaxStatus } from '../../services/carfax/get-carfax-status.ts';
import { refreshCarfaxTokens } from '../../services/carfax/refresh-carfax-tokens.ts';
import { startCarfaxSignIn } from '../../services/carfax/start-carfax-sign-in.ts';
import { sessionOf } from '../../plugins/session.ts';

const ZStatusSchema = z.object({
  status: z.literal('connected'),
  accessTokenExpiresAt: z.string(),
  connectedAt: z.string(),
});
const ZStatusResponseSchema = z.object({ data: ZStatusSchema });

/**
 * Our Carfax API (000 §2, §4, §7; 001 §7; issue 8). Every route: signed in, an active account
 * holding CF (checked here, not only in the web app), own connection only. No answer carries a
 * token (R7): the response schemas let only the status and the URLs through.
 */
const carfaxRoutes: FastifyPluginAsyncZod = async (app) => {
  // Every route: the Carfax page's rule (an active account that holds CF, route-access.ts).
  const access = { page: ACCOUNT_ROUTES.carfaxStatus } as const;
  const limited = { access, rateLimit: { max: 30, timeWindow: '1 minute' } };

  app.post(
    CARFAX_API.signIn,
    {
      bodyLimit: 1024,
      config: limited,
      schema: {
        operationId: 'startCarfaxSignIn',
        summary: 'Start a Carfax sign-in: the provider’s authorization URL',
        tags: ['Carfax'],
        body: ZCarfaxSignInRequestSchema,
        response: { 200: z.object({ data: z.object({ authorizationUrl: z.string() }) }) },
      },
    },
    async (request) => {
      const session = sessionOf(request);
      return {
        data: await startCarfaxSignIn(app.carfax.deps(request.log), {
          userId: session.userId,
          sessionIdHash: session.idHash,
          state: request.body.state,
        }),
      };
    },
  );

  app.get(
    `${CARFAX_API.tokens}/:code/:redirectUri`,
    {
      config: limited,
      schema: {
        operationId: 'finishCarfaxSignIn',
        summary: 'Finish a Carfax sign-in: exchange the code for tokens (kept on the server)',
        tags: ['Carfax'],
        // 502: Carfax refused or failed the exchange (CARFAX_TOKENS_FAILED).
        errors: [502],
        params: ZCarfaxTokensParamsSchema,
        querystring: ZCarfaxTokensQuerySchema,
        response: { 200: ZStatusResponseSchema },
      },
    },
    async (request) => {
      const session = sessionOf(request);
      return {
        data: await connectCarfax(app.carfax.deps(request.log), {
          userId: session.userId,
          sessionIdHash: session.idHash,
          code: request.params.code,
          redirectUri: request.params.redirectUri,
          state: request.query.state,
        }),
      };
    },
  );

  app.get(
    CARFAX_API.status,
    {
      config: { access },
      schema: {
        operationId: 'getCarfaxStatus',
        summary: 'Whether Carfax is connected',
        tags: ['Carfax'],
        // 404: not connected (CARFAX_TOKENS_MISSING); 401: its tokens expired (CARFAX_TOKENS_EXPIRED).
        errors: [404],
        response: { 200: ZStatusResponseSchema },
      },
    },
    async (request) => ({
      data: await getCarfaxStatus(app.db, sessionOf(request).userId, app.now()),
    }),
  );

  app.post(
    CARFAX_API.refresh,
    {
      config: limited,
      schema: {
        operationId: 'refreshCarfaxTokens',
        summary: 'Refresh the Carfax tokens',
        tags: ['Carfax'],
        errors: [404, 502],
        response: { 200: ZStatusResponseSchema },
      },
    },
    async (request) => ({
      data: await refreshCarfaxTokens(app.carfax.deps(request.log), sessionOf(request).userId),
    }),
  );

  app.post(
    CARFAX_API.revoke,
    {
      config: limited,
      schema: {
        operationId: 'revokeCarfaxTokens',
        summary: 'Disconnect Carfax: revoke the tokens, and Carfax’s sign-out URL',
        tags: ['Carfax'],
        errors: [502],
        response: {
          200: z.object({ data: z.object({ logoutUrl: z.string(), revoked: z.boolean() }) }),
        },
      },
    },
    async (request) => ({
      data: await disconnectCarfax(app.carfax.deps(request.log), sessionOf(request).userId),
    }),
  );
};

export default carfaxRoutes;

import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ACCOUNT_ROUTES } from '@dealerpass/domain/account/account-routes';
import { ZConnectKarIdRequestSchema } from '@dealerpass/domain/schemas/identity';
import { ZEmailParamSchema } from '@dealerpass/domain/schemas/user-params';
import { connectKarId } from '../../services/users/connect-kar-id.ts';
import { isAlternateEmailTaken, isUserIdTaken } from '../../services/users/is-email-taken.ts';
import {
  businessToday,
  ZCurrentUserSchema,
  serializeUser,
} from '../../services/users/serialize-user.ts';
import { registerUpdateCurrentUser } from './update-current-user.ts';
import { accountOf, sessionOf } from '../../plugins/session.ts';

const ZUserResponseSchema = z.object({ data: ZCurrentUserSchema });
const ZTakenResponseSchema = z.object({ data: z.boolean() });

/**
 * The account record (000 §3, §7; docs/decisions/009). Signed-in routes go through
 * `app.requireSession` and touch only the session's own user; the response schema lets no field
 * outside 000 §3 (minus secrets, R7) leave the server.
 */
const userRoutes: FastifyPluginAsyncZod = async (app) => {
  /** A blocked account still gets its record, so the web app can send it to /authlogin. */
  app.get(
    '/api/users/current',
    {
      config: { access: 'session' },
      schema: {
        operationId: 'getCurrentUser',
        summary: 'The signed-in account (000 §3)',
        tags: ['Account'],
        response: { 200: ZUserResponseSchema },
      },
    },
    async (request) => {
      return { data: serializeUser(accountOf(request), businessToday(app)) };
    },
  );

  registerUpdateCurrentUser(app);

  app.post(
    '/api/users/current/karid',
    {
      schema: {
        operationId: 'linkDealerPassId',
        summary: 'Create or link a DealerPass ID for a migrated account',
        tags: ['Account'],
        // 409: the address already has a DealerPass ID, or the ID is linked to another account.
        errors: [409],
        body: ZConnectKarIdRequestSchema,
        response: { 200: ZUserResponseSchema },
      },
      bodyLimit: 4 * 1024,
      config: {
        access: { page: ACCOUNT_ROUTES.karIdConnect },
        rateLimit: { max: 20, timeWindow: '10 minutes' },
      },
    },
    async (request) => {
      const session = sessionOf(request);
      const row = await connectKarId(app.deps.karId, {
        userId: session.userId,
        sessionIdHash: session.idHash,
        request: request.body,
        now: app.now(),
        remoteIp: request.ip,
      });
      request.log.info({ mode: request.body.mode }, 'DealerPass ID connected');
      return { data: serializeUser(row, businessToday(app)) };
    },
  );

  // Public (sign-up page 1 and 4, 001 §4–§7): limited per client so they cannot list accounts.
  const takenSchema = {
    tags: ['Sign-up'],
    params: ZEmailParamSchema,
    response: { 200: ZTakenResponseSchema },
  };
  const takenOptions = {
    config: { access: 'public' as const, rateLimit: { max: 30, timeWindow: '1 minute' } },
  };
  app.get(
    '/api/users/userIdTaken/:email',
    {
      ...takenOptions,
      schema: {
        ...takenSchema,
        operationId: 'isUserIdTaken',
        summary: 'Whether a DealerPass ID uses this e-mail address',
      },
    },
    async (request) => ({ data: await isUserIdTaken(app.db, request.params.email) }),
  );
  app.get(
    '/api/users/alternateEmailTaken/:email',
    {
      ...takenOptions,
      schema: {
        ...takenSchema,
        operationId: 'isAlternateEmailTaken',
        summary: 'Whether an account uses this address as its alternate',
      },
    },
    async (request) => ({ data: await isAlternateEmailTaken(app.db, request.params.email) }),
  );
};

export default userRoutes;

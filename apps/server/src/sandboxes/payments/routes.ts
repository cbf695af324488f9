import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { SANDBOX_TOKEN_URL } from './sandbox-gateway.ts';
import {
  SANDBOX_TOKEN_TTL_MS,
  createSandboxTokenRequestSchema,
  issueSandboxToken,
} from './sandbox-tokens.ts';

export interface SandboxGatewayRoutesOptions {
  /** Tokenization requests per minute per client address. */
  tokensPerMinute?: number;
  /** How long a token stays good (15 minutes). */
  tokenTtlMs?: number;
}

/**
 * The sandbox gateway's browser endpoint (DECISIONS R5, docs/decisions/010): the card fields post
 * here directly, never to our API, and get a one-time payment token back. It lives outside /api,
 * as a third party's endpoint would: no CSRF token, no session, and the API's raw-card refusal
 * does not apply. The card is checked with the domain's rules; 400 carries each field's message.
 */
const sandboxGatewayRoutes: FastifyPluginAsyncZod<SandboxGatewayRoutesOptions> = async (
  app,
  options,
) => {
  app.post(
    SANDBOX_TOKEN_URL,
    {
      schema: { body: createSandboxTokenRequestSchema(() => app.now()) },
      bodyLimit: 2 * 1024,
      config: {
        access: 'public',
        caller: 'protocol',
        rateLimit: { max: options.tokensPerMinute ?? 30, timeWindow: '1 minute' },
      },
    },
    async (request, reply) => {
      const token = await issueSandboxToken(
        app.db,
        request.body,
        app.now(),
        options.tokenTtlMs ?? SANDBOX_TOKEN_TTL_MS,
      );
      return reply.status(201).header('cache-control', 'no-store').send({ data: token });
    },
  );
};

export default sandboxGatewayRoutes;

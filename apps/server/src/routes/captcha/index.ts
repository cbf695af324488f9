import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ERROR_CODES } from '@dealerpass/domain/messages';
import { AppError } from '../../errors/app-error.ts';

/** GET /api/captcha/challenge: a fresh, signed, expiring ALTCHA challenge for the browser to solve. */
const captchaRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/captcha/challenge',
    {
      config: { access: 'public', rateLimit: { max: 60, timeWindow: '1 minute' } },
      schema: {
        operationId: 'getCaptchaChallenge',
        summary: 'A captcha challenge (ALTCHA proof of work) to solve in the browser',
        tags: ['Platform'],
        // 404 when the captcha is reCAPTCHA: there is no challenge of ours to fetch.
        errors: [404],
        response: {
          // ALTCHA's (v1) challenge, and how long it lives.
          200: z.object({
            algorithm: z.string(),
            challenge: z.string(),
            maxnumber: z.number().optional(),
            salt: z.string(),
            signature: z.string(),
            expiresInSeconds: z.number(),
          }),
        },
      },
    },
    async () => {
      if (!app.captcha.createChallenge) throw new AppError(ERROR_CODES.NOT_FOUND);
      return app.captcha.createChallenge();
    },
  );
};

export default captchaRoutes;

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ERROR_CODES } from '@dealerpass/domain/messages';
import { AppError } from '../../errors/app-error.ts';

/** GET /api/captcha/challenge: a fresh, signed, expiring ALTCHA challenge for the browser to solve. */
const captchaRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/captcha/challenge',
    { config: { access: 'public', rateLimit: { max: 60, timeWindow: '1 minute' } } },
    async () => {
      if (!app.captcha.createChallenge) throw new AppError(ERROR_CODES.NOT_FOUND);
      return app.captcha.createChallenge();
    },
  );
};

export default captchaRoutes;

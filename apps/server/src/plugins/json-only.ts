import fp from 'fastify-plugin';
import { ERROR_CODES } from '@dealerpass/domain/messages';
import { AppError } from '../errors/app-error.ts';
import { needsWebAppChecks } from './route-access.ts';

/**
 * The API speaks JSON only (001 §7): on every unsafe route our web app calls (decided on the
 * matched route, as CSRF is), a body of any other type is refused with 415 before parsing.
 */
export default fp(
  async (app) => {
    app.addHook('onRequest', (request, _reply, done) => {
      if (!needsWebAppChecks(request)) return done();
      const length = request.headers['content-length'];
      const hasBody =
        (length !== undefined && length !== '0') ||
        request.headers['transfer-encoding'] !== undefined;
      if (!hasBody) return done();
      const type = (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
      done(
        type === 'application/json' ? undefined : new AppError(ERROR_CODES.UNSUPPORTED_MEDIA_TYPE),
      );
    });
  },
  { name: 'json-only' },
);

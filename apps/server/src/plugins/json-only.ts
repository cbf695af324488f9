import fp from 'fastify-plugin';
import { ERROR_CODES } from '@dealerpass/domain/messages';
import { AppError } from '../errors/app-error.ts';
import { isOurWriteEndpoint } from './csrf.ts';

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The API speaks JSON only (001 §7): a body of any other type is refused with 415 before parsing. */
export default fp(
  async (app) => {
    app.addHook('onRequest', (request, _reply, done) => {
      if (!UNSAFE.has(request.method) || !isOurWriteEndpoint(request.url)) return done();
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

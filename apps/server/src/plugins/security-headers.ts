import helmet from '@fastify/helmet';
import fp from 'fastify-plugin';

/**
 * Headers on every response: a strict CSP (scripts only from us, with a per-response nonce, and no
 * inline scripts), no framing, nosniff, a referrer policy; HSTS when the request came over HTTPS;
 * and `no-store` on every API answer, since most carry user data.
 */
export default fp(
  async (app) => {
    const recaptcha = app.config.captcha.kind === 'recaptcha';
    const google = recaptcha
      ? ['https://www.google.com/recaptcha/', 'https://www.gstatic.com/recaptcha/']
      : [];
    await app.register(helmet, {
      enableCSPNonces: true,
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'", ...google],
          styleSrc: ["'self'"],
          imgSrc: ["'self'", 'data:'],
          fontSrc: ["'self'"],
          connectSrc: ["'self'"],
          frameSrc: recaptcha ? ['https://www.google.com/recaptcha/'] : ["'none'"],
          workerSrc: ["'self'"],
          formAction: ["'self'"],
          frameAncestors: ["'none'"],
          objectSrc: ["'none'"],
          baseUri: ["'none'"],
        },
      },
      referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
      // Sent only over HTTPS, below: HSTS on plain HTTP is meaningless and breaks local use.
      strictTransportSecurity: false,
      crossOriginEmbedderPolicy: false,
    });

    app.addHook('onSend', async (request, reply) => {
      if (request.protocol === 'https') {
        reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
      }
      if (request.url.startsWith('/api/')) {
        reply.header('cache-control', 'no-store');
      }
    });
  },
  { name: 'security-headers', dependencies: ['config'] },
);

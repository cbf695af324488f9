import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** RFC 9116 §3: the file's one location; any other `/.well-known/` path is a 404 (web-app.ts). */
export const SECURITY_TXT_PATH = '/.well-known/security.txt';

/**
 * GET /.well-known/security.txt (RFC 9116; issue 27, item 6): whom to tell of a vulnerability,
 * from configuration (config.ts `securityTxt`). Contact and Expires are the required fields;
 * Canonical names this very file under PUBLIC_URL, so a copy served elsewhere is recognisable.
 */
const wellKnownRoutes: FastifyPluginAsyncZod = async (app) => {
  const { contact, expires, preferredLanguages } = app.config.securityTxt;
  const body = [
    ...contact.map((uri) => `Contact: ${uri}`),
    `Expires: ${expires}`,
    `Preferred-Languages: ${preferredLanguages}`,
    `Canonical: ${app.config.publicUrl}${SECURITY_TXT_PATH}`,
    '',
  ].join('\n');
  app.get(SECURITY_TXT_PATH, { config: { access: 'public' } }, async (_request, reply) =>
    reply
      .type('text/plain; charset=utf-8')
      .header('cache-control', 'public, max-age=86400')
      .send(body),
  );
};

export default wellKnownRoutes;

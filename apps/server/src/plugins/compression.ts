import { brotliCompress, constants, gzip } from 'node:zlib';
import { Negotiator } from '@fastify/accept-negotiator';
import type { FastifyReply } from 'fastify';
import fp from 'fastify-plugin';

/** Answers smaller than this go out as they are: compression would save less than a packet. */
export const COMPRESSION_THRESHOLD_BYTES = 1024;

/** Only our own text answers: the API's JSON and the app's page (PDFs, zips, streams never). */
const COMPRESSIBLE_TYPE = /^(application\/json|text\/html)\b/;

// Quality 4 / level 6: most of the ratio at a fraction of the time of the build's maximum
// settings, since this runs per response (docs/decisions/020).
const BROTLI_OPTIONS = {
  params: {
    [constants.BROTLI_PARAM_QUALITY]: 4,
    [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
  },
};
const GZIP_OPTIONS = { level: 6 };

const negotiator = new Negotiator<'br' | 'gzip'>({ supportedValues: ['br', 'gzip'] });

/**
 * Compresses the server's own JSON and HTML answers above 1 KB on the fly, by the request's
 * Accept-Encoding (q-values honoured; `identity` or none: as they are). The built assets are
 * compressed at build time and picked by @fastify/static instead (plugins/web-app.ts). Streams
 * (receipt PDFs, year zips) and hijacked replies (the OIDC provider) are never touched.
 */
export default fp(
  async (app) => {
    // A callback hook: most answers are passed on untouched, without a promise per request.
    app.addHook('onSend', (request, reply, payload, done) => {
      if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return done(null, payload);
      if (!isCompressible(reply)) return done(null, payload);
      // The answer depends on the header whether or not this one is compressed.
      addVary(reply);
      const size = typeof payload === 'string' ? Buffer.byteLength(payload) : payload.length;
      const header = request.headers['accept-encoding'];
      const encoding =
        size >= COMPRESSION_THRESHOLD_BYTES && header
          ? negotiator.negotiate(header.toLowerCase())
          : null;
      if (!encoding) return done(null, payload);
      const body = typeof payload === 'string' ? Buffer.from(payload) : payload;
      const finish = (error: Error | null, compressed: Buffer) => {
        if (error) return done(error);
        reply.header('content-encoding', encoding);
        reply.header('content-length', compressed.length);
        // Another representation: a strong validator of the plain body no longer matches it.
        const etag = reply.getHeader('etag');
        if (typeof etag === 'string' && !etag.startsWith('W/')) reply.header('etag', `W/${etag}`);
        done(null, compressed);
      };
      if (encoding === 'br') brotliCompress(body, BROTLI_OPTIONS, finish);
      else gzip(body, GZIP_OPTIONS, finish);
    });
  },
  { name: 'compression' },
);

function isCompressible(reply: FastifyReply): boolean {
  if (reply.hasHeader('content-encoding')) return false;
  const type = reply.getHeader('content-type');
  return typeof type === 'string' && COMPRESSIBLE_TYPE.test(type);
}

function addVary(reply: FastifyReply): void {
  const current = reply.getHeader('vary');
  const value = Array.isArray(current) ? current.join(', ') : String(current ?? '');
  const tokens = value.split(',').map((token) => token.trim().toLowerCase());
  if (tokens.includes('accept-encoding') || tokens.includes('*')) return;
  reply.header('vary', value ? `${value}, Accept-Encoding` : 'Accept-Encoding');
}

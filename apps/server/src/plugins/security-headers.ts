import { randomBytes } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config.ts';

/**
 * Powerful browser features no page of ours uses, refused to our pages and to anything they
 * embed (the chat, reCAPTCHA): card details go to Accept.js as a form, never through the
 * Payment Request API, and the staff second factor is a typed code (issue 27, item 9). Only
 * features Chromium knows, so the header adds no console error of its own.
 */
export const PERMISSIONS_POLICY = [
  'accelerometer',
  'camera',
  'display-capture',
  'geolocation',
  'gyroscope',
  'hid',
  'idle-detection',
  'magnetometer',
  'microphone',
  'midi',
  'payment',
  'screen-wake-lock',
  'serial',
  'usb',
  'xr-spatial-tracking',
]
  .map((feature) => `${feature}=()`)
  .join(', ');

/**
 * What sign-out asks the browser to forget (W3C Clear Site Data): the HTTP cache (pages of the
 * account), every cookie of the site (ours and the embedded provider's) and its storage. Sent on
 * the response that ends a sign-out, once nothing else needs those cookies (issue 27, item 9).
 */
export const CLEAR_SITE_DATA = '"cache", "cookies", "storage"';

/** Headers every response carries; computed once, set with one call per request. */
const STATIC_HEADERS: Record<string, string> = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  // Non-HTML answers (JSON, assets) may not run or embed anything at all.
  'content-security-policy':
    "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  'permissions-policy': PERMISSIONS_POLICY,
};

const HSTS = 'max-age=31536000; includeSubDomains';

/**
 * The CSP of an HTML page: scripts only from us and only with this response's nonce (no inline
 * script), styles and images from us, no framing, no plugins, no <base>.
 */
export function pageContentSecurityPolicy(
  config: Config,
  nonce: string,
  options: { webDev?: boolean } = {},
): string {
  const recaptcha = config.captcha.kind === 'recaptcha';
  const google = recaptcha
    ? ' https://www.google.com/recaptcha/ https://www.gstatic.com/recaptcha/'
    : '';
  // Authorize.Net's Accept.js (DECISIONS R5): its script, and the API it posts the card to directly.
  const acceptJs =
    config.payments.kind === 'authorize-net' ? new URL(config.payments.acceptJsUrl) : null;
  const acceptScript = acceptJs ? ` ${acceptJs.origin}` : '';
  const acceptApi = acceptJs
    ? ` ${acceptJs.hostname.startsWith('jstest.') ? 'https://apitest.authorize.net' : 'https://api2.authorize.net'}`
    : '';
  // The live chat (DECISIONS R8, docs/decisions/014): its script, its iframe and the socket it
  // opens, from the configured origin only. Its loader adds a <style> element without a nonce,
  // so inline styles are allowed while (and only while) a chat is configured.
  const chat = config.chat ? new URL(config.chat.baseUrl) : null;
  const chatOrigin = chat ? ` ${chat.origin}` : '';
  const chatSocket = chat ? ` ${chat.protocol === 'https:' ? 'wss' : 'ws'}://${chat.host}` : '';
  // `npm run dev` only (docs/decisions/022): Vite injects each stylesheet as a <style> element
  // and keeps a socket to this server for hot reload.
  const devSocket = options.webDev
    ? ` ${new URL(config.publicUrl).protocol === 'https:' ? 'wss' : 'ws'}://${new URL(config.publicUrl).host}`
    : '';
  const frames = [recaptcha ? 'https://www.google.com/recaptcha/' : '', chat ? chat.origin : '']
    .filter(Boolean)
    .join(' ');
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'${google}${acceptScript}${chatOrigin}`,
    `style-src 'self'${chat || options.webDev ? " 'unsafe-inline'" : ''}`,
    `img-src 'self' data:${chatOrigin}`,
    "font-src 'self'",
    `connect-src 'self'${acceptApi}${chatOrigin}${chatSocket}${devSocket}`,
    `frame-src ${frames || "'none'"}`,
    "worker-src 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "object-src 'none'",
    "base-uri 'none'",
  ].join('; ');
}

/** Sets a page's CSP and returns the nonce its script tags must carry. */
export function setPagePolicy(
  reply: FastifyReply,
  config: Config,
  options: { webDev?: boolean } = {},
): string {
  const nonce = randomBytes(16).toString('base64');
  reply.header('content-security-policy', pageContentSecurityPolicy(config, nonce, options));
  return nonce;
}

/**
 * Security headers on every response (nosniff, referrer policy, no framing, a strict CSP), HSTS
 * when the request came over HTTPS, and `no-store` unless a route sets its own caching, since
 * most answers carry user data. One synchronous hook with precomputed values: this runs on every request.
 */
export default fp(
  async (app) => {
    app.addHook('onRequest', (request, reply, done) => {
      reply.headers(STATIC_HEADERS);
      if (request.protocol === 'https') reply.header('strict-transport-security', HSTS);
      done();
    });
    // Every answer is no-store unless its route set its own caching (hashed assets, the static
    // files' `setHeaders` on the raw response, a stylesheet): no test of the path, which the
    // router may have decoded (`/%61pi/users/current` is `/api/users/current`).
    app.addHook('onSend', (_request, reply, payload, done) => {
      if (!reply.hasHeader('cache-control') && !reply.raw.hasHeader('cache-control')) {
        reply.header('cache-control', 'no-store');
      }
      done(null, payload);
    });
  },
  { name: 'security-headers', dependencies: ['config'] },
);
